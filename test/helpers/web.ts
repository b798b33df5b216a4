// Signing in to the web interface of a test Ward with inject: a password for a user, a session
// cookie and the session's CSRF token, and requests that carry them.
import type { LightMyRequestResponse } from 'fastify'
import { hashPassword } from '../../src/domain/passwords.js'
import { createSession, setPasswordHash } from '../../src/store/web-sessions.js'
import type { TestWard } from './ward.js'

export const PASSWORD = 'correct horse battery'

export interface WebSession {
  cookie: string
  csrf: string
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>
  post(url: string, form?: Record<string, string>, headers?: Record<string, string>): Promise<LightMyRequestResponse>
}

export const cookieOf = (r: LightMyRequestResponse, name: string) => {
  const c = r.cookies.find((c) => c.name === name)
  return c ? `${name}=${c.value}` : ''
}

/** The sign-in form's token and its cookie. */
export async function signInForm(w: TestWard) {
  const r = await w.app.inject({ method: 'GET', url: '/sign-in' })
  const token = /name="_csrf" value="([^"]+)"/.exec(r.body)![1]!
  return { token, cookie: cookieOf(r, 'ward_signin') }
}

export async function postSignIn(
  w: TestWard,
  name: string,
  password: string,
  headers: Record<string, string> = {},
  more: Record<string, string> = {},
) {
  const f = await signInForm(w)
  return w.app.inject({
    method: 'POST',
    url: '/sign-in',
    headers: { cookie: f.cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams({ _csrf: f.token, name, password, ...more }).toString(),
  })
}

export async function setPassword(w: TestWard, userId: number, password = PASSWORD) {
  await setPasswordHash(w.h.db, userId, await hashPassword(password))
}

export async function signIn(w: TestWard, name = 'alice', password = PASSWORD): Promise<WebSession> {
  const r = await postSignIn(w, name, password)
  if (r.statusCode !== 303) throw new Error(`sign-in failed: ${r.statusCode} ${r.body.slice(0, 300)}`)
  const cookie = cookieOf(r, 'ward_session')
  const home = await w.app.inject({ method: 'GET', url: '/profile', headers: { cookie } })
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(home.body)![1]!
  return webSession(w, cookie, csrf)
}

/**
 * A session of `userId` made in the database, without a password (scrypt costs a core for a while):
 * for tests of what a signed-in user may do, not of signing in.
 */
export async function sessionOf(w: TestWard, userId: number): Promise<WebSession> {
  const s = await createSession(w.h.db, userId, 3_600_000)
  return webSession(w, `ward_session=${s.id}`, s.csrf)
}

function webSession(w: TestWard, cookie: string, csrf: string): WebSession {
  return {
    cookie,
    csrf,
    get: (url, headers = {}) => w.app.inject({ method: 'GET', url, headers: { cookie, ...headers } }),
    post: (url, form = {}, headers = {}) =>
      w.app.inject({
        method: 'POST',
        url,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: new URLSearchParams({ _csrf: csrf, ...form }).toString(),
      }),
  }
}
