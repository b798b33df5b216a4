// Authenticated scans (tool_params.authentication) of the website scanner and the URL fuzzer against
// the beds of test/testbed/auth-sites.ts on 127.0.36.20: each kind of login, a session that ends and
// is renewed, links that would end the session never requested, rejected credentials → auth failed.
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { runTool } from '../../helpers/tool-harness.js'
import { websiteScanner } from '../../../src/tools/website-scanner/run.js'
import { urlFuzzer } from '../../../src/tools/url-fuzzer/run.js'
import { AuthFailedError } from '../../../src/toolkit/errors.js'
import { resolveToolParams } from '../../../src/toolkit/params.js'
import { digestAuthorization, parseDigestChallenge } from '../../../src/tools/lib/http/auth/digest.js'
import { startBasicSite, startDigestSite, startFormSite, startTokenSite, USER, type AuthBed } from '../../testbed/auth-sites.js'

const HOST = '127.0.36.20'
const PASSWORD = 'Pw-7f3a9c1e-unique'
let form: AuthBed, basic: AuthBed, digest: AuthBed, bearer: AuthBed, cookie: AuthBed

before(async () => {
  form = await startFormSite(HOST, PASSWORD, 25)
  basic = await startBasicSite(HOST, PASSWORD)
  digest = await startDigestSite(HOST, PASSWORD)
  bearer = await startTokenSite(HOST, PASSWORD, 'bearer')
  cookie = await startTokenSite(HOST, PASSWORD, 'cookie')
})
after(async () => {
  for (const b of [form, basic, digest, bearer, cookie]) await b?.close()
})

const formAuth = (password: string) => ({
  type: 'form',
  login_url: `${form.url}login`,
  username: USER,
  password,
  failure_marker: 'Invalid credentials',
})
const authTest = (r: Awaited<ReturnType<typeof runTool>>) => r.tests.find((t) => t.name === 'Authentication')

describe('website scanner', () => {
  test('form login: the deep scan reaches the logged-in pages, finds the flaw only they have, logs in again when the session ends, never logs out', async () => {
    const r = await runTool(websiteScanner, { target: form.url, params: { scan_type: 'deep', authentication: formAuth(PASSWORD) } })
    assert.equal(r.error, undefined, r.error?.stack)
    assert.equal(authTest(r)?.status, 'finished')
    const xss = r.findings.find((f) => f.check.id === 'website.injection.xss-reflected')
    assert.ok(xss, `the logged-in XSS was found: ${r.findings.map((f) => f.check.id).join(', ')}`)
    assert.match(xss.url ?? '', /\/account\/orders$/)
    assert.equal(form.hits('/logout'), 0, 'the logout link was never requested')
    assert.equal(form.hits('/account/delete'), 0, 'the delete link was never requested')
    assert.equal(form.hits('/account/password'), 0, 'the password-change form was never submitted')
    assert.ok(form.logins() >= 2, `sessions of 25 requests were renewed: ${form.logins()} logins`)
    assert.ok(
      r.logs.some((l) => /session ended .* logging in again/.test(l)),
      'the re-login is logged',
    )
    assert.ok(!JSON.stringify(r).includes(PASSWORD), 'the password appears in no finding, test, log or output')
  })

  test('form login with a wrong password ends auth failed, with a clear message and no secret', async () => {
    const wrong = 'Wrong-pw-0b5e77'
    const r = await runTool(websiteScanner, { target: form.url, params: { scan_type: 'light', authentication: formAuth(wrong) } })
    assert.ok(r.error instanceof AuthFailedError, `error: ${r.error}`)
    assert.match(r.error.message, /^form login to http:\/\/127\.0\.36\.20:\d+\/login was rejected: the answer holds the failure marker/)
    assert.equal(authTest(r)?.status, 'error')
    assert.equal(r.findings.length, 0)
    assert.ok(!JSON.stringify({ r, m: r.error.message }).includes(wrong))
  })

  for (const kind of ['basic', 'digest', 'headers', 'cookie'] as const) {
    test(`${kind}: accepted credentials scan the protected site; rejected ones end auth failed`, async () => {
      const bed = { basic, digest, headers: bearer, cookie }[kind]
      const auth = (secret: string) =>
        kind === 'headers'
          ? { type: 'headers', headers: [{ name: 'Authorization', value: `Bearer ${secret}` }] }
          : kind === 'cookie'
            ? { type: 'cookie', cookie: `sid=${secret}` }
            : { type: kind, username: USER, password: secret }
      const ok = await runTool(websiteScanner, { target: bed.url, params: { scan_type: 'light', authentication: auth(PASSWORD) } })
      assert.equal(ok.error, undefined, ok.error?.stack)
      assert.equal(authTest(ok)?.status, 'finished')
      assert.ok(!JSON.stringify(ok).includes(PASSWORD))
      const bad = await runTool(websiteScanner, { target: bed.url, params: { scan_type: 'light', authentication: auth('nope-nope') } })
      assert.ok(bad.error instanceof AuthFailedError, `${kind}: ${bad.error}`)
      assert.match(bad.error.message, /401 Unauthorized with the credentials/)
    })
  }
})

describe('URL fuzzer', () => {
  test('form login: finds pages only a session sees; a wordlist entry that would log out is not requested', async () => {
    const before = form.hits('/logout')
    const r = await runTool(urlFuzzer, {
      target: form.url,
      params: { wordlist: ['account', 'account/profile', 'logout', 'nothing-here'], rate_limit: 1000, authentication: formAuth(PASSWORD) },
    })
    assert.equal(r.error, undefined, r.error?.stack)
    const urls = (r.output.urls as { url: string }[]).map((u) => new URL(u.url).pathname).sort()
    assert.deepEqual(urls, ['/account', '/account/profile'])
    assert.equal(form.hits('/logout'), before, 'logout not requested')
  })

  test('a rejected login ends auth failed before any fuzzing', async () => {
    const r = await runTool(urlFuzzer, {
      target: basic.url,
      params: { wordlist: ['a', 'b'], authentication: { type: 'basic', username: USER, password: 'bad' } },
    })
    assert.ok(r.error instanceof AuthFailedError, String(r.error))
    assert.ok(!r.tests.some((t) => t.name !== 'Authentication' && t.status === 'finished'), 'nothing else ran')
  })
})

test('parameters: each kind validates; unknown kinds and missing credentials are refused', () => {
  for (const a of [
    formAuth('x'),
    { type: 'basic', username: 'u', password: 'p' },
    { type: 'digest', username: 'u', password: 'p' },
    { type: 'cookie', cookie: 'a=b' },
    { type: 'headers', headers: [{ name: 'X-Api-Key', value: 'k' }] },
  ]) {
    assert.equal(resolveToolParams(websiteScanner.params, { authentication: a }).ok, true, JSON.stringify(a))
    assert.equal(resolveToolParams(urlFuzzer.params, { authentication: a }).ok, true, JSON.stringify(a))
  }
  for (const a of [
    { type: 'ntlm', username: 'u', password: 'p' },
    { type: 'basic', username: 'u' },
    { type: 'form', username: 'u', password: 'p' },
    { type: 'headers', headers: [{ name: 'bad name', value: 'v' }] },
  ]) {
    assert.equal(resolveToolParams(websiteScanner.params, { authentication: a }).ok, false, JSON.stringify(a))
  }
})

test('digest: RFC 7616 example (MD5, qop=auth) gives the RFC response', () => {
  const c = parseDigestChallenge(
    'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
  )!
  const h = digestAuthorization(c, 'Mufasa', 'Circle of Life', 'GET', '/dir/index.html', 1)
  // The cnonce is random, so recompute the expected response with the header's own cnonce.
  const cnonce = /cnonce="([^"]+)"/.exec(h)![1]!
  const md5 = (s: string) => createHash('md5').update(s).digest('hex')
  const expected = md5(
    `${md5('Mufasa:http-auth@example.org:Circle of Life')}:${c.nonce}:00000001:${cnonce}:auth:${md5('GET:/dir/index.html')}`,
  )
  assert.match(h, new RegExp(`response="${expected}"`))
  assert.match(h, /qop=auth, nc=00000001/)
  assert.match(h, /opaque="FQhe/)
})
