// The light scan's requests: the page's CORS probe, robots.txt and security.txt, OPTIONS and TRACE,
// the plain-HTTP twin, soft-404 calibration, sensitive files, directories, admin areas and the site's
// own scripts, at most six at a time. Returns what was seen; the detectors judge it (detect/light.ts).
import { CONNECT_TIMEOUT_MS } from '../../../toolkit/timeouts.js'
import type { HttpResponse } from '../../../toolkit/egress.js'
import { mapLimit } from '../../../toolkit/limit.js'
import { calibrationPaths, profile } from '../../lib/http/soft404.js'
import type { Fetcher } from '../../lib/http/fetch.js'
import { portOf, resolveLink, sameOrigin } from '../../lib/http/url.js'
import { links } from '../detect/html.js'
import type { PageObs } from '../detect/types.js'
import { scriptsToRead, sourceComponents } from '../detect/components.js'
import { PROBE_ORIGIN } from '../detect/cors.js'
import { SENSITIVE_FILES, type FileObs } from '../detect/files.js'
import type { OptionsObs, TraceObs } from '../detect/methods.js'
import { ADMIN_PATHS, type LightObs } from '../detect/light.js'

export const toPage = (r: HttpResponse): PageObs => ({
  url: r.url,
  status: r.status,
  headers: r.headers,
  setCookies: r.setCookies,
  body: r.text(),
})

const COMMON_DIRS = ['/images/', '/uploads/', '/files/', '/backup/', '/static/', '/assets/']
const TRACE_MARKER_HEADER = 'x-ward-trace'

export async function observeLight(
  base: URL,
  page: PageObs,
  fetch: Fetcher,
  signal: AbortSignal,
  extraDirs: readonly string[] = [],
): Promise<LightObs> {
  const isHttps = base.protocol === 'https:'
  const url = (p: string) => new URL(p, base).href
  const marker = `ward-${Math.random().toString(36).slice(2, 10)}`
  const calib = calibrationPaths()
  const dirs = directoryCandidates(base, page, extraDirs)
  const scripts = scriptsToRead(page.body, new URL(page.url))
  const jobs: Record<string, () => Promise<HttpResponse | null>> = {
    cors: () => fetch(base.href, { headers: { origin: PROBE_ORIGIN } }),
    robots: () => fetch(url('/robots.txt')),
    sectxt1: () => fetch(url('/.well-known/security.txt')),
    sectxt2: () => fetch(url('/security.txt')),
    options: () => fetch(base.href, { method: 'OPTIONS', maxBodyBytes: 4096 }),
    trace: () => fetch(base.href, { method: 'TRACE', headers: { [TRACE_MARKER_HEADER]: marker }, maxBodyBytes: 16384 }),
    plainHttp: () =>
      isHttps && portOf(base) === 443
        ? fetch(`http://${base.host}${base.pathname}`, { timeoutMs: CONNECT_TIMEOUT_MS, maxBodyBytes: 16384 })
        : Promise.resolve(null),
    ...Object.fromEntries(calib.map((p, n) => [`calib${n}`, () => fetch(url(p), { maxBodyBytes: 256 * 1024 })])),
    ...Object.fromEntries(SENSITIVE_FILES.map((f) => [`file:${f.path}`, () => fetch(url(f.path), { maxBodyBytes: 256 * 1024 })])),
    ...Object.fromEntries(dirs.map((d) => [`dir:${d}`, () => fetch(url(d), { maxBodyBytes: 256 * 1024 })])),
    ...Object.fromEntries(ADMIN_PATHS.map((a) => [`admin:${a}`, () => fetch(url(a), { maxBodyBytes: 16 * 1024 })])),
    // The site's own script files: their first bytes carry the library banner ("/*! jQuery v1.8.3").
    ...Object.fromEntries(scripts.map((s) => [`script:${s}`, () => fetch(s, { maxBodyBytes: 16 * 1024 })])),
  }
  const keys = Object.keys(jobs)
  const answers = await mapLimit(keys, 6, signal, (k) => jobs[k]!())
  const got = new Map<string, HttpResponse | null>(keys.map((k, n) => [k, answers[n] ?? null]))
  const page0 = (k: string) => {
    const r = got.get(k)
    return r ? toPage(r) : null
  }
  const pages = (ks: string[]) => ks.map(page0).filter((p): p is PageObs => !!p)
  const files: FileObs[] = SENSITIVE_FILES.flatMap((f) => {
    const r = got.get(`file:${f.path}`)
    return r ? [{ path: f.path, url: r.url, status: r.status, contentType: r.headers['content-type'], bytes: r.body }] : []
  })
  const t = got.get('trace')
  const trace: TraceObs | null = t ? { url: base.href, status: t.status, body: t.text(), marker } : null
  const o = got.get('options')
  const options: OptionsObs | null = o ? { url: base.href, status: o.status, allow: o.headers.allow, public: o.headers.public } : null
  const plain = got.get('plainHttp')
  return {
    base,
    page,
    cors: page0('cors'),
    robots: page0('robots'),
    securityTxt: [page0('sectxt1'), page0('sectxt2')],
    options,
    trace,
    plainHttp: plain ? { url: plain.url, status: plain.status, location: plain.headers.location, httpsSeen: true } : null,
    soft: profile(
      calib
        .map((_p, n) => got.get(`calib${n}`))
        .filter((r): r is HttpResponse => !!r)
        .map((r) => ({ status: r.status, body: r.body.toString('latin1'), location: r.headers.location, path: new URL(r.url).pathname })),
    ),
    files,
    dirs,
    dirPages: pages(dirs.map((d) => `dir:${d}`)),
    adminPages: pages(ADMIN_PATHS.map((a) => `admin:${a}`)),
    scripts: scripts.length,
    libraries: scripts.flatMap((s) => {
      const r = got.get(`script:${s}`)
      return r && r.status === 200 && !/html/i.test(r.headers['content-type'] ?? '') ? sourceComponents(s, r.text()) : []
    }),
  }
}

/** Directories to test for listings: parents of the page's same-origin links, crawled ones, and a few common names. */
export function directoryCandidates(base: URL, page: PageObs, extra: readonly string[]): string[] {
  const out = new Set<string>()
  const add = (path: string) => {
    const parts = path.split('/').filter(Boolean)
    for (let n = 1; n < parts.length && n <= 3; n++) out.add(`/${parts.slice(0, n).join('/')}/`)
    if (path.endsWith('/') && path !== '/') out.add(path)
  }
  for (const href of links(page.body, 200)) {
    const u = resolveLink(href, new URL(page.url))
    if (u && sameOrigin(u, base)) add(u.pathname)
  }
  for (const p of extra) add(p)
  out.delete(base.pathname)
  return [...out]
    .slice(0, 12)
    .concat(COMMON_DIRS.filter((d) => !out.has(d)))
    .slice(0, 16)
}
