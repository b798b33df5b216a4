// Test bed of the template engine: a loopback HTTP site (127.0.61.1 by default) with a positive and a
// negative route for each matcher, extractor, payload attack, raw request, multi-step and DSL
// family. It counts requests per path, so clustering and payload tests can count what arrived.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHash } from 'node:crypto'

export interface TemplateSite {
  host: string
  port: number
  url: string
  /** Requests per path (without the query), and every request line in arrival order. */
  hits: Map<string, number>
  lines: string[]
  reset(): void
  close(): Promise<void>
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
export const FAVICON = Buffer.from('ward-favicon-bytes')

/** What a route answers: [status, headers, body]. */
type Answer = [number, Record<string, string | string[]>, string | Buffer]
type Route = (req: http.IncomingMessage, body: string, url: URL) => Answer

const text = (body: string, status = 200, headers: Record<string, string | string[]> = {}): Answer => [
  status,
  { 'content-type': 'text/plain', ...headers },
  body,
]
const html = (body: string): Answer => [200, { 'content-type': 'text/html' }, body]
const json = (v: unknown): Answer => [200, { 'content-type': 'application/json' }, JSON.stringify(v)]
const cookieOf = (req: http.IncomingMessage, name: string) =>
  (req.headers.cookie ?? '')
    .split(/;\s*/)
    .find((c) => c.startsWith(name + '='))
    ?.slice(name.length + 1)

export const ROUTES: Record<string, Route> = {
  // word / regex / status / size / binary: a positive page and a clean twin.
  '/pos/word': () => text('Welcome to AcmeCMS admin console'),
  '/neg/word': () => text('Welcome to a plain site'),
  '/pos/regex': () => text('X-Build: acme-4.2.17-release'),
  '/neg/regex': () => text('X-Build: unknown'),
  '/pos/status': () => text('teapot', 418),
  '/neg/status': () => text('fine'),
  '/pos/size': () => text('x'.repeat(1234)),
  '/neg/size': () => text('x'.repeat(1233)),
  '/pos/binary': () => [200, { 'content-type': 'image/png' }, Buffer.concat([PNG, Buffer.from('rest')])],
  '/neg/binary': () => [200, { 'content-type': 'image/gif' }, Buffer.from('GIF89a rest')],
  '/pos/header': () => text('ok', 200, { 'x-powered-by': 'AcmeCMS/4.2', server: 'acme' }),
  '/neg/header': () => text('ok', 200, { server: 'nginx' }),
  '/pos/case': () => text('POWERED BY ACMECMS'),
  '/neg/case': () => text('powered by someone else'),
  // dsl families: strings, encoding, hashes, versions, numbers.
  '/pos/dsl': () => text('version=2.4.49;token=d2FyZA==', 200, { 'x-version': '2.4.49' }),
  '/neg/dsl': () => text('version=2.4.58;token=bm9wZQ==', 200, { 'x-version': '2.4.58' }),
  '/pos/favicon.ico': () => [200, { 'content-type': 'image/x-icon' }, FAVICON],
  '/neg/favicon.ico': () => [200, { 'content-type': 'image/x-icon' }, Buffer.from('another icon')],
  // extractors
  '/pos/json': () => json({ app: { name: 'acme', version: '4.2.17' }, users: [{ id: 7 }, { id: 9 }] }),
  '/neg/json': () => json({ app: { name: 'acme' }, users: [] }),
  '/pos/xpath': () =>
    html(
      '<html><head><title>Acme Login</title><meta name="generator" content="AcmeCMS 4.2"></head><body><div class="x">hi</div></body></html>',
    ),
  '/neg/xpath': () => html('<html><body><p>Shop</p><meta name="robots" content="all"></body></html>'),
  '/pos/kval': () => text('ok', 200, { 'x-api-version': 'v9', 'set-cookie': 'session_id=abc123; Path=/' }),
  '/neg/kval': () => text('ok'),
  // extractor feeding a later request: a token page, then a page that needs it.
  '/pos/token': () => html('<input name="csrf" value="tok-5a1b">'),
  '/neg/token': () => html('<input name="csrf" value="other">'),
  '/secret': (_req, _b, u) => (u.searchParams.get('csrf') === 'tok-5a1b' ? text('secret: 42') : text('denied', 403)),
  // multi-step with cookies: /login sets a cookie that /account needs.
  '/pos/login': () => text('logged in', 200, { 'set-cookie': 'sid=s3cr3t; Path=/; HttpOnly' }),
  '/neg/login': () => text('login failed', 200),
  '/account': (req) => (cookieOf(req, 'sid') === 's3cr3t' ? text('account of admin') : text('please log in', 401)),
  // payloads: a login that accepts one pair.
  '/auth': (_req, body) => {
    const p = new URLSearchParams(body)
    return p.get('user') === 'admin' && p.get('pass') === 'hunter2' ? text('auth ok') : text('auth failed', 401)
  },
  '/echo': (_req, _b, u) => text(`you sent ${u.searchParams.get('q') ?? ''}`),
  // raw requests: a POST with a header the route checks.
  '/raw': (req, body) =>
    req.method === 'POST' && req.headers['x-ward'] === 'raw' && body === 'a=1'
      ? text(`raw ok host=${req.headers.host}`)
      : text('raw no', 400),
  // redirects
  '/pos/redirect': () => [302, { location: '/landing' }, ''],
  '/neg/redirect': () => [302, { location: '/elsewhere' }, ''],
  '/landing': () => text('landing page marker'),
  '/elsewhere': () => text('nothing'),
  '/off-host-redirect': () => [302, { location: 'http://127.0.61.9:1/' }, ''],
  // clustering
  '/cluster': () => text('shared page'),
  // a large body for the ReDoS template
  '/big': () => text('a'.repeat(200_000) + '!'),
  // digest of the body, to check md5/sha of the engine against Node's
  '/hash': () => text(createHash('md5').update('ward').digest('hex')),
}

export async function startTemplateSite(host = '127.0.61.1'): Promise<TemplateSite> {
  const hits = new Map<string, number>()
  const lines: string[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x')
      hits.set(u.pathname, (hits.get(u.pathname) ?? 0) + 1)
      lines.push(`${req.method} ${req.url}`)
      const route = ROUTES[u.pathname]
      const [status, headers, body] = route ? route(req, Buffer.concat(chunks).toString(), u) : text('not found', 404)
      res.writeHead(status, headers)
      res.end(body)
    })
  })
  await new Promise<void>((ok) => server.listen(0, host, ok))
  const port = (server.address() as AddressInfo).port
  return {
    host,
    port,
    url: `http://${host}:${port}`,
    hits,
    lines,
    reset() {
      hits.clear()
      lines.length = 0
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  }
}
