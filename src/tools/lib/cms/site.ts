// How a CMS scanner opens its site: the start URL under the scan's redirect policy, the base folder,
// the place findings carry, a rate-limited fetcher and the home page as an answer.
import { HTTP_TIMEOUT_MS } from '../../../toolkit/timeouts.js'
import { setMaxListeners } from 'node:events'
import type { ScanContext } from '../../../toolkit/tool.js'
import { createFetcher, type Fetcher } from '../http/fetch.js'
import { HostLimiters } from '../http/rate-limit.js'
import { resolveStartUrl } from '../http/start-url.js'
import { portOf, serviceOf } from '../http/url.js'
import type { Answer } from './answer.js'

export interface CmsSite {
  /** The folder the site lives in (ends with '/'). */
  base: URL
  where: { port: number; protocol: 'tcp'; service: 'http' | 'https' }
  fetch: Fetcher
  /** The fetcher's per-host pace, for other requests of the scan (templates) to share. */
  limiter: HostLimiters
  home: Answer | null
  /** Response headers of the home page (X-Generator and the like). */
  homeHeaders: Record<string, string>
}

/** Null when the scan was stopped before the site answered. */
export async function openCmsSite(ctx: ScanContext<{ concurrency: number; rate_limit: number }>): Promise<CmsSite | null> {
  setMaxListeners(ctx.params.concurrency * 2 + 32, ctx.signal) // one abort listener per request in flight or waiting for its slot
  const start = await resolveStartUrl({
    net: ctx.net,
    target: ctx.target,
    redirectLevel: ctx.options.redirectLevel,
    scanOriginalUrl: ctx.options.scanOriginalUrl,
    signal: ctx.signal,
    log: (l) => ctx.log(l),
  })
  if (ctx.signal.aborted) return null
  const base = new URL(start.url)
  if (!base.pathname.endsWith('/')) base.pathname = base.pathname.replace(/[^/]*$/, '')
  const r = start.response
  const limiter = new HostLimiters(ctx.params.rate_limit)
  return {
    base,
    where: { port: portOf(base), protocol: 'tcp', service: serviceOf(base) },
    fetch: createFetcher(ctx.net, ctx.signal, { timeoutMs: HTTP_TIMEOUT_MS }, undefined, limiter),
    limiter,
    home: r
      ? {
          url: start.url,
          status: r.status,
          location: r.headers.location ?? null,
          contentType: r.headers['content-type'] ?? '',
          body: r.text(),
        }
      : null,
    homeHeaders: r?.headers ?? {},
  }
}

/**
 * The end of a scan whose site is not the product: the log line, one finished detection test (the
 * scan ran to a result, it is no connection error) and the empty output member.
 */
export async function endNotProduct(
  ctx: ScanContext<unknown>,
  o: { base: URL; product: string; signs: string; test: string; member: string; output: unknown },
): Promise<void> {
  ctx.log(`${o.base.href} does not look like ${o.product} (${o.signs}): nothing more is tried`)
  const t = await ctx.test(`${o.product} detection`, o.test)
  await t.done()
  ctx.output(o.member, o.output)
}
