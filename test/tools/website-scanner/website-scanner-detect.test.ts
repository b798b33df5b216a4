// Website Scanner: every check fails on a weak observation and passes on a good one (pure detectors).
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import * as C from '../../../src/tools/website-scanner/checks.js'
import { OWASP } from '../../../src/toolkit/check.js'
import type { Check } from '../../../src/toolkit/check.js'
import type { Hit, PageObs } from '../../../src/tools/website-scanner/detect/types.js'
import * as H from '../../../src/tools/website-scanner/detect/headers.js'
import * as K from '../../../src/tools/website-scanner/detect/cookies.js'
import * as D from '../../../src/tools/website-scanner/detect/disclosure.js'
import { compareVersions } from '../../../src/tools/lib/versions/version.js'
import { checkForFamily } from '../../../src/tools/lib/versions/checks.js'
import { CATALOGUE } from '../../../src/tools/lib/versions/catalogue.js'
import {
  detectBasicAuthOverHttp,
  detectHttpNotRedirected,
  detectPasswordOverHttp,
  passwordForms,
} from '../../../src/tools/website-scanner/detect/transport.js'
import { PROBE_ORIGIN, detectCorsReflected, detectCorsWildcardCredentials } from '../../../src/tools/website-scanner/detect/cors.js'
import {
  DOWNLOAD_EXT,
  SENSITIVE_FILES,
  detectCrawledFiles,
  detectDirectoryListing,
  detectFiles,
  type FileObs,
} from '../../../src/tools/website-scanner/detect/files.js'
import { detectTrace, detectUnsafeMethods } from '../../../src/tools/website-scanner/detect/methods.js'
import { detectRobots, detectSecurityTxtMissing } from '../../../src/tools/website-scanner/detect/info.js'
import * as A from '../../../src/tools/website-scanner/detect/active.js'
import { forms, links, metaGenerator } from '../../../src/tools/website-scanner/detect/html.js'
import { profile, looksLikeNotFound } from '../../../src/tools/lib/http/soft404.js'
import { redirectAllowed, registrableDomain } from '../../../src/tools/lib/http/redirect-policy.js'
import { candidateBaseUrls } from '../../../src/tools/lib/http/url.js'

const HTML = 'text/html; charset=utf-8'
const pg = (headers: Record<string, string> = {}, o: Partial<PageObs> = {}): PageObs => ({
  url: 'https://shop.example.com/',
  status: 200,
  headers: { 'content-type': HTML, ...headers },
  setCookies: [],
  body: '<!doctype html><html><head><title>x</title></head><body>hi</body></html>',
  ...o,
})
const ids = (hits: Hit[]) => hits.map((h) => h.check.id)
const fails = (hits: Hit[], c: Check) => assert.deepEqual([...new Set(ids(hits))], [c.id], `expected ${c.id} to fail`)
const passes = (hits: Hit[]) => assert.deepEqual(ids(hits), [], 'expected no finding')

describe('catalogue', () => {
  test('ids are unique, well-formed and cover light and active checks', () => {
    const all = C.websiteScannerChecks.map((c) => c.id)
    assert.equal(new Set(all).size, all.length)
    for (const c of C.websiteScannerChecks) {
      assert.match(c.id, /^website\.[a-z]+\.[a-z0-9-]+$/)
      for (const w of c.cwe) assert.match(w, /^CWE-\d+$/)
      for (const r of c.references) assert.match(r, /^https:\/\//)
      assert.ok(c.name && c.description && c.impact && c.recommendation, c.id)
      for (const v of Object.values(c.owasp) as string[]) assert.ok(v === '' || /^A\d{1,2}:20(17|21|25)-/.test(v), `${c.id} owasp ${v}`)
    }
    assert.equal(C.activeChecks.length, 7)
    assert.deepEqual(C.cspMissing.owasp, OWASP.misconfig)
  })
})

describe('security headers', () => {
  test('csp-missing', () => {
    fails(H.detectCspMissing(pg()), C.cspMissing)
    passes(H.detectCspMissing(pg({ 'content-security-policy': "default-src 'self'" })))
    passes(H.detectCspMissing(pg({ 'content-type': 'application/json' }, { body: '{}' })))
  })
  test('csp-unsafe', () => {
    fails(H.detectCspUnsafe(pg({ 'content-security-policy': "default-src 'self' 'unsafe-inline'" })), C.cspUnsafe)
    fails(H.detectCspUnsafe(pg({ 'content-security-policy': "script-src *; object-src 'none'" })), C.cspUnsafe)
    fails(H.detectCspUnsafe(pg({ 'content-security-policy': "frame-ancestors 'self'" })), C.cspUnsafe)
    passes(H.detectCspUnsafe(pg({ 'content-security-policy': "default-src 'self'; script-src 'self' 'nonce-abc' 'unsafe-inline'" })))
    passes(H.detectCspUnsafe(pg()))
  })
  test('hsts-missing only on https', () => {
    fails(H.detectHstsMissing(pg()), C.hstsMissing)
    passes(H.detectHstsMissing(pg({ 'strict-transport-security': 'max-age=31536000' })))
    passes(H.detectHstsMissing(pg({}, { url: 'http://shop.example.com/' })))
  })
  test('hsts-weak', () => {
    fails(H.detectHstsWeak(pg({ 'strict-transport-security': 'max-age=300' })), C.hstsWeak)
    fails(H.detectHstsWeak(pg({ 'strict-transport-security': 'includeSubDomains' })), C.hstsWeak)
    passes(H.detectHstsWeak(pg({ 'strict-transport-security': 'max-age=31536000; includeSubDomains' })))
  })
  test('clickjacking', () => {
    fails(H.detectClickjacking(pg()), C.clickjacking)
    fails(H.detectClickjacking(pg({ 'content-security-policy': 'frame-ancestors *' })), C.clickjacking)
    passes(H.detectClickjacking(pg({ 'x-frame-options': 'SAMEORIGIN' })))
    passes(H.detectClickjacking(pg({ 'content-security-policy': "frame-ancestors 'none'" })))
  })
  test('xcto-missing', () => {
    fails(H.detectXcto(pg()), C.xctoMissing)
    passes(H.detectXcto(pg({ 'x-content-type-options': 'nosniff' })))
  })
  test('referrer-policy-missing', () => {
    fails(H.detectReferrerPolicy(pg()), C.referrerPolicyMissing)
    fails(H.detectReferrerPolicy(pg({ 'referrer-policy': 'unsafe-url' })), C.referrerPolicyMissing)
    passes(H.detectReferrerPolicy(pg({ 'referrer-policy': 'no-referrer, strict-origin-when-cross-origin' })))
  })
  test('permissions-policy-missing', () => {
    fails(H.detectPermissionsPolicy(pg()), C.permissionsPolicyMissing)
    passes(H.detectPermissionsPolicy(pg({ 'permissions-policy': 'camera=()' })))
  })
})

describe('cookies', () => {
  const bad = pg({}, { setCookies: ['sid=secret123; Path=/'] })
  const good = pg({}, { setCookies: ['sid=secret123; Path=/; Secure; HttpOnly; SameSite=Lax'] })
  test('secure-missing (https only), value not in evidence', () => {
    const hits = K.detectCookieSecure(bad)
    fails(hits, C.cookieSecure)
    assert.equal(hits[0]!.location, 'cookie:sid')
    assert.doesNotMatch(JSON.stringify(hits[0]!.evidence), /secret123/)
    passes(K.detectCookieSecure(good))
    passes(K.detectCookieSecure({ ...bad, url: 'http://shop.example.com/' }))
  })
  test('httponly-missing', () => {
    fails(K.detectCookieHttpOnly(bad), C.cookieHttpOnly)
    passes(K.detectCookieHttpOnly(good))
  })
  test('samesite-missing, and SameSite=None without Secure', () => {
    fails(K.detectCookieSameSite(bad), C.cookieSameSite)
    fails(K.detectCookieSameSite(pg({}, { setCookies: ['a=1; SameSite=None'] })), C.cookieSameSite)
    passes(K.detectCookieSameSite(good))
    passes(K.detectCookieSameSite(pg({}, { setCookies: ['a=1; SameSite=None; Secure'] })))
  })
})

describe('disclosure and known-vulnerable versions', () => {
  test('server-version', () => {
    fails(D.detectServerVersion(pg({ server: 'Apache/2.4.49 (Unix)' })), C.serverVersion)
    passes(D.detectServerVersion(pg({ server: 'nginx' })))
  })
  test('powered-by', () => {
    fails(D.detectPoweredBy(pg({ 'x-powered-by': 'Express' })), C.poweredBy)
    passes(D.detectPoweredBy(pg()))
  })
  test('generator', () => {
    fails(
      D.detectGenerator(pg({}, { body: '<html><head><meta name="generator" content="WordPress 6.1.1"></head></html>' })),
      C.generatorMeta,
    )
    passes(D.detectGenerator(pg({}, { body: '<html><head><meta name="generator" content="Hugo"></head></html>' })))
  })
  test('vulnerable-version: Apache 2.4.49 / 2.4.50 with their KEV CVEs, risk from the matching CVEs', async () => {
    const family = (id: string) => checkForFamily(CATALOGUE.families.find((f) => f.id === id)!)
    const h49 = await D.detectVulnerableVersions(pg({ server: 'Apache/2.4.49 (Unix)' }))
    assert.deepEqual(
      h49.map((h) => h.check),
      [family('apache-httpd-path-traversal'), family('apache-httpd-mod-lua-multipart')],
    )
    assert.deepEqual(h49[0]!.cve, ['CVE-2021-41773', 'CVE-2021-42013'])
    assert.equal(h49[0]!.risk, 'critical')
    assert.match(h49[0]!.name!, /^Apache httpd 2\.4\.49: /)
    assert.deepEqual((await D.detectVulnerableVersions(pg({ server: 'Apache/2.4.50' })))[0]!.cve, ['CVE-2021-42013'])
    const old = await D.detectVulnerableVersions(pg({ server: 'Apache/2.4.41 (Ubuntu) OpenSSL/1.0.1f' }))
    assert.deepEqual(old.flatMap((h) => h.cve).sort(), ['CVE-2014-0160', 'CVE-2016-2107', 'CVE-2021-40438', 'CVE-2021-44790'])
    assert.ok(
      old.some((h) => h.check.id === 'eol.openssl' && /^OpenSSL 1\.0\.1 and older is past end of life \(2016-12-31\)$/.test(h.name!)),
      'OpenSSL 1.0.1 is past its end of life',
    )
    passes(await D.detectVulnerableVersions(pg({ server: 'Apache/2.4.62 (Unix) OpenSSL/3.5.1', 'x-powered-by': 'PHP/8.3.1' })))
    passes(await D.detectVulnerableVersions(pg({ server: 'Apache' })))
  })
  test('vulnerable-version: jQuery named in a script URL', async () => {
    const hits = await D.detectVulnerableVersions(pg({}, { body: '<html><script src="/js/jquery-3.4.1.min.js"></script></html>' }))
    assert.deepEqual(
      hits.map((h) => [h.check.id, h.cve]),
      [['cve.jquery-htmlprefilter-xss', ['CVE-2020-11022', 'CVE-2020-11023']]],
    )
    passes(await D.detectVulnerableVersions(pg({}, { body: '<script src="https://code.jquery.com/jquery-3.7.1.min.js"></script>' })))
  })
  test('version comparison handles OpenSSL letter releases', async () => {
    assert.equal(compareVersions('1.0.1f', '1.0.1.6'), 0)
    assert.equal(compareVersions('1.0.1g', '1.0.1.6'), 1)
    assert.equal(compareVersions('2.4.9', '2.4.49'), -1)
    assert.deepEqual((await D.detectVulnerableVersions(pg({ server: 'Microsoft-IIS/6.0' })))[0]!.cve, ['CVE-2017-7269'])
  })
})

describe('transport, CORS, methods, info', () => {
  test('http-not-redirected', () => {
    fails(detectHttpNotRedirected({ url: 'http://shop.example.com/', status: 200 }), C.httpNoRedirect)
    fails(detectHttpNotRedirected({ url: 'http://shop.example.com/', status: 302, location: '/login' }), C.httpNoRedirect)
    passes(detectHttpNotRedirected({ url: 'http://shop.example.com/', status: 301, location: 'https://shop.example.com/' }))
    passes(detectHttpNotRedirected(null))
  })
  const withCors = (h: Record<string, string>) => pg(h)
  test('cors wildcard with credentials', () => {
    fails(
      detectCorsWildcardCredentials(withCors({ 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' })),
      C.corsWildcardCredentials,
    )
    passes(detectCorsWildcardCredentials(withCors({ 'access-control-allow-origin': '*' })))
  })
  test('cors reflected origin, high with credentials', () => {
    const h = detectCorsReflected(withCors({ 'access-control-allow-origin': PROBE_ORIGIN, 'access-control-allow-credentials': 'true' }))
    fails(h, C.corsReflected)
    assert.equal(h[0]!.risk, 'high')
    assert.equal(detectCorsReflected(withCors({ 'access-control-allow-origin': PROBE_ORIGIN }))[0]!.risk, 'medium')
    passes(detectCorsReflected(withCors({ 'access-control-allow-origin': 'https://shop.example.com' })))
  })
  test('trace', () => {
    fails(detectTrace({ url: 'u', status: 200, body: 'TRACE / HTTP/1.1\r\nx-ward-trace: m1\r\n', marker: 'm1' }), C.traceEnabled)
    passes(detectTrace({ url: 'u', status: 405, body: 'not allowed', marker: 'm1' }))
    passes(detectTrace({ url: 'u', status: 200, body: '<html>catch-all</html>', marker: 'm1' }))
  })
  test('unsafe methods', () => {
    fails(detectUnsafeMethods({ url: 'u', status: 200, allow: 'GET, POST, PUT, DELETE' }), C.unsafeMethods)
    passes(detectUnsafeMethods({ url: 'u', status: 200, allow: 'GET, HEAD, POST, OPTIONS' }))
    passes(detectUnsafeMethods({ url: 'u', status: 405, allow: 'PUT' }))
  })
  test('security.txt', () => {
    const st = (status: number, body: string) =>
      pg({ 'content-type': 'text/plain' }, { url: 'https://shop.example.com/.well-known/security.txt', status, body })
    fails(detectSecurityTxtMissing([st(404, 'nope'), null], 'https://shop.example.com/'), C.securityTxtMissing)
    fails(detectSecurityTxtMissing([st(200, '<html>catch-all Contact: us</html>')], 'https://shop.example.com/'), C.securityTxtMissing)
    passes(
      detectSecurityTxtMissing([st(200, 'Contact: mailto:sec@example.com\nExpires: 2030-01-01T00:00:00Z\n')], 'https://shop.example.com/'),
    )
  })
  test('robots.txt disclosures', () => {
    const r = (body: string) => pg({ 'content-type': 'text/plain' }, { url: 'https://shop.example.com/robots.txt', body })
    fails(detectRobots(r('User-agent: *\nDisallow: /admin/\nDisallow: /backup/ # old\n')), C.robotsDisclosure)
    passes(detectRobots(r('User-agent: *\nAllow: /\nDisallow:\n')))
    passes(detectRobots(r('User-agent: *\nDisallow: /\n')))
    passes(detectRobots(null))
  })
})

describe('sensitive files and directory listing (soft-404 aware)', () => {
  const notFound404 = profile([{ status: 404, body: 'not found', path: '/abcdefghijkl' }])
  const catchAll = (path: string) => `<html><body>Welcome! You asked for ${path}. PAGE=home</body></html>`
  const catchAllProfile = profile(
    ['/qwertyuiopas', '/.zxcvbnmasdfg', '/poiuytrewqlk.bak'].map((p) => ({ status: 200, body: catchAll(p), path: p })),
  )
  const file = (path: string, body: string | Buffer, ct = 'text/plain', status = 200): FileObs => ({
    path,
    url: `https://shop.example.com${path}`,
    status,
    contentType: ct,
    bytes: Buffer.from(body as any),
  })
  const cases: [Check, FileObs, FileObs][] = [
    [C.gitExposed, file('/.git/HEAD', 'ref: refs/heads/main\n'), file('/.git/HEAD', catchAll('/.git/HEAD'), HTML)],
    [C.envExposed, file('/.env', 'DB_PASSWORD=topsecret\n'), file('/.env', '', 'text/plain', 404)],
    [
      C.dsStore,
      file('/.DS_Store', Buffer.from([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31, 0, 0]), 'application/octet-stream'),
      file('/.DS_Store', 'not a ds store'),
    ],
    [
      C.backupExposed,
      file('/database.sql', '-- MySQL dump\nCREATE TABLE t (id int);'),
      file('/database.sql', catchAll('/database.sql'), HTML),
    ],
    [
      C.serverStatus,
      file('/server-status', '<h1>Apache Server Status for x</h1>Server uptime: 1 day', HTML),
      file('/server-status', 'Forbidden', 'text/plain', 403),
    ],
    [
      C.serverStatus,
      file('/server-info', '<h1 style="text-align: center">Apache Server Information</h1><a name="server">Server Settings</a>', HTML),
      file('/server-info', catchAll('/server-info'), HTML),
    ],
    [
      C.phpinfoExposed,
      file(
        '/phpinfo.php',
        '<html><head><title>PHP 7.4.3 - phpinfo()</title></head><body><h1 class="p">PHP Version 7.4.3</h1></body></html>',
        HTML,
      ),
      file('/phpinfo.php', '<html><title>Info</title><p>About PHP</p></html>', HTML),
    ],
    [
      C.scmExposed,
      file('/.svn/wc.db', Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(20)]), 'application/octet-stream'),
      file('/.svn/wc.db', catchAll('/.svn/wc.db'), HTML),
    ],
    [C.scmExposed, file('/.svn/entries', '12\n'), file('/.svn/entries', '<html>12</html>', HTML)],
    [C.scmExposed, file('/.hg/requires', 'dotencode\nfncache\nrevlogv1\nstore\n'), file('/.hg/requires', catchAll('/.hg/requires'), HTML)],
    [
      C.backupExposed,
      file('/.index.php.swp', Buffer.concat([Buffer.from('b0VIM 9.0\0', 'latin1'), Buffer.alloc(30)]), 'application/octet-stream'),
      file('/.index.php.swp', 'swap?'),
    ],
  ]
  for (const [check, bad, good] of cases) {
    test(check.id, () => {
      const hits = detectFiles(check, [bad], notFound404)
      fails(hits, check)
      assert.equal(hits[0]!.url, bad.url)
      passes(detectFiles(check, [good], notFound404))
    })
  }
  test('.env secrets are redacted in evidence', () => {
    const hits = detectFiles(C.envExposed, [file('/.env', 'DB_PASSWORD=topsecret\n')], notFound404)
    assert.doesNotMatch(JSON.stringify(hits[0]!.evidence), /topsecret/)
  })
  test('a catch-all 200 page is not reported even when its text looks like the file', () => {
    const path = '/.env'
    // The catch-all body contains "PAGE=home", which the .env matcher alone would accept.
    const obs = file(path, catchAll(path).replace(/<[^>]+>/g, '\n'), 'text/plain')
    const sameShape = profile([{ status: 200, body: catchAll('/xyzxyzxyzxyz').replace(/<[^>]+>/g, '\n'), path: '/xyzxyzxyzxyz' }])
    // A real .env on the same site still differs from the catch-all page.
    assert.equal(looksLikeNotFound(sameShape, { status: 200, body: 'DB_PASSWORD=topsecret\nAPI_KEY=k\n' }, path), false)
    passes(detectFiles(C.envExposed, [obs], sameShape))
    passes(detectFiles(C.gitExposed, [file('/.git/HEAD', catchAll('/.git/HEAD'), HTML)], catchAllProfile))
  })
  test('soft-404 profile: templated not-found pages with varying parts still match, redirects compare by target', () => {
    const tpl = (path: string, n: number) =>
      `<html><title>Oops</title><p>Sorry, ${path} is gone. Request id ${n}. Try the home page or search our catalogue of fine teapots and kettles.</p></html>`
    const p = profile([{ status: 200, body: tpl('/aaaaaaaaaaaa', 1234), path: '/aaaaaaaaaaaa' }])
    assert.equal(looksLikeNotFound(p, { status: 200, body: tpl('/backup.zip', 98765) }, '/backup.zip'), true)
    assert.equal(looksLikeNotFound(p, { status: 200, body: 'PK\x03\x04 binary' }, '/backup.zip'), false)
    const r = profile([{ status: 302, body: '', location: '/login?next=/aaaaaaaaaaaa', path: '/aaaaaaaaaaaa' }])
    assert.equal(looksLikeNotFound(r, { status: 302, body: '', location: '/login?next=/.env' }, '/.env'), true)
    assert.equal(looksLikeNotFound(profile([]), { status: 404, body: '' }, '/x'), true)
  })
  test('files linked from the site: classified by extension and content, HTML stand-ins and soft-404 pages ignored', () => {
    for (const p of [
      '/files/export.sql',
      '/a/site.tar.gz',
      '/b.zip',
      '/old/index.php.bak',
      '/x/config.php~',
      '/data/app.sqlite',
      '/.main.c.swp',
    ])
      assert.match(p, DOWNLOAD_EXT, p)
    for (const p of ['/index.php', '/docs/guide.pdf', '/style.css', '/sql/']) assert.doesNotMatch(p, DOWNLOAD_EXT, p)
    const good = [
      file('/files/export.sql', '-- PostgreSQL database dump\nCREATE TABLE t (id int);'),
      file('/a/site.tar.gz', Buffer.from([0x1f, 0x8b, 8, 0, 1, 2]), 'application/gzip'),
      file('/b.7z', Buffer.from('7z\xbc\xaf\x27\x1c\0\x04', 'latin1'), 'application/octet-stream'),
      file('/old/index.php.bak', '<?php $db_pass = "x";'),
      file('/data/app.sqlite', Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(8)]), 'application/octet-stream'),
    ]
    const hits = detectCrawledFiles([...good, good[0]!], notFound404)
    assert.deepEqual(
      hits.map((h) => h.url),
      good.map((f) => f.url),
    )
    assert.ok(hits.every((h) => h.check.id === C.backupExposed.id && h.confirmed))
    const bad = [
      file('/files/export.sql', '<html><body>Export is disabled</body></html>', HTML), // an HTML page named .sql
      file('/b.zip', 'not a zip'),
      file('/old/index.php.bak', '<!doctype html><html>page</html>', HTML),
      file('/gone.sql', '-- MySQL dump\nCREATE TABLE t (id int);', 'text/plain', 404),
      file('/c.bak', catchAll('/c.bak'), HTML),
    ]
    passes(detectCrawledFiles(bad, catchAllProfile))
  })
  test('HTTP Basic challenges over plain HTTP (not over HTTPS, not Digest)', () => {
    const c401 = (url: string, challenge: string) => pg({ 'www-authenticate': challenge }, { url, status: 401 })
    const hits = detectBasicAuthOverHttp([
      c401('http://shop.example.com/admin/', 'Basic realm="admin"'),
      c401('http://shop.example.com/admin/', 'Basic realm="admin"'),
    ])
    fails(hits, C.basicAuthOverHttp)
    assert.equal(hits.length, 1)
    passes(
      detectBasicAuthOverHttp([
        c401('https://shop.example.com/admin/', 'Basic realm="admin"'),
        c401('http://shop.example.com/d/', 'Digest realm="x", qop="auth", nonce="n"'),
        pg({}, { url: 'http://shop.example.com/admin/', status: 200 }),
      ]),
    )
  })
  test('password forms: served over HTTP, or posting to http:// from HTTPS', () => {
    const form = (action: string) => `<form action="${action}" method="post"><input name="u"><input type="password" name="p"></form>`
    fails(detectPasswordOverHttp(passwordForms(pg({}, { url: 'http://shop.example.com/login', body: form('/login') }))), C.passwordOverHttp)
    fails(
      detectPasswordOverHttp(passwordForms(pg({}, { url: 'https://shop.example.com/', body: form('http://shop.example.com/login') }))),
      C.passwordOverHttp,
    )
    passes(detectPasswordOverHttp(passwordForms(pg({}, { url: 'https://shop.example.com/', body: form('/login') }))))
    passes(
      detectPasswordOverHttp(passwordForms(pg({}, { url: 'http://shop.example.com/', body: '<form action="/s"><input name="q"></form>' }))),
    )
  })
  test('every sensitive path belongs to a catalogue check', () => {
    for (const f of SENSITIVE_FILES)
      assert.ok(
        C.lightChecks.some((c) => c.id === f.check.id),
        f.path,
      )
  })
  test('directory listing', () => {
    fails(
      detectDirectoryListing([
        pg({}, { url: 'https://shop.example.com/images/', body: '<html><title>Index of /images</title><h1>Index of /images</h1></html>' }),
      ]),
      C.directoryListing,
    )
    passes(detectDirectoryListing([pg({}, { body: '<html><title>Images</title></html>' })]))
  })
})

describe('active proof rules', () => {
  const ans = (body: string, o: Partial<A.Answer> = {}): A.Answer => ({ status: 200, contentType: HTML, body, elapsedMs: 5, ...o })
  test('xss-reflected', () => {
    assert.ok(A.xssProof(ans(`<p>Results for ${A.XSS_PAYLOAD}</p>`)))
    assert.equal(A.xssProof(ans(`<p>Results for ${A.escapeHtml(A.XSS_PAYLOAD)}</p>`)), null)
    assert.equal(A.xssProof(ans(`{"q":"${A.XSS_PAYLOAD}"}`, { contentType: 'application/json' })), null)
  })
  test('sqli-error', () => {
    const base = ans('<p>Blue teapot</p>')
    assert.match(A.sqlErrorProof(ans("You have an error in your SQL syntax; check the manual near ''1''' at line 1"), base)!, /SQL syntax/)
    assert.equal(A.sqlErrorProof(ans('<p>No product found</p>'), base), null)
    // An error already on the baseline page is not caused by the quote.
    assert.equal(A.sqlErrorProof(ans('SQLSTATE[42000] banner'), ans('SQLSTATE[42000] banner')), null)
  })
  test('sqli-boolean', () => {
    const base = ans('<p>Blue teapot</p>')
    assert.equal(A.booleanDiffers(base, ans('<p>Blue teapot</p>'), ans('<p>No product found.</p>'), ['1 AND 1=1', '1 AND 1=2']), true)
    assert.equal(A.booleanDiffers(base, ans('<p>No product found.</p>'), ans('<p>No product found.</p>'), []), false)
    assert.equal(A.booleanDiffers(base, ans('<p>Blue teapot</p>'), ans('<p>Blue teapot</p>'), []), false)
  })
  test('path-traversal', () => {
    assert.match(A.traversalProof(ans('root:x:0:0:root:/root:/bin/bash\n'), ans('readme'))!, /^root:x:0:0/)
    assert.equal(A.traversalProof(ans('no such file'), ans('readme')), null)
  })
  test('open-redirect', () => {
    assert.ok(A.openRedirectProof(ans('', { status: 302, location: `https://${A.REDIRECT_HOST}/` }), 'https://shop.example.com/go?url=x'))
    assert.ok(A.openRedirectProof(ans('', { status: 302, location: `//${A.REDIRECT_HOST}/` }), 'https://shop.example.com/go?url=x'))
    assert.equal(A.openRedirectProof(ans('', { status: 302, location: '/' }), 'https://shop.example.com/go?url=x'), null)
  })
  test('os-command timing', () => {
    assert.equal(A.delayed(3050, [12, 20], 3), true)
    assert.equal(A.delayed(900, [12, 20], 3), false)
    assert.equal(A.delayed(3400, [2900], 3), false) // a page that is always slow proves nothing
    assert.equal(A.cmdPayload('127.0.0.1', ';', 3), '127.0.0.1;sleep 3')
    assert.equal(A.cmdPayload('x', '$(', 0), 'x$(sleep 0)')
  })
  test('ssti', () => {
    assert.ok(A.sstiProof(ans('<p>Hello 1337!</p>'), ans('<p>Hello visitor!</p>')))
    assert.equal(A.sstiProof(ans('<p>Hello {{7*191}}!</p>'), ans('<p>Hello visitor!</p>')), null)
    assert.equal(A.sstiProof(ans('<p>1337 items</p>'), ans('<p>1337 items</p>')), null)
  })
})

describe('html reading', () => {
  test('links, forms and generator', () => {
    const html = `<meta content="Joomla! 3.9" name="generator"><a href="/a?x=1">a</a><a href='mailto:x@y'>m</a><a href=/b>b</a>
      <form action="/login" method="POST"><input name="user"><input type="password" name="pass"><input type="submit" name="go" value="Go"></form>`
    assert.deepEqual(links(html), ['/a?x=1', '/b'])
    assert.deepEqual(forms(html), [
      {
        action: '/login',
        method: 'POST',
        fields: [
          { name: 'user', value: '', type: 'text' },
          { name: 'pass', value: '', type: 'password' },
        ],
      },
    ])
    assert.equal(metaGenerator(html), 'Joomla! 3.9')
    assert.deepEqual(D.generatorComponent('Joomla! 3.9 - Open Source Content Management'), {
      product: 'Joomla',
      version: '3.9',
      source: 'generator meta tag',
    })
  })
})

describe('redirect policy (pure)', () => {
  const u = (s: string) => new URL(s)
  const from = u('https://www.example.com/')
  test('none and check_accessibility follow nothing', () => {
    assert.equal(redirectAllowed('none', from, u('https://www.example.com/x')), false)
    assert.equal(redirectAllowed('check_accessibility', from, u('https://www.example.com/x')), false)
  })
  test('same_host: scheme and port may change, host may not', () => {
    assert.equal(redirectAllowed('same_host', u('http://www.example.com/'), u('https://www.example.com:8443/x')), true)
    assert.equal(redirectAllowed('same_host', from, u('https://shop.example.com/')), false)
  })
  test('same_domain: the registrable domain and its subdomains', () => {
    assert.equal(redirectAllowed('same_domain', from, u('https://example.com/')), true)
    assert.equal(redirectAllowed('same_domain', from, u('https://a.b.example.com/')), true)
    assert.equal(redirectAllowed('same_domain', from, u('https://example.org/')), false)
    assert.equal(redirectAllowed('same_domain', from, u('https://evilexample.com/')), false)
    assert.equal(redirectAllowed('same_domain', u('https://www.example.co.uk/'), u('https://other.co.uk/')), false)
    assert.equal(redirectAllowed('same_domain', u('https://www.example.co.uk/'), u('https://pay.example.co.uk/')), true)
    assert.equal(redirectAllowed('same_domain', u('http://127.0.2.1/'), u('http://127.0.2.2/')), false)
    assert.equal(redirectAllowed('same_domain', u('http://127.0.2.1/'), u('https://127.0.2.1/')), true)
    assert.equal(registrableDomain('www.example.co.uk'), 'example.co.uk')
  })
  test('allow_all follows any http(s) redirect, never other schemes', () => {
    assert.equal(redirectAllowed('allow_all', from, u('https://example.org/')), true)
    assert.equal(redirectAllowed('allow_all', from, u('file:///etc/passwd')), false)
  })
  test('hostnames and IPs are tried over https first, then http; URLs as given', () => {
    assert.deepEqual(candidateBaseUrls({ name: 'example.com', type: 'hostname' }), ['https://example.com/', 'http://example.com/'])
    assert.deepEqual(candidateBaseUrls({ name: '::1', type: 'ip_address' }), ['https://[::1]/', 'http://[::1]/'])
    assert.deepEqual(candidateBaseUrls({ name: 'http://example.com:8080/app', type: 'url' }), ['http://example.com:8080/app'])
  })
})
