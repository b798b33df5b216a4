// An authenticated view of the scan's egress: logs in (form, Basic, Digest, cookie, headers), keeps the
// session's cookies, adds credentials to requests for the target's host only, notices a session that
// ended and logs in again (bounded), and never sends a logout request. Rejected credentials end the
// scan `auth failed` (AuthFailedError). No message ever holds a credential.
import type { Egress, HttpRequest, HttpResponse } from '../../../../toolkit/egress.js'
import { AuthFailedError } from '../../../../toolkit/errors.js'
import type { Authentication, FormLogin } from './params.js'
import { digestAuthorization, parseDigestChallenge, type DigestChallenge } from './digest.js'
import { htmlForms } from '../html-reader.js'
import { markerTest, type MarkerTest } from './markers.js'
import { isRedirectStatus, walkRedirects } from '../redirects.js'

/** Paths a logged-in scan never requests: they end the session (or the account). */
export const SESSION_ENDING = /\b(log-?out|sign-?out|log-?off|sign-?off|logoff|signoff)\b/i
const MAX_RELOGINS = 5

export interface AuthOptions {
  /** The scanned URL: credentials and cookies go to its host only. */
  target: URL
  signal: AbortSignal
  log: (line: string) => void
}

export interface AuthSession {
  /** The scan's egress with the session applied. */
  net: Egress
  /** How the login went, for the Authentication test ("form login to … succeeded"). */
  summary: string
  /** Logins after the first (the session had ended). */
  relogins(): number
}

/** Logs in and returns the authenticated egress; throws AuthFailedError when the credentials are rejected. */
export async function authenticate(net: Egress, auth: Authentication, o: AuthOptions): Promise<AuthSession> {
  const host = o.target.hostname.toLowerCase()
  const mine = (u: URL) => u.hostname.toLowerCase() === host
  const jar = new Map<string, string>()
  let relogins = 0
  let loggedIn = false
  let relogin: Promise<void> | null = null
  const loginPath = auth.type === 'form' ? new URL(auth.login_url).pathname : null
  const markers = compileMarkers(auth)

  if (auth.type === 'cookie') for (const part of auth.cookie.split(';')) setCookie(jar, part)

  const send = sessionSender(net, auth, jar, mine)

  const get = sessionGetter(send, mine, o.signal)

  const login = async (): Promise<string> => {
    if (auth.type === 'form') return formLogin(auth, { send, get, mine, markers, loginPath, jar, signal: o.signal })
    const url = auth.check_url ?? o.target.href
    const res = await get(url)
    const what = { basic: 'HTTP Basic', digest: 'HTTP Digest', cookie: 'the session cookie', headers: 'the extra headers' }[auth.type]
    if (res.status === 401) throw new AuthFailedError(`${what}: ${url} still answered 401 Unauthorized with the credentials`)
    const bad = markerProblem(markers, res)
    if (bad) throw new AuthFailedError(`${what}: ${url} ${bad}`)
    return `${what} accepted by ${url} (${res.status})`
  }

  const ended = (res: HttpResponse, requested: URL) => sessionEnded(res, requested, { auth, loginPath, markers, mine })

  const http = async (url: string, req: HttpRequest = {}): Promise<HttpResponse> => {
    const u = new URL(url)
    if (loggedIn && mine(u) && SESSION_ENDING.test(u.pathname + u.search)) {
      throw Object.assign(new Error(`not requested while logged in: ${u.pathname} would end the session`), { code: 'ESESSIONGUARD' })
    }
    const res = await send(url, req)
    if (!loggedIn || !ended(res, u) || relogins >= MAX_RELOGINS) return res
    relogin ??= (async () => {
      relogins++
      o.log(`auth: the session ended (${res.status} for ${u.pathname}); logging in again (${relogins} of at most ${MAX_RELOGINS})`)
      if (auth.type === 'form') jar.clear()
      await login()
    })().finally(() => (relogin = null))
    try {
      await relogin
    } catch (e) {
      o.log(`auth: logging in again failed: ${(e as Error).message}`)
      return res
    }
    return send(url, req)
  }

  const summary = await login()
  loggedIn = true
  const authed: Egress = Object.assign(Object.create(net) as Egress, { http })
  return { net: authed, summary, relogins: () => relogins }
}

/** The login form: fetched, filled and posted on the target's host; the answer (and check_url) must show a session. */
async function formLogin(a: FormLogin, s: FormLoginSession): Promise<string> {
  const { send, get, mine, markers, loginPath, jar } = s
  const page = await get(a.login_url)
  if (page.status >= 400) throw new AuthFailedError(`form login: the login page ${a.login_url} answered ${page.status}`)
  const userField = a.username_field ?? 'username'
  const passwordField = a.password_field ?? 'password'
  const form = loginForm(page.text(), passwordField)
  const action = new URL(form?.action || a.login_url, page.url)
  if (!mine(action)) throw new AuthFailedError(`form login: the login form posts to another host (${action.host}); nothing was sent`)
  const fields = new URLSearchParams()
  for (const [k, v] of form?.hidden ?? []) fields.set(k, v)
  for (const [k, v] of Object.entries(a.extra_fields ?? {})) fields.set(k, v)
  fields.set(userField, a.username)
  fields.set(passwordField, a.password)
  let res = await send(action.href, {
    method: 'POST',
    body: fields.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', referer: page.url },
    signal: s.signal,
    maxBodyBytes: 512 * 1024,
  })
  // The answer to the login POST redirects to the landing page: read it (on the session's host only).
  if (isRedirectStatus(res.status) && res.headers.location) {
    const next = new URL(res.headers.location, res.url)
    res = mine(next) ? await get(next.href) : res
  }
  const where = `form login to ${action.href}`
  if (res.status >= 400) throw new AuthFailedError(`${where} was rejected: ${res.status}`)
  let bad = markerProblem(markers, res)
  // Without markers: the same login form (its password field by name) shown again means rejected.
  if (!bad && !a.success_marker && loginForm(res.text(), passwordField)?.named) bad = 'showed the login form again'
  if (!bad && new URL(res.url).pathname === loginPath && res.url !== page.url && !a.success_marker) bad = 'came back to the login page'
  if (bad) throw new AuthFailedError(`${where} was rejected: the answer ${bad}`)
  if (a.check_url) {
    const c = await get(a.check_url)
    const problem =
      c.status === 401 || c.status === 403
        ? `answered ${c.status}`
        : new URL(c.url).pathname === loginPath
          ? 'led back to the login page'
          : markerProblem(markers, c)
    if (problem) throw new AuthFailedError(`${where} did not give a session: ${a.check_url} ${problem}`)
  }
  return `${where} succeeded (${jar.size} session cookie(s))`
}

/** What the form login needs of the session being built. */
interface FormLoginSession {
  send: (url: string, req: HttpRequest) => Promise<HttpResponse>
  get: (url: string) => Promise<HttpResponse>
  mine: (u: URL) => boolean
  markers: Markers
  loginPath: string | null
  jar: Map<string, string>
  signal: AbortSignal
}

/** One request with the session's credentials (no re-login, no logout guard); keeps the session's cookies. */
function sessionSender(net: Egress, auth: Authentication, jar: Map<string, string>, mine: (u: URL) => boolean) {
  let digest: DigestChallenge | null = null
  let nc = 0
  const absorb = (res: HttpResponse) => {
    if (mine(new URL(res.url)))
      for (const c of res.setCookies) setCookie(jar, c.split(';')[0]!, /;\s*max-age=0\b|;\s*expires=Thu, 01 Jan 1970/i.test(c))
  }
  return async (url: string, req: HttpRequest = {}): Promise<HttpResponse> => {
    const u = new URL(url)
    if (!mine(u)) return net.http(url, req)
    const headers: Record<string, string> = { ...req.headers }
    if (jar.size) headers.cookie = [...(headers.cookie ? [headers.cookie] : []), ...[...jar].map(([k, v]) => `${k}=${v}`)].join('; ')
    if (auth.type === 'basic') headers.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`
    if (auth.type === 'headers') for (const h of auth.headers) headers[h.name.toLowerCase()] = h.value
    const method = (req.method ?? 'GET').toUpperCase()
    if (auth.type === 'digest' && digest)
      headers.authorization = digestAuthorization(digest, auth.username, auth.password, method, u.pathname + u.search, ++nc)
    let res = await net.http(url, { ...req, headers })
    absorb(res)
    if (auth.type === 'digest' && res.status === 401) {
      const c = parseDigestChallenge(res.headers['www-authenticate'] ?? '')
      // A new challenge (first request, or a stale nonce): answer it once.
      if (c && (!digest || c.nonce !== digest.nonce)) {
        digest = c
        nc = 0
        res = await net.http(url, {
          ...req,
          headers: { ...headers, authorization: digestAuthorization(c, auth.username, auth.password, method, u.pathname + u.search, ++nc) },
        })
        absorb(res)
      }
    }
    return res
  }
}

/** GET with the session, following redirects on the session's own host, never to a URL that would end it. */
function sessionGetter(send: (url: string, req: HttpRequest) => Promise<HttpResponse>, mine: (u: URL) => boolean, signal: AbortSignal) {
  return async (url: string): Promise<HttpResponse> => {
    const req = { signal, maxBodyBytes: 512 * 1024 }
    const walk = await walkRedirects(
      { url, answer: await send(url, req) },
      {
        location: (r) => r.headers.location,
        status: (r) => r.status,
        allow: (next) => mine(next) && !SESSION_ENDING.test(next.pathname),
        fetch: (next) => send(next, req),
      },
    )
    if (walk.end === 'failed') throw walk.error
    return walk.answer
  }
}

/** The answer shows the session has ended: sent back to the login page, 401, or the failure marker. */
function sessionEnded(
  res: HttpResponse,
  requested: URL,
  s: { auth: Authentication; loginPath: string | null; markers: Markers; mine: (u: URL) => boolean },
): boolean {
  if (!s.mine(requested) || (s.loginPath && requested.pathname === s.loginPath)) return false
  if (s.auth.type === 'basic' || s.auth.type === 'digest') return false // credentials go with every request
  if (res.status === 401) return true
  if (s.loginPath && isRedirectStatus(res.status) && res.headers.location) {
    try {
      if (new URL(res.headers.location, res.url).pathname === s.loginPath) return true
    } catch {
      /* unparsable Location */
    }
  }
  return !!s.markers.failure && /html|text/i.test(res.headers['content-type'] ?? '') && s.markers.failure(res.text())
}

/** A body's problem with the markers: it holds the failure marker or lacks the success marker. */
function markerProblem(m: Markers, res: HttpResponse): string | null {
  const body = res.text()
  if (m.failure?.(body)) return 'holds the failure marker'
  if (m.success && !m.success(body)) return 'lacks the success marker'
  return null
}

interface Markers {
  success?: MarkerTest
  failure?: MarkerTest
}

/** Compiled once per scan: a marker is tested against every page. */
function compileMarkers(a: { success_marker?: string; failure_marker?: string }): Markers {
  return {
    success: a.success_marker ? markerTest(a.success_marker) : undefined,
    failure: a.failure_marker ? markerTest(a.failure_marker) : undefined,
  }
}

/** name=value into the jar (deleted when `expired`). */
function setCookie(jar: Map<string, string>, pair: string, expired = false) {
  const i = pair.indexOf('=')
  if (i <= 0) return
  const name = pair.slice(0, i).trim()
  if (expired) jar.delete(name)
  else jar.set(name, pair.slice(i + 1).trim())
}

/** The form holding the password field (else the first form with any password input): its action and hidden fields. */
function loginForm(html: string, passwordField: string): { action: string; hidden: [string, string][]; named: boolean } | null {
  let fallback: ReturnType<typeof loginForm> = null
  for (const f of htmlForms(html)) {
    const inputs = f.fields.filter((x) => x.tag === 'input')
    const hidden = inputs.filter((x) => x.type === 'hidden' && x.name).map((x) => [x.name!, x.value] as [string, string])
    const passwords = inputs.filter((x) => x.type === 'password')
    const action = f.attrs.action ?? ''
    if (passwords.some((x) => x.name === passwordField)) return { action, hidden, named: true }
    if (passwords.length && !fallback) fallback = { action, hidden, named: false }
  }
  return fallback
}
