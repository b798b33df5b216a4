// Light scan: passive checks over a handful of requests (the page, a CORS probe, well-known files,
// sensitive paths with soft-404 calibration, OPTIONS/TRACE, the plain-HTTP twin).
import * as C from './checks.js'
import type { HttpResponse } from '../../toolkit/egress.js'
import { calibrationPaths, profile, type Soft404Profile } from '../lib/http/soft404.js'
import type { Fetcher } from '../lib/http/fetch.js'
import { mapLimit } from '../../toolkit/limit.js'
import { portOf, resolveLink, sameOrigin } from '../lib/http/url.js'
import { links } from './html.js'
import type { Recorder, Where } from './recorder.js'
import type { PageObs } from './detect/types.js'
import type { VulnerabilityLookup } from '../../toolkit/vulns.js'
import * as H from './detect/headers.js'
import * as K from './detect/cookies.js'
import * as D from './detect/disclosure.js'
import { scriptsToRead, sourceComponents, uniqueComponents } from './detect/components.js'
import { detectBasicAuthOverHttp, detectHttpNotRedirected, detectPasswordOverHttp, passwordForms, type HttpAnswer, type PasswordForm } from './detect/transport.js'
import { PROBE_ORIGIN, detectCorsReflected, detectCorsWildcardCredentials } from './detect/cors.js'
import { SENSITIVE_FILES, detectCrawledFiles, detectDirectoryListing, detectFiles, type FileObs } from './detect/files.js'
import { detectTrace, detectUnsafeMethods, type OptionsObs, type TraceObs } from './detect/methods.js'
import { detectRobots, detectSecurityTxtMissing } from './detect/info.js'

export const toPage = (r: HttpResponse): PageObs => ({ url: r.url, status: r.status, headers: r.headers, setCookies: r.setCookies, body: r.text() })

const COMMON_DIRS = ['/images/', '/uploads/', '/files/', '/backup/', '/static/', '/assets/']
/** Admin areas whose authentication is judged (a Basic challenge over plain HTTP sends the password in clear). */
export const ADMIN_PATHS = ['/admin/', '/administrator/', '/manager/html', '/phpmyadmin/', '/admin.php']
const TRACE_MARKER_HEADER = 'x-ward-trace'

export interface LightInput {
  base: URL
  page: PageObs
  where: Where
  fetch: Fetcher
  rec: Recorder
  log: (line: string) => void
  signal: AbortSignal
  /** Extra directories to test for listings (deep scan: from the crawl). */
  extraDirs?: string[]
  /** The scan's lookup of imported CVEs (ScanContext.vulns). */
  vulns?: VulnerabilityLookup
  /** Deep scan: what the crawl saw beyond the start page (password forms, linked downloads). */
  crawled?: { passwordForms: PasswordForm[]; files: FileObs[] }
}

/** The light phase's test of announced versions against the version catalogue (its findings use the shared version checks). */
export const VERSION_TEST = 'Known vulnerabilities by version'

/** Number of tests the light phase records (for progress totals): one per light check, and the version test (the deep scan adds one: files the crawl fetched). */
export const LIGHT_TESTS = C.lightChecks.length + 1

export async function lightScan(i: LightInput): Promise<{ components: D.Component[] }> {
  const { base, page, where, fetch, rec } = i
  const isHttps = base.protocol === 'https:'
  const redirecting = page.status >= 300 && page.status < 400
  const url = (p: string) => new URL(p, base).href

  // --- all observations first (bounded parallel), then the pure detectors per check
  const trace: TraceObs = { url: base.href, status: 0, body: '', marker: `ward-${Math.random().toString(36).slice(2, 10)}` }
  const calib = calibrationPaths()
  const dirs = directoryCandidates(base, page, i.extraDirs ?? [])
  const scripts = scriptsToRead(page.body, new URL(page.url))
  const jobs: Record<string, () => Promise<HttpResponse | null>> = {
    cors: () => fetch(base.href, { headers: { origin: PROBE_ORIGIN } }),
    robots: () => fetch(url('/robots.txt')),
    sectxt1: () => fetch(url('/.well-known/security.txt')),
    sectxt2: () => fetch(url('/security.txt')),
    options: () => fetch(base.href, { method: 'OPTIONS', maxBodyBytes: 4096 }),
    trace: () => fetch(base.href, { method: 'TRACE', headers: { [TRACE_MARKER_HEADER]: trace.marker }, maxBodyBytes: 16384 }),
    plainHttp: () => (isHttps && portOf(base) === 443 ? fetch(`http://${base.host}${base.pathname}`, { timeoutMs: 5000, maxBodyBytes: 16384 }) : Promise.resolve(null)),
    ...Object.fromEntries(calib.map((p, n) => [`calib${n}`, () => fetch(url(p), { maxBodyBytes: 256 * 1024 })])),
    ...Object.fromEntries(SENSITIVE_FILES.map((f) => [`file:${f.path}`, () => fetch(url(f.path), { maxBodyBytes: 256 * 1024 })])),
    ...Object.fromEntries(dirs.map((d) => [`dir:${d}`, () => fetch(url(d), { maxBodyBytes: 256 * 1024 })])),
    ...Object.fromEntries(ADMIN_PATHS.map((a) => [`admin:${a}`, () => fetch(url(a), { maxBodyBytes: 16 * 1024 })])),
    // The site's own script files: their first bytes carry the library banner ("/*! jQuery v1.8.3").
    ...Object.fromEntries(scripts.map((s) => [`script:${s}`, () => fetch(s, { maxBodyBytes: 16 * 1024 })])),
  }
  const keys = Object.keys(jobs)
  const answers = await mapLimit(keys, 6, i.signal, (k) => jobs[k]!())
  const got = new Map<string, HttpResponse | null>(keys.map((k, n) => [k, answers[n] ?? null]))
  const page0 = (k: string) => {
    const r = got.get(k)
    return r ? toPage(r) : null
  }
  const soft: Soft404Profile = profile(calib.map((p, n) => got.get(`calib${n}`)).filter((r): r is HttpResponse => !!r).map((r) => ({ status: r.status, body: r.body.toString('latin1'), location: r.headers.location, path: new URL(r.url).pathname })))
  const files: FileObs[] = SENSITIVE_FILES.flatMap((f) => {
    const r = got.get(`file:${f.path}`)
    return r ? [{ path: f.path, url: r.url, status: r.status, contentType: r.headers['content-type'], bytes: r.body }] : []
  })
  const t = got.get('trace')
  if (t) Object.assign(trace, { status: t.status, body: t.text() })
  const o = got.get('options')
  const options: OptionsObs | null = o ? { url: base.href, status: o.status, allow: o.headers.allow, public: o.headers.public } : null
  const cors = page0('cors')
  const libraries = scripts.flatMap((s) => {
    const r = got.get(`script:${s}`)
    return r && r.status === 200 && !/html/i.test(r.headers['content-type'] ?? '') ? sourceComponents(s, r.text()) : []
  })

  // --- the tests, one per check
  const onPage = (desc: string) => `${desc} (${base.href})`
  const headerTest = (c: { name: string }, desc: string, detect: (p: PageObs) => ReturnType<typeof H.detectXcto>, httpsOnly = false) =>
    rec.test(c.name, onPage(desc), where, () => (redirecting ? 'the scanned URL answers with a redirect; headers of redirects are not judged' : httpsOnly && !isHttps ? 'not an HTTPS site' : detect(page)))

  await headerTest(C.cspMissing, 'Checks that HTML pages send a Content-Security-Policy header', H.detectCspMissing)
  await headerTest(C.cspUnsafe, "Checks the Content-Security-Policy for 'unsafe-inline', 'unsafe-eval' and wildcard script sources", H.detectCspUnsafe)
  await headerTest(C.hstsMissing, 'Checks that the HTTPS site sends Strict-Transport-Security', H.detectHstsMissing, true)
  await headerTest(C.hstsWeak, 'Checks that the Strict-Transport-Security max-age is at least 180 days', H.detectHstsWeak, true)
  await headerTest(C.clickjacking, 'Checks for X-Frame-Options or a CSP frame-ancestors directive', H.detectClickjacking)
  await headerTest(C.xctoMissing, 'Checks for X-Content-Type-Options: nosniff', H.detectXcto)
  await headerTest(C.referrerPolicyMissing, 'Checks for a Referrer-Policy that does not leak full URLs', H.detectReferrerPolicy)
  await headerTest(C.permissionsPolicyMissing, 'Checks for a Permissions-Policy header', H.detectPermissionsPolicy)

  const cookieTest = (c: { name: string }, desc: string, detect: (p: PageObs) => ReturnType<typeof K.detectCookieSecure>, httpsOnly = false) =>
    rec.test(c.name, onPage(desc), where, () => (httpsOnly && !isHttps ? 'not an HTTPS site: a Secure cookie would not be stored over HTTP' : detect(page)))
  await cookieTest(C.cookieSecure, 'Checks the Secure attribute of every cookie the page sets', K.detectCookieSecure, true)
  await cookieTest(C.cookieHttpOnly, 'Checks the HttpOnly attribute of every cookie the page sets', K.detectCookieHttpOnly)
  await cookieTest(C.cookieSameSite, 'Checks the SameSite attribute of every cookie the page sets', K.detectCookieSameSite)

  await rec.test(C.serverVersion.name, onPage('Checks whether the Server header discloses a version'), where, () => D.detectServerVersion(page))
  await rec.test(C.poweredBy.name, onPage('Checks for X-Powered-By and X-AspNet-Version headers'), where, () => D.detectPoweredBy(page))
  await rec.test(C.generatorMeta.name, onPage('Checks the page for a generator meta tag with a version'), where, () => D.detectGenerator(page))
  await rec.test(VERSION_TEST, onPage(`Matches announced server software and client-side libraries (script URLs, banners of ${scripts.length} script file(s)) against the version catalogue`), where, () => D.detectVulnerableVersions(page, i.vulns, libraries))

  await rec.test(C.httpNoRedirect.name, onPage('Checks that plain HTTP redirects to HTTPS'), where, () => {
    if (!isHttps) return detectHttpNotRedirected({ url: base.href, status: page.status, location: page.headers.location })
    if (portOf(base) !== 443) return 'HTTPS on a non-standard port: its plain-HTTP twin is unknown'
    const r = got.get('plainHttp')
    if (!r) return 'nothing answers plain HTTP on port 80'
    const a: HttpAnswer = { url: r.url, status: r.status, location: r.headers.location, httpsSeen: true }
    return detectHttpNotRedirected(a)
  })

  await rec.test(C.basicAuthOverHttp.name, `Requests the page and ${ADMIN_PATHS.join(', ')} and checks for HTTP Basic challenges over plain HTTP`, where, () =>
    isHttps ? 'not a plain-HTTP site' : detectBasicAuthOverHttp([page, ...ADMIN_PATHS.map((a) => page0(`admin:${a}`)).filter((p): p is PageObs => !!p)]),
  )
  await rec.test(C.passwordOverHttp.name, i.crawled ? 'Checks the password forms of the page and of every crawled page for plain-HTTP pages or targets' : onPage('Checks password forms for a plain-HTTP page or target'), where, () =>
    detectPasswordOverHttp([...passwordForms(page), ...(i.crawled?.passwordForms ?? [])]),
  )

  await rec.test(C.corsWildcardCredentials.name, onPage(`Sends Origin: ${PROBE_ORIGIN} and checks for a wildcard with credentials`), where, () => (cors ? detectCorsWildcardCredentials(cors) : 'no answer to the CORS probe'))
  await rec.test(C.corsReflected.name, onPage(`Sends Origin: ${PROBE_ORIGIN} and checks whether it is trusted`), where, () => (cors ? detectCorsReflected(cors) : 'no answer to the CORS probe'))

  await rec.test(C.directoryListing.name, `Requests ${dirs.length + 1} directories and checks for generated file indexes`, where, () =>
    detectDirectoryListing([page, ...dirs.map((d) => page0(`dir:${d}`)).filter((p): p is PageObs => !!p)]),
  )
  for (const check of [C.gitExposed, C.scmExposed, C.envExposed, C.dsStore, C.backupExposed, C.phpinfoExposed, C.serverStatus]) {
    const paths = SENSITIVE_FILES.filter((f) => f.check.id === check.id).map((f) => f.path)
    await rec.test(check.name, `Requests ${paths.join(', ')} and checks the content (soft-404 calibrated)`, where, () => detectFiles(check, files, soft))
  }
  const crawledFiles = i.crawled?.files
  if (crawledFiles) {
    await rec.test(`${C.backupExposed.name}: files linked from the site`, `Classifies the ${crawledFiles.length} dump, archive, backup and database file(s) the crawl found linked, by content`, where, () => detectCrawledFiles(crawledFiles, soft))
  }

  await rec.test(C.traceEnabled.name, onPage('Sends a TRACE request with a marker header and checks for its echo'), where, () => detectTrace(t ? trace : null))
  await rec.test(C.unsafeMethods.name, onPage('Sends OPTIONS and checks the advertised methods'), where, () => detectUnsafeMethods(options))
  await rec.test(C.securityTxtMissing.name, 'Requests /.well-known/security.txt and /security.txt', where, () => detectSecurityTxtMissing([page0('sectxt1'), page0('sectxt2')], base.href))
  await rec.test(C.robotsDisclosure.name, 'Reads /robots.txt for disallowed paths', where, () => detectRobots(page0('robots')))

  return { components: uniqueComponents([...D.components(page), ...libraries]) }
}

/** Directories to test for listings: parents of the page's same-origin links, crawled ones, and a few common names. */
export function directoryCandidates(base: URL, page: PageObs, extra: string[]): string[] {
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
  return [...out].slice(0, 12).concat(COMMON_DIRS.filter((d) => !out.has(d))).slice(0, 16)
}
