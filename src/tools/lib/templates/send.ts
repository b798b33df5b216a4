// The engine's one way out: the scan's egress (scope guard on every connection), paced per host,
// each request with a timeout and a bounded body (the evidence notes truncation).
import type { Egress } from '../../../toolkit/egress.js'
import type { HostLimiters } from '../http/rate-limit.js'
import type { HttpSendRequest } from './http.js'
import { HTTP_TIMEOUT_MS } from '../../../toolkit/timeouts.js'

export const TEMPLATE_HTTP = { timeoutMs: HTTP_TIMEOUT_MS, maxBodyBytes: 4 << 20 } as const

export function createTemplateSender(net: Egress, signal: AbortSignal, limiter?: HostLimiters) {
  return async (url: string, req: HttpSendRequest) => {
    if (limiter) await limiter.take(new URL(url).hostname, signal)
    return net.http(url, {
      method: req.method,
      headers: { 'User-Agent': 'Ward template engine', ...req.headers },
      body: req.body,
      ...TEMPLATE_HTTP,
      signal,
    })
  }
}
