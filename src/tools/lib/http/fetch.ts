// A request wrapper for web tools that turns network failures into null (a scanner notes "no answer" and moves on).
import { HTTP_TIMEOUT_MS } from '../../../toolkit/timeouts.js'
import type { Egress, HttpRequest, HttpResponse } from '../../../toolkit/egress.js'
import type { HostLimiters } from './rate-limit.js'

export interface Fetcher {
  (url: string, req?: Omit<HttpRequest, 'signal'>): Promise<HttpResponse | null>
  /** Requests sent so far. */
  readonly count: number
}

/** ctx.net.http bound to the scan's signal and defaults; failures (refused, timeout, abort) → null. */
export function createFetcher(
  net: Egress,
  signal: AbortSignal,
  defaults: Omit<HttpRequest, 'signal'> = {},
  onError?: (url: string, e: Error) => void,
  limiter?: HostLimiters,
): Fetcher {
  let count = 0
  const f = async (url: string, req: Omit<HttpRequest, 'signal'> = {}) => {
    if (signal.aborted) return null
    count++
    try {
      // Politeness: requests to one host are spaced to the scan's rate (the wait ends on abort).
      if (limiter) await limiter.take(hostOf(url), signal)
      return await net.http(url, {
        timeoutMs: HTTP_TIMEOUT_MS,
        maxBodyBytes: 512 * 1024,
        ...defaults,
        ...req,
        headers: { ...defaults.headers, ...req.headers },
        signal,
      })
    } catch (e) {
      if (!signal.aborted) onError?.(url, e as Error)
      return null
    }
  }
  Object.defineProperty(f, 'count', { get: () => count })
  return f as Fetcher
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname
  } catch {
    return url
  }
}
