// Where fuzzing starts: the start URL from the one start-URL resolver (the scan's redirect_level and
// scan_original_url), reduced to a directory URL. A redirect outside the policy refuses the scan:
// the fuzzer does not guess a base.
import type { Egress } from '../../../toolkit/egress.js'
import type { RedirectLevel, ScanTarget } from '../../../toolkit/tool.js'
import { resolveStartUrl } from '../../lib/http/start-url.js'
import { candidateBaseUrls } from '../../lib/http/url.js'

export interface BaseResolution {
  /** Directory URL ending in '/', under which words are appended. */
  base: URL
  /** The URLs requested on the way with their status, for the log. */
  trail: string[]
}

/** The URLs tried in order for a target (the one start-URL resolver's scheme discovery). */
export const startUrls = (target: ScanTarget): string[] => candidateBaseUrls(target)

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

export async function resolveBase(
  net: Egress,
  target: ScanTarget,
  options: { scanOriginalUrl: boolean; redirectLevel: RedirectLevel },
  signal: AbortSignal,
  log: (line: string) => void = () => {},
): Promise<BaseResolution> {
  const start = await resolveStartUrl({ net, target, ...options, signal, log, maxBodyBytes: 64 * 1024, onRefused: 'refuse' })
  const followed = start.redirects.filter((h) => h.followed)
  const trail = [
    ...followed.map((h) => `${h.from} -> ${h.status}`),
    ...(start.response ? [`${start.url} -> ${start.response.status}`] : []),
  ]
  return { base: directoryOf(new URL(start.url), start.url === start.original), trail }
}
