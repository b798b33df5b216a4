// Sign-in for people: scrypt passwords, session cookies (HttpOnly, SameSite=Lax, Secure behind TLS),
// CSRF on every state change, a strict CSP on pages only, rate-limited and logged failures, sign out;
// a session never opens the API and an API key never opens a page.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../helpers/ward.js'
import { PASSWORD, cookieOf, postSignIn, setPassword, signIn, signInForm } from '../helpers/web.js'
import { hashPassword, verifyPassword } from '../../src/domain/passwords.js'
import { createPasswordLink } from '../../src/store/web-sessions.js'

let w: TestWard
before(async () => {
  w = await startWard({ worker: false, env: { WARD_SIGNIN_LIMIT: '5' } })
  await setPassword(w, w.userId)
})
after(() => w.close())

test('passwords are stored as salted scrypt hashes and verified only by the right password', async () => {
  const a = await hashPassword('s3cret-password')
  const b = await hashPassword('s3cret-password')
  assert.match(a, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
  assert.notEqual(a, b, 'a fresh salt each time')
  assert.equal(await verifyPassword('s3cret-password', a), true)
  assert.equal(await verifyPassword('s3cret-passworD', a), false)
  assert.equal(await verifyPassword('anything', null), false)
  const row = await w.h.db.selectFrom('users').select('password_hash').where('id', '=', w.userId).executeTakeFirstOrThrow()
  assert.ok(row.password_hash?.startsWith('scrypt$') && !row.password_hash.includes(PASSWORD))
})

test('pages need a session: / sends a visitor to the sign-in page, which names where to return', async () => {
  const r = await w.app.inject({ method: 'GET', url: '/targets' })
  assert.equal(r.statusCode, 303)
  assert.equal(r.headers.location, '/sign-in?next=%2Ftargets')
  const htmx = await w.app.inject({ method: 'GET', url: '/scans/1/progress', headers: { 'hx-request': 'true' } })
  assert.equal(htmx.statusCode, 401)
  assert.match(String(htmx.headers['hx-redirect']), /^\/sign-in/)
})

test('signing in sets an HttpOnly SameSite=Lax session cookie (Secure only behind TLS) and returns to the page asked for', async () => {
  const r = await postSignIn(w, 'ALICE', PASSWORD, {}, { next: '/findings' })
  assert.equal(r.statusCode, 303)
  assert.equal(r.headers.location, '/findings')
  const c = r.cookies.find((c) => c.name === 'ward_session')!
  assert.equal(c.httpOnly, true)
  assert.equal(c.sameSite, 'Lax')
  assert.equal(c.secure, undefined)
  const tls = await postSignIn(w, 'alice', PASSWORD, { 'x-forwarded-proto': 'https' })
  assert.equal(tls.cookies.find((c) => c.name === 'ward_session')!.secure, true)
  // An absolute "next" never leaves the site.
  const away = await postSignIn(w, 'alice', PASSWORD, {}, { next: '//evil.example/' })
  assert.equal(away.headers.location, '/')
})

test('a wrong password or an unknown user is refused with the same message and no session', async () => {
  const bad = await postSignIn(w, 'alice', 'wrong password!!')
  const unknown = await postSignIn(w, 'nobody', PASSWORD)
  assert.equal(bad.statusCode, 401)
  assert.equal(unknown.statusCode, 401)
  for (const r of [bad, unknown]) assert.match(r.body, /Wrong user name or password/)
  assert.equal(
    bad.cookies.find((c) => c.name === 'ward_session'),
    undefined,
  )
})

test('sign-in attempts are rate limited per user name', async () => {
  const u = await w.user('carol')
  await setPassword(w, u.userId)
  const codes: number[] = []
  for (let i = 0; i < 6; i++) codes.push((await postSignIn(w, 'carol', 'wrong password ' + i)).statusCode)
  assert.deepEqual(codes, [401, 401, 401, 401, 401, 429])
  const right = await postSignIn(w, 'carol', PASSWORD)
  assert.equal(right.statusCode, 429, 'even the right password waits for the window')
  assert.match(right.body, /Too many sign-in attempts/)
  assert.ok(Number(right.headers['retry-after']) > 0)
})

test('the sign-in form itself is CSRF-protected (its token must match its cookie)', async () => {
  const f = await signInForm(w)
  const r = await w.app.inject({
    method: 'POST',
    url: '/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: f.token, name: 'alice', password: PASSWORD }).toString(),
  })
  assert.equal(r.statusCode, 403)
})

test('every state change needs the session CSRF token (form field or htmx header) and a same-site origin', async () => {
  const s = await signIn(w)
  const noToken = await w.app.inject({
    method: 'POST',
    url: '/workspaces',
    headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'name=Sneaky',
  })
  assert.equal(noToken.statusCode, 403)
  const wrong = await w.app.inject({
    method: 'POST',
    url: '/workspaces',
    headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `name=Sneaky&_csrf=${'x'.repeat(s.csrf.length)}`,
  })
  assert.equal(wrong.statusCode, 403)
  const cross = await s.post('/workspaces', { name: 'Sneaky' }, { origin: 'http://evil.example', host: 'localhost:80' })
  assert.equal(cross.statusCode, 403)
  const names = (await w.h.db.selectFrom('workspaces').select('name').execute()).map((r) => r.name)
  assert.ok(!names.includes('Sneaky'), 'nothing was created')
  const header = await w.app.inject({
    method: 'POST',
    url: '/workspaces',
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'name=Via+header',
  })
  assert.equal(header.statusCode, 303)
})

test('pages carry a strict CSP and no inline script; API answers keep their headers', async () => {
  const s = await signIn(w)
  for (const url of ['/', '/sign-in', '/profile', '/scans/new']) {
    const r = await (url === '/sign-in' ? w.app.inject({ method: 'GET', url }) : s.get(url))
    assert.equal(r.statusCode, 200, url)
    const csp = String(r.headers['content-security-policy'])
    assert.match(csp, /script-src 'self'/)
    assert.match(csp, /default-src 'none'/)
    assert.match(csp, /frame-ancestors 'none'/)
    assert.doesNotMatch(r.body, /<script(?![^>]*\ssrc=)[^>]*>/, `${url}: every script is a file`)
    assert.doesNotMatch(r.body, /\sstyle=|\son[a-z]+=/i, `${url}: no inline styles or handlers`)
    assert.equal(r.headers['x-content-type-options'], 'nosniff')
  }
  const api = await w.req('GET', '/api/v2/targets')
  assert.equal(api.headers['content-security-policy'], undefined)
  assert.equal(api.headers['content-type'], 'application/json')
  const missing = await w.req('GET', '/api/v2/nothing-here')
  assert.deepEqual(missing.json(), { status: 404, message: 'Route GET /api/v2/nothing-here does not exist' })
})

test('assets come from Ward itself with long cache headers', async () => {
  const s = await signIn(w)
  const home = (await s.get('/')).body
  const srcs = [...home.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'))
  assert.ok(
    srcs.some((x) => x.includes('htmx.min.js')) &&
      srcs.some((x) => x.includes('uPlot.iife.min.js')) &&
      srcs.some((x) => x.includes('ward.css')),
  )
  for (const src of srcs) {
    const r = await w.app.inject({ method: 'GET', url: src })
    assert.equal(r.statusCode, 200, src)
    assert.match(String(r.headers['cache-control']), /max-age=31536000/)
  }
  assert.doesNotMatch(home, /https?:\/\/(?!127\.|localhost)[^"']*\.(js|css)/, 'nothing from a CDN')
})

test('a session never grants API access, and an API key never opens a page', async () => {
  const s = await signIn(w)
  const api = await w.app.inject({ method: 'GET', url: '/api/v2/targets', headers: { cookie: s.cookie } })
  assert.equal(api.statusCode, 401)
  const page = await w.app.inject({ method: 'GET', url: '/', headers: { authorization: `Bearer ${w.key}` } })
  assert.equal(page.statusCode, 303)
  assert.equal(page.headers.location, '/sign-in?next=%2F')
  // Not even as a cookie value.
  const asCookie = await w.app.inject({ method: 'GET', url: '/', headers: { cookie: `ward_session=${w.key}` } })
  assert.equal(asCookie.statusCode, 303)
})

test('signing out ends the session at once', async () => {
  const s = await signIn(w)
  assert.equal((await s.get('/')).statusCode, 200)
  const out = await s.post('/sign-out')
  assert.equal(out.statusCode, 303)
  assert.equal(out.headers.location, '/sign-in')
  assert.equal((await s.get('/')).statusCode, 303)
})

test('a set-password link works once, sets a password and signs in', async () => {
  const u = await w.user('dora')
  const token = await createPasswordLink(w.h.db, u.userId, 60000)
  const form = await w.app.inject({ method: 'GET', url: `/set-password/${token}` })
  assert.equal(form.statusCode, 200)
  assert.match(form.body, /Set a password for dora/)
  // The form's own token and cookie (double submit, test/web/set-password.test.ts).
  const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!
  const headers = { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieOf(form, 'ward_set_password') }
  const short = await w.app.inject({
    method: 'POST',
    url: `/set-password/${token}`,
    headers,
    payload: `password=short&password2=short&_csrf=${csrf}`,
  })
  assert.equal(short.statusCode, 400)
  const pw = 'dora has a long password'
  const r = await w.app.inject({
    method: 'POST',
    url: `/set-password/${token}`,
    headers,
    payload: new URLSearchParams({ password: pw, password2: pw, _csrf: csrf }).toString(),
  })
  assert.equal(r.statusCode, 303)
  assert.ok(cookieOf(r, 'ward_session'))
  assert.equal((await w.app.inject({ method: 'GET', url: `/set-password/${token}` })).statusCode, 404, 'used up')
  assert.equal((await postSignIn(w, 'dora', pw)).statusCode, 303)
})
