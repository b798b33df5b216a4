// The one-time set-password link (issue 25, fault 9): its form carries a token bound to a cookie the
// GET sets (double submit) and refuses a post from another site, so a page elsewhere cannot sign a
// visitor's browser in to the link holder's account (login CSRF). A refused post changes nothing:
// no password, no session, and the link still works.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import { startWard, type TestWard } from '../helpers/ward.js'
import { cookieOf } from '../helpers/web.js'
import { createPasswordLink } from '../../src/store/web-sessions.js'
import { redactSecretPath } from '../../src/web/secret-paths.js'

let w: TestWard
before(async () => (w = await startWard({ worker: false })))
after(() => w.close())

const PW = 'a long enough password'
const form = (r: LightMyRequestResponse) => ({
  token: /name="_csrf" value="([^"]+)"/.exec(r.body)?.[1] ?? '',
  cookie: cookieOf(r, 'ward_set_password'),
})
const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  w.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'ward.test', ...headers },
    payload: new URLSearchParams(fields).toString(),
  })

async function unchanged(userId: number, url: string) {
  const u = await w.h.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()
  assert.equal(u.password_hash, null, 'no password was set')
  const sessions = await w.h.db.selectFrom('web_sessions').select('user_id').where('user_id', '=', userId).execute()
  assert.equal(sessions.length, 0, 'no session was created')
  assert.equal((await w.app.inject({ method: 'GET', url })).statusCode, 200, 'the link still works')
}

test('the set-password form carries a token bound to a cookie of its own path', async () => {
  const u = await w.user('ivy')
  const url = `/set-password/${await createPasswordLink(w.h.db, u.userId, 60000)}`
  const r = await w.app.inject({ method: 'GET', url })
  assert.equal(r.statusCode, 200)
  const c = r.cookies.find((c) => c.name === 'ward_set_password')!
  assert.equal(c.path, '/set-password/')
  assert.equal(c.httpOnly, true)
  assert.equal(c.sameSite, 'Lax')
  assert.equal(form(r).token, c.value)
})

test('a post from another site, or without the form token, is refused and changes nothing', async () => {
  const u = await w.user('jack')
  const url = `/set-password/${await createPasswordLink(w.h.db, u.userId, 60000)}`
  const f = form(await w.app.inject({ method: 'GET', url }))
  const pw = { password: PW, password2: PW }
  const attempts: Array<[string, Record<string, string>, Record<string, string>]> = [
    // The login CSRF of the issue: a page elsewhere posts the link holder's form, no token.
    ['foreign Origin, no token', pw, { origin: 'http://evil.example' }],
    ['foreign Origin with the token', { ...pw, _csrf: f.token }, { origin: 'http://evil.example', cookie: f.cookie }],
    ['foreign Referer with the token', { ...pw, _csrf: f.token }, { referer: 'http://evil.example/page', cookie: f.cookie }],
    ['no token at all', pw, {}],
    ['the token without its cookie', { ...pw, _csrf: f.token }, {}],
    ['the cookie without the token', pw, { cookie: f.cookie }],
    ['a token of another form', { ...pw, _csrf: 'x'.repeat(f.token.length) }, { cookie: f.cookie }],
  ]
  for (const [what, fields, headers] of attempts) {
    const r = await post(url, fields, headers)
    assert.equal(r.statusCode, 403, `${what}: ${r.statusCode}`)
    assert.equal(cookieOf(r, 'ward_session'), '', what)
    await unchanged(u.userId, url)
  }
  // The same form from this site: the password is set and the browser signed in.
  const ok = await post(url, { ...pw, _csrf: f.token }, { origin: 'http://ward.test', referer: `http://ward.test${url}`, cookie: f.cookie })
  assert.equal(ok.statusCode, 303, ok.body)
  assert.equal(ok.headers.location, '/profile')
  assert.ok(cookieOf(ok, 'ward_session'))
  assert.equal((await w.app.inject({ method: 'GET', url })).statusCode, 404, 'used up')
})

test('a refused password keeps the form usable with a fresh token', async () => {
  const u = await w.user('kim')
  const url = `/set-password/${await createPasswordLink(w.h.db, u.userId, 60000)}`
  const f = form(await w.app.inject({ method: 'GET', url }))
  const short = await post(url, { password: 'short', password2: 'short', _csrf: f.token }, { cookie: f.cookie })
  assert.equal(short.statusCode, 400)
  await unchanged(u.userId, url)
  const again = form(short)
  assert.ok(again.token && again.cookie && again.token !== f.token)
  const ok = await post(url, { password: PW, password2: PW, _csrf: again.token }, { cookie: again.cookie })
  assert.equal(ok.statusCode, 303, ok.body)
})

test('the request log never shows a set-password path as it is, in any spelling the router takes', () => {
  for (const url of [
    '/set-password/abc',
    '//set-password/abc',
    '/set-password/abc?x=1',
    '/SET-PASSWORD/abc',
    '/set%2Dpassword/abc',
    '/set-password',
  ])
    assert.equal(redactSecretPath(url), '/set-password/[redacted]', url)
  for (const url of ['/sign-in?next=%2Ftargets', '/profile', '/set-passwords-help']) assert.equal(redactSecretPath(url), url)
})
