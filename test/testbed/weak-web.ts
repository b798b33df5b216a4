// Test bed for the Website Scanner: a deliberately weak web application (HTTP, HTTPS, and a second
// HTTPS listener without HSTS) and a hardened twin with none of the weaknesses. Loopback only.
// Every planted weakness is listed in WEAK_TRUTH / HARDENED_TRUTH below: the scanner tests compare to it.
import http from 'node:http'
import https from 'node:https'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'

// ---------------------------------------------------------------- truth

/** vuln_ids each scan of the weak app must report (and nothing else). */
export const WEAK_TRUTH = {
  /** Light scan of http://host:httpPort/ */
  lightHttp: [
    'cve.apache-httpd-mod-lua-multipart',
    'cve.apache-httpd-path-traversal',
    'cve.wordpress-crop-image-rce',
    'cve.wordpress-wp-query-sqli',
    'eol.php',
    'website.content.directory-listing',
    'website.cookies.httponly-missing',
    'website.cookies.samesite-missing',
    'website.cors.origin-reflected',
    'website.disclosure.generator',
    'website.disclosure.powered-by',
    'website.disclosure.server-version',
    'website.files.backup-exposed',
    'website.files.ds-store',
    'website.files.env-exposed',
    'website.files.git-exposed',
    'website.files.phpinfo',
    'website.files.scm-exposed',
    'website.files.server-status',
    'website.headers.clickjacking',
    'website.headers.csp-missing',
    'website.headers.permissions-policy-missing',
    'website.headers.referrer-policy-missing',
    'website.headers.xcto-missing',
    'website.info.robots-disclosure',
    'website.info.security-txt-missing',
    'website.methods.trace',
    'website.methods.unsafe-allowed',
    'website.transport.basic-auth-over-http',
    'website.transport.http-not-redirected',
    'website.transport.password-form-over-http',
  ],
  /** Light scan of the host over https (port 443, with port 80 serving plain HTTP). */
  lightHttps: [
    'cve.apache-httpd-mod-lua-multipart',
    'cve.apache-httpd-path-traversal',
    'cve.wordpress-crop-image-rce',
    'cve.wordpress-wp-query-sqli',
    'eol.php',
    'website.content.directory-listing',
    'website.cookies.httponly-missing',
    'website.cookies.samesite-missing',
    'website.cookies.secure-missing',
    'website.cors.wildcard-credentials',
    'website.disclosure.generator',
    'website.disclosure.powered-by',
    'website.disclosure.server-version',
    'website.files.backup-exposed',
    'website.files.ds-store',
    'website.files.env-exposed',
    'website.files.git-exposed',
    'website.files.phpinfo',
    'website.files.scm-exposed',
    'website.files.server-status',
    'website.headers.clickjacking',
    'website.headers.csp-unsafe',
    'website.headers.hsts-weak',
    'website.headers.permissions-policy-missing',
    'website.headers.referrer-policy-missing',
    'website.headers.xcto-missing',
    'website.info.robots-disclosure',
    'website.info.security-txt-missing',
    'website.methods.trace',
    'website.methods.unsafe-allowed',
    'website.transport.http-not-redirected',
  ],
  /** Light scan of https://host:httpsAltPort/ (no HSTS at all; non-standard port, so no port-80 twin). */
  lightHttpsAlt: [
    'cve.apache-httpd-mod-lua-multipart',
    'cve.apache-httpd-path-traversal',
    'cve.wordpress-crop-image-rce',
    'cve.wordpress-wp-query-sqli',
    'eol.php',
    'website.content.directory-listing',
    'website.cookies.httponly-missing',
    'website.cookies.samesite-missing',
    'website.cookies.secure-missing',
    'website.cors.wildcard-credentials',
    'website.disclosure.generator',
    'website.disclosure.powered-by',
    'website.disclosure.server-version',
    'website.files.backup-exposed',
    'website.files.ds-store',
    'website.files.env-exposed',
    'website.files.git-exposed',
    'website.files.phpinfo',
    'website.files.scm-exposed',
    'website.files.server-status',
    'website.headers.clickjacking',
    'website.headers.csp-unsafe',
    'website.headers.hsts-missing',
    'website.headers.permissions-policy-missing',
    'website.headers.referrer-policy-missing',
    'website.headers.xcto-missing',
    'website.info.robots-disclosure',
    'website.info.security-txt-missing',
    'website.methods.trace',
    'website.methods.unsafe-allowed',
  ],
  /** Active findings of a deep scan (on top of the light ones of the same URL). */
  deepActive: [
    'website.injection.open-redirect',
    'website.injection.os-command',
    'website.injection.path-traversal',
    'website.injection.sqli-boolean',
    'website.injection.sqli-error',
    'website.injection.ssti',
    'website.injection.xss-reflected',
  ],
  /** Where the active flaws are planted: vuln_id → [method, path, param]. */
  activeWhere: {
    'website.injection.xss-reflected': ['GET', '/search', 'q'],
    'website.injection.sqli-error': ['GET', '/product', 'id'],
    'website.injection.sqli-boolean': ['GET', '/product', 'id'],
    'website.injection.path-traversal': ['GET', '/file', 'name'],
    'website.injection.open-redirect': ['GET', '/go', 'url'],
    'website.injection.os-command': ['POST', '/ping', 'host'],
    'website.injection.ssti': ['GET', '/hello', 'name'],
  } as Record<string, [string, string, string]>,
} as const

/** The hardened twin: only these info-level findings are allowed. */
export const HARDENED_TRUTH: readonly string[] = []

// ---------------------------------------------------------------- certificate

const certCache = new Map<string, { key: Buffer; cert: Buffer }>()
/** A self-signed certificate made once per process per subject (CN localhost by default; `san`: an openssl subjectAltName value). */
export function selfSignedCert(o: { cn?: string; san?: string } = {}): { key: Buffer; cert: Buffer } {
  const id = `${o.cn ?? 'localhost'} ${o.san ?? ''}`
  const cached = certCache.get(id)
  if (cached) return cached
  const dir = mkdtempSync(join(tmpdir(), 'ward-weak-web-'))
  try {
    const san = o.san ? ['-addext', `subjectAltName=${o.san}`] : []
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        `/CN=${o.cn ?? 'localhost'}`,
        '-days',
        '2',
        ...san,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    )
    const made = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }
    certCache.set(id, made)
    return made
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---------------------------------------------------------------- servers

export interface WebBed {
  host: string
  httpPort: number
  httpsPort: number
  httpsAltPort: number
  httpUrl: string
  httpsUrl: string
  httpsAltUrl: string
  /** Requests served so far (all listeners). */
  requests(): number
  close(): Promise<void>
}

export interface BedOptions {
  /** 0 = ephemeral (default). Tests scanning a bare host use 80/443. */
  httpPort?: number
  httpsPort?: number
  httpsAltPort?: number
}

type Variant = 'http' | 'https' | 'httpsAlt'
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, variant: Variant, bed: { httpsPort: number }) => void

async function startBed(host: string, handler: Handler, o: BedOptions): Promise<WebBed> {
  const { key, cert } = selfSignedCert()
  let count = 0
  const ports = { httpsPort: 0 }
  const wrap = (variant: Variant) => (req: http.IncomingMessage, res: http.ServerResponse) => {
    count++
    // Read the body first (POST forms), then answer.
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.length < 64 && chunks.push(c))
    req.on('end', () => {
      ;(req as any).bodyText = Buffer.concat(chunks).toString('utf8')
      try {
        handler(req, res, variant, ports)
      } catch (e) {
        res.statusCode = 500
        res.end(String(e))
      }
    })
  }
  const servers = [
    http.createServer(wrap('http')),
    https.createServer({ key, cert }, wrap('https')),
    https.createServer({ key, cert }, wrap('httpsAlt')),
  ]
  const wanted = [o.httpPort ?? 0, o.httpsPort ?? 0, o.httpsAltPort ?? 0]
  await Promise.all(servers.map((s, i) => new Promise<void>((res, rej) => s.once('error', rej).listen(wanted[i], host, () => res()))))
  const port = (i: number) => (servers[i]!.address() as AddressInfo).port
  ports.httpsPort = port(1)
  const h = host.includes(':') ? `[${host}]` : host
  return {
    host,
    httpPort: port(0),
    httpsPort: port(1),
    httpsAltPort: port(2),
    httpUrl: `http://${h}:${port(0)}/`,
    httpsUrl: `https://${h}:${port(1)}/`,
    httpsAltUrl: `https://${h}:${port(2)}/`,
    requests: () => count,
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((res) => {
              s.close(() => res())
              s.closeAllConnections()
            }),
        ),
      ).then(() => undefined),
  }
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

const PASSWD =
  'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nwww-data:x:33:33:www-data:/var/www:/usr/sbin/nologin\n'
const DS_STORE = Buffer.concat([
  Buffer.from([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]),
  Buffer.from('\0\0\x10\0\0\0\x08\0secret-backup.tar.gz\0', 'latin1'),
])
const ZIP = Buffer.concat([Buffer.from('PK\x03\x04\x14\0\0\0\x08\0', 'latin1'), Buffer.alloc(40, 7)])
const SQLITE_DB = Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(84)])
const VIM_SWAP = Buffer.concat([
  Buffer.from('b0VIM 8.2\0\0\0\0\x10\0\0', 'latin1'),
  Buffer.alloc(64),
  Buffer.from('root\0weak\0/var/www/html/index.php\0', 'latin1'),
])
const TAR_GZ = Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), Buffer.alloc(60, 3)])
const PHPINFO =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "DTD/xhtml1-transitional.dtd"><html><head><title>PHP 8.1.2 - phpinfo()</title></head><body><div class="center"><table><tr class="h"><td><h1 class="p">PHP Version 8.1.2</h1></td></tr></table></div></body></html>'
/** Sign-in form of the home pages (weak: served over plain HTTP too; hardened: HTTPS only). */
const LOGIN_FORM =
  '<form action="/login" method="post"><input name="user"><input type="password" name="password"><button>Sign in</button></form>'
const PRODUCTS: Record<string, string> = { '1': 'Blue teapot', '2': 'Red kettle' }

function page(title: string, body: string, extraHead = '') {
  return `<!doctype html><html><head><title>${title}</title>${extraHead}</head><body><h1>${title}</h1>${body}</body></html>`
}

const HOME_BODY =
  '<ul>' +
  '<li><a href="/search?q=teapot">Search</a></li>' +
  '<li><a href="/product?id=1">Product 1</a></li>' +
  '<li><a href="/file?name=readme.txt">Readme</a></li>' +
  '<li><a href="/go?url=/about">About (via redirect)</a></li>' +
  '<li><a href="/hello?name=visitor">Greeting</a></li>' +
  '<li><a href="/about">About</a></li>' +
  '<li><a href="/static/css/site.css">Style</a></li>' +
  '<li><a href="https://www.example.org/external">External (out of scope)</a></li>' +
  '</ul>' +
  '<form action="/ping" method="post"><input name="host" value="127.0.0.1"><input type="submit" value="Ping"></form>' +
  '<form action="/search" method="get"><input name="q"><button>Go</button></form>'

// ---------------------------------------------------------------- the weak app

const weak: Handler = (req, res, variant) => {
  const u = new URL(req.url ?? '/', 'http://bed')
  const q = (k: string) => u.searchParams.get(k) ?? ''
  const body = (req as any).bodyText as string
  res.setHeader('server', 'Apache/2.4.49 (Unix)')
  res.setHeader('x-powered-by', 'PHP/8.1.2')
  const origin = req.headers.origin
  if (variant === 'http') {
    if (origin) {
      res.setHeader('access-control-allow-origin', origin)
      res.setHeader('access-control-allow-credentials', 'true')
    }
  } else {
    res.setHeader('access-control-allow-origin', '*')
    res.setHeader('access-control-allow-credentials', 'true')
    res.setHeader('content-security-policy', "default-src 'self' 'unsafe-inline' 'unsafe-eval'")
    if (variant === 'https') res.setHeader('strict-transport-security', 'max-age=300')
  }
  const html = (status: number, title: string, b: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
    res.end(page(title, b, '<meta name="generator" content="WordPress 4.7.1">'))
  }
  const text = (status: number, t: string | Buffer, ct = 'text/plain') => {
    res.writeHead(status, { 'content-type': ct })
    res.end(t)
  }
  if (req.method === 'TRACE') {
    res.writeHead(200, { 'content-type': 'message/http' })
    return res.end(
      `TRACE ${req.url} HTTP/1.1\r\n${Object.entries(req.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n')}\r\n\r\n`,
    )
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(200, { allow: 'GET, HEAD, POST, PUT, DELETE, OPTIONS, TRACE', 'content-length': '0' })
    return res.end()
  }
  switch (u.pathname) {
    case '/':
      res.setHeader('set-cookie', ['session=4f3c2a1b; Path=/', 'prefs=dark; Path=/; HttpOnly'])
      return html(200, 'Weak shop', HOME_BODY + LOGIN_FORM)
    case '/about':
      // Linked downloads only a crawl finds: a database export and a site archive.
      return html(
        200,
        'About',
        '<p>We sell teapots.</p><a href="/">Home</a> <a href="/files/export.sql">Data export</a> <a href="/files/site-2024.tar.gz">Old site</a>',
      )
    case '/files/export.sql':
      return text(200, '-- PostgreSQL database dump\nCREATE TABLE customers (id integer, email text);\n', 'application/sql')
    case '/files/site-2024.tar.gz':
      return text(200, TAR_GZ, 'application/gzip')
    case '/phpinfo.php':
      return text(200, PHPINFO, 'text/html; charset=utf-8')
    case '/.svn/wc.db':
      return text(200, SQLITE_DB, 'application/octet-stream')
    case '/.hg/requires':
      return text(200, 'dotencode\nfncache\ngeneraldelta\nrevlogv1\nstore\n')
    case '/.index.php.swp':
      return text(200, VIM_SWAP, 'application/octet-stream')
    case '/admin/':
      res.writeHead(401, { 'www-authenticate': 'Basic realm="Weak shop admin"', 'content-type': 'text/html' })
      return res.end('<h1>401 Unauthorized</h1>')
    case '/search': // reflected XSS
      return html(200, 'Search', `<p>Results for ${q('q')}</p><p>No results.</p>`)
    case '/product': {
      // SQL built by concatenation: quotes break it, AND conditions change the result.
      const id = q('id')
      if (/['"]/.test(id) && !/^\d+' AND '(\w)'='(\w)$/.test(id))
        return html(
          500,
          'Error',
          `<p>You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${esc(id)}' at line 1</p>`,
        )
      const m = /^(\d+)(?:\s+AND\s+(\d+)=(\d+)|' AND '(\w)'='(\w))?$/i.exec(id)
      const ok = m && (m[2] === undefined ? (m[4] === undefined ? true : m[4] === m[5]) : m[2] === m[3])
      const name = ok ? PRODUCTS[m![1]!] : undefined
      return html(200, 'Product', name ? `<p>${name}</p><p>In stock.</p>` : '<p>No product found.</p>')
    }
    case '/file': {
      // Path traversal: ../ sequences (also "....//" and encoded) reach a fake /etc/passwd.
      const name = decodeURIComponent(q('name')).replace(/\.\.\.\.\/\//g, '../')
      if (/(^|\/)etc\/passwd$/.test(name) && (name.startsWith('/') || name.includes('../'))) return text(200, PASSWD)
      if (name === 'readme.txt') return text(200, 'Thank you for shopping with us.\n')
      return text(404, 'no such file\n')
    }
    case '/go': // open redirect
      res.writeHead(302, { location: q('url') || '/' })
      return res.end()
    case '/hello': {
      // Template injection: {{a*b}} is evaluated.
      const name = q('name').replace(/\{\{\s*(\d+)\s*\*\s*(\d+)\s*\}\}/g, (_, a: string, b: string) => String(Number(a) * Number(b)))
      return html(200, 'Hello', `<p>Hello ${esc(name)}!</p>`)
    }
    case '/ping': {
      // OS command injection: "host; sleep N" sleeps N seconds (nothing is executed).
      const host = new URLSearchParams(body).get('host') ?? q('host')
      const m = /(?:;|\||&&|\$\(|`)\s*sleep (\d+)/.exec(host)
      const secs = m ? Math.min(5, Number(m[1])) : 0
      setTimeout(
        () => html(200, 'Ping', `<pre>PING ${esc(host.split(/[;|&$`]/)[0]!)}: 1 packets transmitted, 1 received</pre>`),
        secs * 1000,
      )
      return
    }
    case '/images/':
    case '/images':
      return html(
        200,
        'Index of /images',
        '<pre><a href="../">../</a>\n<a href="logo.png">logo.png</a>\n<a href="old-site-backup.zip">old-site-backup.zip</a></pre>',
      )
    case '/static/css/site.css':
      return text(200, 'body{font-family:sans-serif}', 'text/css')
    case '/robots.txt':
      return text(200, 'User-agent: *\nDisallow: /admin/\nDisallow: /backup/\n')
    case '/.git/HEAD':
      return text(200, 'ref: refs/heads/main\n')
    case '/.git/config':
      return text(200, '[core]\n\trepositoryformatversion = 0\n\tbare = false\n')
    case '/.env':
      return text(200, 'APP_ENV=production\nDB_PASSWORD=hunter2-not-real\nAPI_KEY=sk_test_000\n')
    case '/.DS_Store':
      return text(200, DS_STORE, 'application/octet-stream')
    case '/backup.zip':
      return text(200, ZIP, 'application/zip')
    case '/database.sql':
      return text(200, '-- MySQL dump 10.13\nCREATE TABLE users (id int, email varchar(255));\n')
    case '/server-status':
      return html(
        200,
        'Apache Status',
        '<h1>Apache Server Status for 127.0.0.1</h1><dl><dt>Server uptime: 3 days</dt><dt>Total Accesses: 1042</dt></dl>',
      )
    default:
      return html(404, 'Not Found', '<p>The requested URL was not found on this server.</p>')
  }
}

// ---------------------------------------------------------------- the hardened twin

const hardened: Handler = (req, res, variant, bed) => {
  const u = new URL(req.url ?? '/', 'http://bed')
  const q = (k: string) => u.searchParams.get(k) ?? ''
  res.setHeader('server', 'nginx')
  if (variant === 'http') {
    // Plain HTTP only redirects to HTTPS.
    const host = (req.headers.host ?? 'localhost').replace(/:\d+$/, '')
    res.writeHead(301, { location: `https://${host}${bed.httpsPort === 443 ? '' : `:${bed.httpsPort}`}${u.pathname}${u.search}` })
    return res.end()
  }
  res.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains')
  res.setHeader('content-security-policy', "default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'")
  res.setHeader('x-frame-options', 'DENY')
  res.setHeader('x-content-type-options', 'nosniff')
  res.setHeader('referrer-policy', 'strict-origin-when-cross-origin')
  res.setHeader('permissions-policy', 'camera=(), microphone=(), geolocation=()')
  const html = (status: number, title: string, b: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
    res.end(page(title, b))
  }
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
    res.writeHead(405, { allow: 'GET, HEAD, POST', 'content-type': 'text/plain' })
    return res.end('method not allowed\n')
  }
  switch (u.pathname) {
    case '/':
      res.setHeader('set-cookie', ['session=4f3c2a1b; Path=/; Secure; HttpOnly; SameSite=Lax'])
      return html(200, 'Hardened shop', HOME_BODY + LOGIN_FORM)
    case '/admin/':
      // Basic over HTTPS (plain HTTP redirects first): not a finding.
      res.writeHead(401, { 'www-authenticate': 'Basic realm="Hardened admin"', 'content-type': 'text/html' })
      return res.end('<h1>401 Unauthorized</h1>')
    case '/search':
      return html(200, 'Search', `<p>Results for ${esc(q('q'))}</p><p>No results.</p>`)
    case '/product': {
      const name = PRODUCTS[String(parseInt(q('id'), 10))]
      return html(200, 'Product', name ? `<p>${name}</p>` : '<p>No product found.</p>')
    }
    case '/file':
      return q('name') === 'readme.txt' ? html(200, 'Readme', '<p>Thank you.</p>') : html(200, 'Readme', '<p>Unknown file.</p>')
    case '/go': {
      const to = q('url')
      res.writeHead(302, { location: to.startsWith('/') && !to.startsWith('//') && !to.includes('\\') ? to : '/' })
      return res.end()
    }
    case '/hello':
      return html(200, 'Hello', `<p>Hello ${esc(q('name'))}!</p>`)
    case '/ping':
      return html(200, 'Ping', '<pre>1 packets transmitted</pre>')
    case '/robots.txt':
      res.writeHead(200, { 'content-type': 'text/plain' })
      return res.end('User-agent: *\nAllow: /\n')
    case '/.well-known/security.txt':
      res.writeHead(200, { 'content-type': 'text/plain' })
      return res.end('Contact: mailto:security@example.com\nExpires: 2030-01-01T00:00:00Z\n')
    default:
      // Catch-all 200 page (single-page-app style): the soft-404 calibration must see through it.
      return html(200, 'Hardened shop', `<p>Page ${esc(u.pathname)} - welcome!</p>`)
  }
}

export const startWeakWeb = (host: string, o: BedOptions = {}) => startBed(host, weak, o)
export const startHardenedWeb = (host: string, o: BedOptions = {}) => startBed(host, hardened, o)
