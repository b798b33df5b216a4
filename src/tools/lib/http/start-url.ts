// The one start-URL resolver of the web tools: scheme discovery for hostnames and IPs, then the
// scan's redirect policy (redirect_level, scan_original_url) applied to the target's redirects
// through the one redirect walker.
import { HTTP_TIMEOUT_MS } from '../../../toolkit/timeouts.js'
import type { Egress, HttpResponse } from '../../../toolkit/egress.js'
import type { RedirectLevel, ScanTarget } from '../../../toolkit/tool.js'
import { RedirectRefusedError, TargetUnreachableError } from '../../../toolkit/errors.js'
import { redirectAllowed } from './redirect-policy.js'
import { isRedirectStatus, walkRedirects, type RedirectHop, type RedirectWalk } from './redirects.js'
import { candidateBaseUrls } from './url.js'

export interface StartUrlOptions {
  net: Egress
  target: Pick<ScanTarget, 'name' | 'type'>
  redirectLevel: RedirectLevel
  scanOriginalUrl: boolean
  signal: AbortSignal
  log: (line: string) => void
  timeoutMs?: number
  maxBodyBytes?: number
  /**
   * What a redirect outside the policy means: scan the original URL (the default), or refuse the
   * scan (RedirectRefusedError) for a tool that cannot work from a URL that redirects away.
   */
  onRefused?: 'original' | 'refuse'
}

export interface StartUrl {
  /** The URL the scan works on. */
  url: string
  /** The target as a URL (after scheme discovery for hostnames). */
  original: string
  /** Redirect hops seen, in order ({from, to, status, followed}). */
  redirects: RedirectHop[]
  /** The first response of `url`, when one was fetched (saves a request for the caller). */
  response?: HttpResponse
}

export async function resolveStartUrl(o: StartUrlOptions): Promise<StartUrl> {
  const get = (url: string) =>
    o.net.http(url, { signal: o.signal, timeoutMs: o.timeoutMs ?? HTTP_TIMEOUT_MS, maxBodyBytes: o.maxBodyBytes ?? 1024 * 1024 })
  const found = await firstAnswer(o, get)
  if (!found) return { url: candidateBaseUrls(o.target)[0]!, original: candidateBaseUrls(o.target)[0]!, redirects: [] }
  const { original, first } = found
  const asGiven: StartUrl = { url: original, original, redirects: [], response: first }
  if (o.redirectLevel === 'none') {
    o.log(`redirect_level=none: scanning ${original} as given, redirects not followed`)
    return asGiven
  }
  if (o.redirectLevel === 'check_accessibility') {
    if (isRedirectStatus(first.status) && first.headers.location) {
      throw new RedirectRefusedError(
        `${original} redirects (${first.status}) to ${new URL(first.headers.location, original).href}; redirect_level=check_accessibility refuses any redirect`,
      )
    }
    return asGiven
  }
  // same_host, same_domain, allow_all: walk the chain, never requesting a URL outside the policy.
  const from = new URL(original)
  const walk = await walkRedirects(
    { url: original, answer: first },
    {
      location: (r) => r.headers.location,
      status: (r) => r.status,
      allow: (next) => redirectAllowed(o.redirectLevel, from, next),
      fetch: get,
      // scan_original_url: the chain's first hop is reported, the original goes to the scanner.
      maxHops: o.scanOriginalUrl ? 0 : undefined,
    },
  )
  return afterWalk(o, asGiven, walk)
}

/** Scheme discovery: the first candidate URL that answers at all is the target's URL. Null when stopped. */
async function firstAnswer(
  o: StartUrlOptions,
  get: (url: string) => Promise<HttpResponse>,
): Promise<{ original: string; first: HttpResponse } | null> {
  const failures: string[] = []
  for (const c of candidateBaseUrls(o.target)) {
    if (o.signal.aborted) return null
    try {
      return { original: c, first: await get(c) }
    } catch (e) {
      if (o.signal.aborted) return null
      failures.push(`${c}: ${(e as Error).message}`)
      o.log(`${c}: no answer (${(e as Error).message})`)
    }
  }
  if (o.signal.aborted) return null
  throw new TargetUnreachableError(`${o.target.name} is not reachable over HTTP(S): ${failures.join('; ') || 'no answer'}`)
}

function afterWalk(o: StartUrlOptions, asGiven: StartUrl, walk: RedirectWalk<HttpResponse>): StartUrl {
  const original = asGiven.original
  const fallback = { ...asGiven, redirects: walk.hops }
  for (const h of walk.hops.filter((x) => x.followed)) o.log(`followed redirect to ${h.to} (redirect_level=${o.redirectLevel})`)
  switch (walk.end) {
    case 'answer':
      return { url: walk.url, original, redirects: walk.hops, response: walk.answer }
    case 'limit':
      if (!o.scanOriginalUrl) return { url: walk.url, original, redirects: walk.hops, response: walk.answer }
      o.log(`${original} redirects to ${walk.stoppedAt}; scan_original_url=true: scanning ${original}`)
      return fallback
    case 'unparsable':
      o.log(`${walk.url}: unparsable Location "${walk.stoppedAt}", not followed`)
      return { url: walk.url, original, redirects: walk.hops, response: walk.answer }
    case 'refused':
      if (o.onRefused === 'refuse' && !o.scanOriginalUrl)
        throw new RedirectRefusedError(`${walk.url} redirects to ${walk.stoppedAt}, outside redirect_level ${o.redirectLevel}`)
      o.log(
        `${walk.url} redirects to ${walk.stoppedAt}, outside redirect_level=${o.redirectLevel}: not followed, scanning the original URL ${original}`,
      )
      return fallback
    case 'loop':
      o.log(`redirect loop at ${walk.stoppedAt}, scanning the original URL ${original}`)
      return fallback
    case 'failed':
      o.log(`redirect target ${walk.stoppedAt} did not answer (${(walk.error as Error).message}), scanning the original URL ${original}`)
      return fallback
  }
}
