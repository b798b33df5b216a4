// The light scan's tests as data: one per light check, each a pure judgement of what the light
// requests saw (probes/light.ts). The sequence records them in this order.
import * as C from '../checks.js'
import type { Soft404Profile } from '../../lib/http/soft404.js'
import { portOf } from '../../lib/http/url.js'
import type { VulnerabilityLookup } from '../../../toolkit/vulns.js'
import type { Component, Hit, PageObs } from './types.js'
import * as H from './headers.js'
import * as K from './cookies.js'
import * as D from './disclosure.js'
import { uniqueComponents } from './components.js'
import {
  detectBasicAuthOverHttp,
  detectHttpNotRedirected,
  detectPasswordOverHttp,
  passwordForms,
  type HttpAnswer,
  type PasswordForm,
} from './transport.js'
import { PROBE_ORIGIN, detectCorsReflected, detectCorsWildcardCredentials } from './cors.js'
import { SENSITIVE_FILES, detectCrawledFiles, detectDirectoryListing, detectFiles, type FileObs } from './files.js'
import { detectTrace, detectUnsafeMethods, type OptionsObs, type TraceObs } from './methods.js'
import { detectRobots, detectSecurityTxtMissing } from './info.js'

/** Admin areas whose authentication is judged (a Basic challenge over plain HTTP sends the password in clear). */
export const ADMIN_PATHS = ['/admin/', '/administrator/', '/manager/html', '/phpmyadmin/', '/admin.php']

/** The light phase's test of announced versions against the version catalogue (its findings use the shared version checks). */
export const VERSION_TEST = 'Known vulnerabilities by version'

/**
 * Number of tests the light phase records (for progress totals): one per light check, and the version
 * test (the deep scan adds one: files the crawl fetched).
 */
export const LIGHT_TESTS = C.lightChecks.length + 1

/** What the light requests saw. */
export interface LightObs {
  base: URL
  page: PageObs
  cors: PageObs | null
  robots: PageObs | null
  securityTxt: (PageObs | null)[]
  options: OptionsObs | null
  trace: TraceObs | null
  /** The plain-HTTP twin of an HTTPS site on 443. */
  plainHttp: HttpAnswer | null
  soft: Soft404Profile
  files: FileObs[]
  /** Directories requested for listings, and the answers. */
  dirs: string[]
  dirPages: PageObs[]
  adminPages: PageObs[]
  /** Script files read, and the libraries their banners name. */
  scripts: number
  libraries: Component[]
}

/** Deep scan: what the crawl saw beyond the start page (password forms, linked downloads). */
export interface Crawled {
  passwordForms: PasswordForm[]
  files: FileObs[]
}

export interface LightTest {
  name: string
  description: string
  /** The hits, or why the test does not apply (the version lookup is asynchronous). */
  run: () => Promise<Hit[]> | Hit[] | string
}

/** The light tests, in order. */
export function lightTests(o: LightObs, vulns?: VulnerabilityLookup, crawled?: Crawled): LightTest[] {
  const { base, page } = o
  const isHttps = base.protocol === 'https:'
  const redirecting = page.status >= 300 && page.status < 400
  const onPage = (desc: string) => `${desc} (${base.href})`
  const t = (c: { name: string }, description: string, run: LightTest['run']): LightTest => ({ name: c.name, description, run })
  const header = (c: { name: string }, desc: string, detect: (p: PageObs) => Hit[], httpsOnly = false) =>
    t(c, onPage(desc), () =>
      redirecting
        ? 'the scanned URL answers with a redirect; headers of redirects are not judged'
        : httpsOnly && !isHttps
          ? 'not an HTTPS site'
          : detect(page),
    )
  const cookie = (c: { name: string }, desc: string, detect: (p: PageObs) => Hit[], httpsOnly = false) =>
    t(c, onPage(desc), () => (httpsOnly && !isHttps ? 'not an HTTPS site: a Secure cookie would not be stored over HTTP' : detect(page)))
  const cors = o.cors
  return [
    header(C.cspMissing, 'Checks that HTML pages send a Content-Security-Policy header', H.detectCspMissing),
    header(
      C.cspUnsafe,
      "Checks the Content-Security-Policy for 'unsafe-inline', 'unsafe-eval' and wildcard script sources",
      H.detectCspUnsafe,
    ),
    header(C.hstsMissing, 'Checks that the HTTPS site sends Strict-Transport-Security', H.detectHstsMissing, true),
    header(C.hstsWeak, 'Checks that the Strict-Transport-Security max-age is at least 180 days', H.detectHstsWeak, true),
    header(C.clickjacking, 'Checks for X-Frame-Options or a CSP frame-ancestors directive', H.detectClickjacking),
    header(C.xctoMissing, 'Checks for X-Content-Type-Options: nosniff', H.detectXcto),
    header(C.referrerPolicyMissing, 'Checks for a Referrer-Policy that does not leak full URLs', H.detectReferrerPolicy),
    header(C.permissionsPolicyMissing, 'Checks for a Permissions-Policy header', H.detectPermissionsPolicy),
    cookie(C.cookieSecure, 'Checks the Secure attribute of every cookie the page sets', K.detectCookieSecure, true),
    cookie(C.cookieHttpOnly, 'Checks the HttpOnly attribute of every cookie the page sets', K.detectCookieHttpOnly),
    cookie(C.cookieSameSite, 'Checks the SameSite attribute of every cookie the page sets', K.detectCookieSameSite),
    t(C.serverVersion, onPage('Checks whether the Server header discloses a version'), () => D.detectServerVersion(page)),
    t(C.poweredBy, onPage('Checks for X-Powered-By and X-AspNet-Version headers'), () => D.detectPoweredBy(page)),
    t(C.generatorMeta, onPage('Checks the page for a generator meta tag with a version'), () => D.detectGenerator(page)),
    t(
      { name: VERSION_TEST },
      onPage(
        `Matches announced server software and client-side libraries (script URLs, banners of ${o.scripts} script file(s)) against the version catalogue`,
      ),
      () => D.detectVulnerableVersions(page, vulns, o.libraries),
    ),
    t(C.httpNoRedirect, onPage('Checks that plain HTTP redirects to HTTPS'), () => {
      if (!isHttps) return detectHttpNotRedirected({ url: base.href, status: page.status, location: page.headers.location })
      if (portOf(base) !== 443) return 'HTTPS on a non-standard port: its plain-HTTP twin is unknown'
      return o.plainHttp ? detectHttpNotRedirected(o.plainHttp) : 'nothing answers plain HTTP on port 80'
    }),
    t(C.basicAuthOverHttp, `Requests the page and ${ADMIN_PATHS.join(', ')} and checks for HTTP Basic challenges over plain HTTP`, () =>
      isHttps ? 'not a plain-HTTP site' : detectBasicAuthOverHttp([page, ...o.adminPages]),
    ),
    t(
      C.passwordOverHttp,
      crawled
        ? 'Checks the password forms of the page and of every crawled page for plain-HTTP pages or targets'
        : onPage('Checks password forms for a plain-HTTP page or target'),
      () => detectPasswordOverHttp([...passwordForms(page), ...(crawled?.passwordForms ?? [])]),
    ),
    t(C.corsWildcardCredentials, onPage(`Sends Origin: ${PROBE_ORIGIN} and checks for a wildcard with credentials`), () =>
      cors ? detectCorsWildcardCredentials(cors) : 'no answer to the CORS probe',
    ),
    t(C.corsReflected, onPage(`Sends Origin: ${PROBE_ORIGIN} and checks whether it is trusted`), () =>
      cors ? detectCorsReflected(cors) : 'no answer to the CORS probe',
    ),
    t(C.directoryListing, `Requests ${o.dirs.length + 1} directories and checks for generated file indexes`, () =>
      detectDirectoryListing([page, ...o.dirPages]),
    ),
    ...fileTests(o, crawled),
    t(C.traceEnabled, onPage('Sends a TRACE request with a marker header and checks for its echo'), () => detectTrace(o.trace)),
    t(C.unsafeMethods, onPage('Sends OPTIONS and checks the advertised methods'), () => detectUnsafeMethods(o.options)),
    t(C.securityTxtMissing, 'Requests /.well-known/security.txt and /security.txt', () =>
      detectSecurityTxtMissing(o.securityTxt, base.href),
    ),
    t(C.robotsDisclosure, 'Reads /robots.txt for disallowed paths', () => detectRobots(o.robots)),
  ]
}

function fileTests(o: LightObs, crawled?: Crawled): LightTest[] {
  const out: LightTest[] = []
  for (const check of [C.gitExposed, C.scmExposed, C.envExposed, C.dsStore, C.backupExposed, C.phpinfoExposed, C.serverStatus]) {
    const paths = SENSITIVE_FILES.filter((f) => f.check.id === check.id).map((f) => f.path)
    out.push({
      name: check.name,
      description: `Requests ${paths.join(', ')} and checks the content (soft-404 calibrated)`,
      run: () => detectFiles(check, o.files, o.soft),
    })
  }
  const crawledFiles = crawled?.files
  if (crawledFiles) {
    out.push({
      name: `${C.backupExposed.name}: files linked from the site`,
      description: `Classifies the ${crawledFiles.length} dump, archive, backup and database file(s) the crawl found linked, by content`,
      run: () => detectCrawledFiles(crawledFiles, o.soft),
    })
  }
  return out
}

/** The components the page and its scripts announce. */
export const lightComponents = (o: LightObs): Component[] => uniqueComponents([...D.components(o.page), ...o.libraries])
