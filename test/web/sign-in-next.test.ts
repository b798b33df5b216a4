// Where sign-in sends people back to (issue 25, fault 10): `next` is only ever a path of this site.
// Browsers drop tabs and newlines from URLs and read `\` as `/`, so `/\t/host` led to another host;
// `\n`, `\r` and `\v` made the redirect itself a 500 after the session was created.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import { startWard, type TestWard } from '../helpers/ward.js'
import { postSignIn, setPassword, PASSWORD } from '../helpers/web.js'

let w: TestWard
before(async () => {
  w = await startWard({ worker: false, env: { WARD_SIGNIN_LIMIT: '1000' } })
  await setPassword(w, w.userId)
})
after(() => w.close())

const HOSTILE = [
  '//evil.example/',
  '///evil.example/',
  '/\\evil.example/',
  '/\\/evil.example/',
  '\\\\evil.example/',
  '/%09/127.0.0.60:9710/phished',
  '/\t/127.0.0.60:9710/phished',
  '/%5C/evil.example/',
  '/%5c%5cevil.example/',
  '/%2F/evil.example/',
  '/%2f%2fevil.example',
  '%2F%2Fevil.example',
  '\t',
  '\n',
  '\r',
  '\v',
  '/\n',
  '/\r\nset-cookie: x=1',
  '/\v/evil.example',
  '/x\ty',
  '/ /evil.example',
  ' /x',
  '/%0d%0aset-cookie:%20x=1',
  '/%E2%80%A8/evil.example',
  '/\u2028/evil.example',
  '/€',
  '/%',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'https://evil.example/',
  'http://127.0.0.60:9710/phished',
  'HTTPS:evil.example',
  'evil.example',
  '',
  '/sign-in',
  '/%73ign-out',
]
const KEPT = ['/', '/targets', '/scans/12?tab=findings', '/findings?q=open%20ssh&risk=3', '/.\\x']

const sameOrigin = (loc: string) => {
  assert.match(loc, /^\/(?![/\\])[\x21-\x7e]*$/, `Location ${JSON.stringify(loc)} is a plain path`)
  assert.equal(new URL(loc, 'http://ward.test/').origin, 'http://ward.test', loc)
}

test('the sign-in POST sends every hostile `next` to / and never answers 500', async () => {
  // Four at a time: each sign-in is a scrypt verification.
  const answers: LightMyRequestResponse[] = []
  for (let i = 0; i < HOSTILE.length; i += 4)
    answers.push(...(await Promise.all(HOSTILE.slice(i, i + 4).map((next) => postSignIn(w, 'alice', PASSWORD, {}, { next })))))
  for (const [i, next] of HOSTILE.entries()) {
    const r = answers[i]!
    assert.equal(r.statusCode, 303, `${JSON.stringify(next)}: ${r.statusCode} ${r.body.slice(0, 200)}`)
    sameOrigin(String(r.headers.location))
    assert.equal(r.headers.location, '/', JSON.stringify(next))
  }
  for (const next of KEPT) {
    const r = await postSignIn(w, 'alice', PASSWORD, {}, { next })
    assert.equal(r.statusCode, 303)
    assert.equal(r.headers.location, next)
    sameOrigin(next)
  }
})

test('the sign-in form never carries a hostile `next`; a failed sign-in keeps only a safe one', async () => {
  for (const next of HOSTILE) {
    const r = await w.app.inject({ method: 'GET', url: `/sign-in?next=${encodeURIComponent(next)}` })
    assert.equal(r.statusCode, 200, JSON.stringify(next))
    assert.match(r.body, /<input type="hidden" name="next" value="\/">/, JSON.stringify(next))
  }
  for (const next of ['/\t/127.0.0.60:9710/phished', '/\n', '//evil.example/']) {
    const failed = await postSignIn(w, 'alice', 'wrong password!', {}, { next })
    assert.equal(failed.statusCode, 401)
    assert.match(failed.body, /<input type="hidden" name="next" value="\/">/, JSON.stringify(next))
  }
  // The attack of the issue as a link: the query parser turns %09 into a tab.
  const link = await w.app.inject({ method: 'GET', url: '/sign-in?next=/%09/127.0.0.60:9710/phished' })
  assert.match(link.body, /name="next" value="\/">/)
})

test('a page asked for without a session names itself as `next`, and only as a path', async () => {
  const r = await w.app.inject({ method: 'GET', url: '/findings?q=open%20ssh' })
  assert.equal(r.statusCode, 303)
  assert.equal(r.headers.location, `/sign-in?next=${encodeURIComponent('/findings?q=open%20ssh')}`)
  const dup = await w.app.inject({ method: 'GET', url: '//targets' })
  if (dup.statusCode === 303) assert.equal(dup.headers.location, '/sign-in?next=%2F')
})
