// Choosing the URL a web scan starts from: scheme discovery for hostnames, then the redirect policy
// (redirect_level, scan_original_url) applied to the target's redirects.
import type { Egress, HttpResponse } from '../../../toolkit/egress.js'
import type { RedirectLevel, ScanTarget } from '../../../toolkit/tool.js'
import { RedirectRefusedError, TargetUnreachableError } from '../../../toolkit/errors.js'
import { redirectAllowed } from './redirect-policy.js'
import { candidateBaseUrls } from './url.js'

export interface StartUrlOptions {
  net: Egress
  target: Pick<ScanTarget, 'name' | 'type'>
  redirectLevel: RedirectLevel
  scanOriginalUrl: boolean
  signal: AbortSignal
  log: (line: string) => void
  timeoutMs?: number
  maxHops?: number
}

export interface StartUrl {
  /** The URL the scan works on. */
  url: string
  /** The target as a URL (after scheme discovery for hostnames). */
  original: string
  /** Redirect hops seen, in order ({from, to, status, followed}). */
  redirects: { from: string; to: string; status: number; followed: boolean }[]
  /** The first response of `url`, when one was fetched (saves a request for the caller). */
  response?: HttpResponse
}

const isRedirect = (s: number) => s >= 300 && s < 400

export async function resolveStartUrl(o: StartUrlOptions): Promise<StartUrl> {
  const timeoutMs = o.timeoutMs ?? 10000
  const get = (url: string) => o.net.http(url, { signal: o.signal, timeoutMs, maxBodyBytes: 1024 * 1024 })

  // Scheme discovery: the first candidate that answers at all is the target's URL.
  const candidates = candidateBaseUrls(o.target)
  let original = candidates[0]!
  let first: HttpResponse | undefined
  let lastError: unknown
  for (const c of candidates) {
    if (o.signal.aborted) break
    try {
      first = await get(c)
      original = c
      break
    } catch (e) {
      lastError = e
      o.log(`${c}: no answer (${(e as Error).message})`)
    }
  }
  if (o.signal.aborted) return { url: original, original, redirects: [] }
  if (!first) {
    throw new TargetUnreachableError(`${o.target.name} is not reachable over HTTP(S): ${(lastError as Error)?.message ?? 'no answer'}`)
  }

  const redirects: StartUrl['redirects'] = []
  if (o.redirectLevel === 'none') {
    o.log(`redirect_level=none: scanning ${original} as given, redirects not followed`)
    return { url: original, original, redirects, response: first }
  }
  if (o.redirectLevel === 'check_accessibility') {
    if (isRedirect(first.status) && first.headers.location) {
      throw new RedirectRefusedError(
        `${original} redirects (${first.status}) to ${new URL(first.headers.location, original).href}; redirect_level=check_accessibility refuses any redirect`,
      )
    }
    return { url: original, original, redirects, response: first }
  }

  // same_host, same_domain, allow_all: walk the chain, never requesting a URL outside the policy.
  const from = new URL(original)
  let current = original
  let res: HttpResponse = first
  const seen = new Set([original])
  for (let hop = 0; hop < (o.maxHops ?? 10) && isRedirect(res.status) && res.headers.location; hop++) {
    let next: URL
    try {
      next = new URL(res.headers.location, current)
    } catch {
      o.log(`${current}: unparsable Location "${res.headers.location}", not followed`)
      break
    }
    next.hash = ''
    if (!redirectAllowed(o.redirectLevel, from, next)) {
      redirects.push({ from: current, to: next.href, status: res.status, followed: false })
      o.log(`${current} redirects to ${next.href}, outside redirect_level=${o.redirectLevel}: not followed, scanning the original URL ${original}`)
      return { url: original, original, redirects, response: first }
    }
    if (seen.has(next.href)) {
      o.log(`redirect loop at ${next.href}, scanning the original URL ${original}`)
      return { url: original, original, redirects, response: first }
    }
    redirects.push({ from: current, to: next.href, status: res.status, followed: !o.scanOriginalUrl })
    if (o.scanOriginalUrl) {
      // The original goes to the scanner even though it redirects; the chain is only reported.
      o.log(`${current} redirects to ${next.href}; scan_original_url=true: scanning ${original}`)
      return { url: original, original, redirects, response: first }
    }
    seen.add(next.href)
    current = next.href
    try {
      res = await get(current)
    } catch (e) {
      o.log(`redirect target ${current} did not answer (${(e as Error).message}), scanning the original URL ${original}`)
      return { url: original, original, redirects, response: first }
    }
    o.log(`followed redirect to ${current} (redirect_level=${o.redirectLevel})`)
  }
  return { url: current, original, redirects, response: res }
}
