// Where fuzzing starts: the target as a URL (hostnames and IPs: https, then http), its redirects
// handled as the scan's redirect_level / scan_original_url say, reduced to a directory URL.
import type { Egress, HttpResponse } from '../../toolkit/egress.js'
import type { RedirectLevel, ScanTarget } from '../../toolkit/tool.js'
import { ipVersion, stripBrackets } from '../../toolkit/ip.js'
import { RedirectRefusedError, TargetUnreachableError } from '../../toolkit/errors.js'
import { redirectAllowed } from '../lib/http/redirect-policy.js'

const MAX_HOPS = 5

export interface BaseResolution {
  /** Directory URL ending in '/', under which words are appended. */
  base: URL
  /** The URLs requested on the way, for the log. */
  trail: string[]
}

export function startUrls(target: ScanTarget): string[] {
  if (target.type === 'url') return [target.name]
  const bare = stripBrackets(target.name.trim())
  const host = ipVersion(bare) === 6 ? `[${bare}]` : bare
  return [`https://${host}/`, `http://${host}/`]
}

/**
 * The directory a URL stands for. A target the user typed: '/app/' for '/app/', '/app' and '/app/index.php'
 * (a last segment without a dot is taken as a folder). A URL reached by redirect is read strictly:
 * '/login?next=/' lives in '/'.
 */
export function directoryOf(u: URL, typed = true): URL {
  const d = new URL(u.href)
  d.search = ''
  d.hash = ''
  if (!d.pathname.endsWith('/')) {
    const last = d.pathname.slice(d.pathname.lastIndexOf('/') + 1)
    d.pathname = last.includes('.') || !typed ? d.pathname.slice(0, d.pathname.length - last.length) : d.pathname + '/'
  }
  return d
}

const isRedirect = (r: HttpResponse) => r.status >= 300 && r.status < 400 && !!r.headers.location

export async function resolveBase(
  net: Egress,
  target: ScanTarget,
  options: { scanOriginalUrl: boolean; redirectLevel: RedirectLevel },
  signal: AbortSignal,
): Promise<BaseResolution> {
  const trail: string[] = []
  let first: { url: URL; res: HttpResponse } | undefined
  const failures: string[] = []
  for (const u of startUrls(target)) {
    let url: URL
    try {
      url = new URL(u)
    } catch {
      throw new TargetUnreachableError(`${u} is not a valid URL`)
    }
    try {
      const res = await net.http(url.href, { signal, timeoutMs: 10_000, maxBodyBytes: 64 * 1024 })
      trail.push(`${url.href} -> ${res.status}`)
      first = { url, res }
      break
    } catch (e) {
      if (signal.aborted) throw e
      failures.push(`${url.href}: ${(e as Error).message}`)
    }
  }
  if (!first) throw new TargetUnreachableError(`The target could not be reached (${failures.join('; ')})`)

  const level = options.redirectLevel
  if (level === 'none' || options.scanOriginalUrl || !isRedirect(first.res)) {
    if (level === 'check_accessibility' && isRedirect(first.res)) {
      throw new RedirectRefusedError(`${first.url.href} redirects to ${first.res.headers.location} (redirect_level check_accessibility)`)
    }
    return { base: directoryOf(first.url), trail }
  }
  if (level === 'check_accessibility') {
    throw new RedirectRefusedError(`${first.url.href} redirects to ${first.res.headers.location} (redirect_level check_accessibility)`)
  }
  let current = first.url
  let res = first.res
  for (let hop = 0; hop < MAX_HOPS && isRedirect(res); hop++) {
    const next = new URL(res.headers.location!, current)
    // The one redirect policy of every web tool; outside it the fuzzer refuses rather than guess a base.
    if (!redirectAllowed(level, first.url, next)) {
      throw new RedirectRefusedError(`${current.href} redirects to ${next.href}, outside redirect_level ${level}`)
    }
    current = next
    res = await net.http(current.href, { signal, timeoutMs: 10_000, maxBodyBytes: 64 * 1024 })
    trail.push(`${current.href} -> ${res.status}`)
  }
  return { base: directoryOf(current, current.href === first.url.href), trail }
}
