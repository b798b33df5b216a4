// Test beds for authenticated web scans: a form-login shop (CSRF token, session cookie that expires
// after a number of requests, a logout link and a delete link that must never be requested, a
// reflected XSS only logged-in users reach), and sites behind HTTP Basic, HTTP Digest, a bearer
// header and a session cookie. Each listens on its own port of one loopback address.
import http from 'node:http'
import { createHash, randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'

export interface AuthBed {
  url: string
  /** Requests of each path (logout and delete must stay 0). */
  hits(path: string): number
  /** Form site: logins accepted so far. */
  logins(): number
  close(): Promise<void>
}

export const USER = 'alice'

async function serve(
  host: string,
  handler: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void,
  extra: Partial<AuthBed> = {},
): Promise<AuthBed> {
  const hits = new Map<string, number>()
  const srv = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://bed').pathname
    hits.set(path, (hits.get(path) ?? 0) + 1)
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => handler(req, Buffer.concat(chunks).toString('utf8'), res))
  })
  await new Promise<void>((r) => srv.listen(0, host, () => r()))
  return {
    url: `http://${host}:${(srv.address() as AddressInfo).port}/`,
    hits: (p) => hits.get(p) ?? 0,
    logins: () => 0,
    close: async () => {
      srv.closeAllConnections()
      await new Promise((r) => srv.close(r))
    },
    ...extra,
  }
}

const page = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string | string[]> = {}) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers })
  res.end(`<!doctype html><html><head><title>Shop</title></head><body>${body}</body></html>`)
}
const cookies = (req: http.IncomingMessage) =>
  Object.fromEntries(
    (req.headers.cookie ?? '')
      .split(';')
      .map((c) => c.trim().split('='))
      .filter((p) => p.length === 2) as [string, string][],
  )

/** The form-login shop. Sessions end after `sessionRequests` requests (the scanner must log in again). */
export async function startFormSite(host: string, password: string, sessionRequests = 25): Promise<AuthBed> {
  const csrf = new Map<string, string>() // pre-session id → token
  const sessions = new Map<string, number>() // session id → requests left
  let logins = 0
  const bed = await serve(
    host,
    (req, body, res) => {
      const u = new URL(req.url ?? '/', 'http://bed')
      const c = cookies(req)
      const session = c.sid && sessions.has(c.sid) ? c.sid : null
      if (session) {
        const left = sessions.get(session)! - 1
        if (left <= 0) sessions.delete(session)
        else sessions.set(session, left)
      }
      const loginForm = (pre: string, error = '') => {
        const token = randomBytes(8).toString('hex')
        csrf.set(pre, token)
        return page(
          res,
          200,
          `${error}<form method="post" action="/login"><input type="hidden" name="csrf_token" value="${token}"><input name="username"><input type="password" name="password"><button>Sign in</button></form>`,
          { 'set-cookie': `pre=${pre}; Path=/; HttpOnly` },
        )
      }
      switch (u.pathname) {
        case '/':
          return page(res, 200, '<h1>Shop</h1><a href="/login">Sign in</a> <a href="/account">My account</a>')
        case '/login': {
          if (req.method !== 'POST') return loginForm(c.pre ?? randomBytes(6).toString('hex'))
          const f = new URLSearchParams(body)
          if (!c.pre || f.get('csrf_token') !== csrf.get(c.pre))
            return loginForm(c.pre ?? randomBytes(6).toString('hex'), '<p class="error">Invalid form token</p>')
          if (f.get('username') !== USER || f.get('password') !== password)
            return loginForm(c.pre, '<p class="error">Invalid credentials</p>')
          logins++
          const sid = randomBytes(8).toString('hex')
          sessions.set(sid, sessionRequests)
          res.writeHead(302, { location: '/account', 'set-cookie': `sid=${sid}; Path=/; HttpOnly` })
          return res.end()
        }
      }
      if (!session) {
        res.writeHead(302, { location: '/login' })
        return res.end()
      }
      switch (u.pathname) {
        case '/account':
          return page(
            res,
            200,
            `<h1>Welcome ${USER}</h1><a href="/account/orders?id=1">Orders</a> <a href="/account/profile">Profile</a> <a href="/logout">Log out</a> <a href="/account/delete?confirm=1">Delete my account</a> <form method="post" action="/account/password"><input type="password" name="new_password"><button>Change password</button></form>`,
          )
        case '/account/orders': // reflected XSS, reachable only with a session
          return page(res, 200, `<h1>Order ${u.searchParams.get('id') ?? ''}</h1><a href="/account">Back</a>`)
        case '/account/profile':
          return page(res, 200, `<h1>Profile of ${USER}</h1><a href="/account">Back</a>`)
        case '/logout':
        case '/account/delete':
          sessions.delete(session)
          res.writeHead(302, { location: '/' })
          return res.end()
        default:
          return page(res, 404, 'not found')
      }
    },
    { logins: () => logins },
  )
  return bed
}

/** A site behind HTTP Basic (realm "Shop"). */
export function startBasicSite(host: string, password: string): Promise<AuthBed> {
  const good = `Basic ${Buffer.from(`${USER}:${password}`).toString('base64')}`
  return serve(host, (req, _b, res) => {
    if (req.headers.authorization !== good) return page(res, 401, 'Unauthorized', { 'www-authenticate': 'Basic realm="Shop"' })
    const u = new URL(req.url ?? '/', 'http://bed')
    if (u.pathname === '/') return page(res, 200, '<h1>Members area</h1><a href="/members/report">Report</a>')
    if (u.pathname === '/members/report') return page(res, 200, '<h1>Report</h1>')
    return page(res, 404, 'not found')
  })
}

/** A site behind HTTP Digest (RFC 7616, MD5, qop=auth). */
export function startDigestSite(host: string, password: string): Promise<AuthBed> {
  const realm = 'Shop'
  const nonce = randomBytes(12).toString('hex')
  const md5 = (s: string) => createHash('md5').update(s).digest('hex')
  return serve(host, (req, _b, res) => {
    const h = req.headers.authorization ?? ''
    const p: Record<string, string> = {}
    for (const m of h.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]+))/g)) p[m[1]!] = m[2] ?? m[3]!
    const ok =
      h.startsWith('Digest ') &&
      p.username === USER &&
      p.nonce === nonce &&
      p.uri === req.url &&
      p.response === md5(`${md5(`${USER}:${realm}:${password}`)}:${nonce}:${p.nc}:${p.cnonce}:auth:${md5(`${req.method}:${req.url}`)}`)
    if (!ok)
      return page(res, 401, 'Unauthorized', {
        'www-authenticate': `Digest realm="${realm}", qop="auth", nonce="${nonce}", opaque="0a1b", algorithm=MD5`,
      })
    return page(res, 200, '<h1>Members area (digest)</h1>')
  })
}

/** A site that wants `Authorization: Bearer <token>` (headers) or the cookie `sid=<token>` (cookie). */
export function startTokenSite(host: string, token: string, kind: 'bearer' | 'cookie'): Promise<AuthBed> {
  return serve(host, (req, _b, res) => {
    const ok = kind === 'bearer' ? req.headers.authorization === `Bearer ${token}` : cookies(req).sid === token
    if (!ok) return page(res, 401, 'Unauthorized', kind === 'bearer' ? { 'www-authenticate': 'Bearer' } : {})
    return page(res, 200, '<h1>Dashboard</h1>')
  })
}
