// Single sign-on settings: a missing or wrong WARD_OIDC_* (or WARD_PUBLIC_URL, WARD_PASSWORD_SIGNIN)
// stops start-up with one line naming the variable; so does a provider that discovery cannot use,
// in-process and as a real `ward serve` (exit 2). With WARD_PASSWORD_SIGNIN=off the web interface
// offers single sign-on only and refuses a password post, while `ward admin` still works.
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { ConfigError, loadConfig } from '../../src/config/config.js'
import { parseGroupRoles } from '../../src/config/oidc.js'
import { discoverOidc } from '../../src/web/oidc-client.js'
import { startWard, type TestWard } from '../helpers/ward.js'
import { CLIENT_ID, CLIENT_SECRET, startNotAProvider, startOidcProvider, type TestProvider } from '../testbed/oidc-provider.js'

// This file's loopback addresses (the single sign-on bed, 127.0.115.x).
const IDP = '127.0.115.11'
const NOT_IDP = '127.0.115.12'
const BIN = path.resolve(import.meta.dirname, '../../bin/ward.js')

const SSO = {
  WARD_PUBLIC_URL: 'https://ward.example.test',
  WARD_OIDC_ISSUER: 'https://idp.example.test/realms/main',
  WARD_OIDC_CLIENT_ID: 'ward',
  WARD_OIDC_CLIENT_SECRET: 's3cret',
}
const refused = (env: Record<string, string>, re: RegExp) =>
  assert.throws(
    () => loadConfig(env),
    (e: Error) => e instanceof ConfigError && re.test(e.message),
  )

test('the settings are read, with their defaults, and the callback URL derives from WARD_PUBLIC_URL', () => {
  const c = loadConfig({ ...SSO, WARD_PUBLIC_URL: 'https://ward.example.test/' })
  assert.equal(c.oidc!.issuer.href, 'https://idp.example.test/realms/main')
  assert.equal(c.oidc!.callbackUrl, 'https://ward.example.test/sign-in/oidc/callback')
  assert.deepEqual(
    [c.oidc!.scopes, c.oidc!.groupsClaim, c.oidc!.nameClaim, c.oidc!.groupRoles],
    ['openid profile email', 'groups', 'preferred_username', null],
  )
  assert.equal(c.passwordSignIn, true)
  assert.equal(loadConfig({}).oidc, null)
  assert.deepEqual(parseGroupRoles(' secops:Production:member, auditors:*:viewer,cn=x:y:Blue team:owner'), [
    { group: 'secops', workspace: 'Production', role: 'member' },
    { group: 'auditors', workspace: '*', role: 'viewer' },
    { group: 'cn=x:y', workspace: 'Blue team', role: 'owner' },
  ])
})

test('a missing or wrong setting names its variable', () => {
  const { WARD_OIDC_CLIENT_ID: _id, ...noId } = SSO
  refused(noId, /^WARD_OIDC_CLIENT_ID: must be set/)
  const { WARD_OIDC_CLIENT_SECRET: _s, ...noSecret } = SSO
  refused(noSecret, /^WARD_OIDC_CLIENT_SECRET: must be set/)
  const { WARD_PUBLIC_URL: _u, ...noPublic } = SSO
  refused(noPublic, /^WARD_PUBLIC_URL: must be set for single sign-on/)
  refused({ WARD_OIDC_CLIENT_ID: 'ward' }, /^WARD_OIDC_ISSUER: must be set when WARD_OIDC_CLIENT_ID is/)
  refused(
    { ...SSO, WARD_OIDC_ISSUER: 'http://idp.example.test' },
    /^WARD_OIDC_ISSUER: must be an https:\/\/ URL \(http:\/\/ only on loopback\)/,
  )
  refused({ ...SSO, WARD_OIDC_ISSUER: 'not a url' }, /^WARD_OIDC_ISSUER: not a valid URL/)
  refused({ ...SSO, WARD_PUBLIC_URL: 'ftp://ward' }, /^WARD_PUBLIC_URL: must be an https:\/\/ URL/)
  refused({ ...SSO, WARD_OIDC_SCOPES: 'profile email' }, /^WARD_OIDC_SCOPES: must include openid/)
  refused({ ...SSO, WARD_OIDC_GROUPS_CLAIM: 'a b' }, /^WARD_OIDC_GROUPS_CLAIM: must be a claim name/)
  refused(
    { ...SSO, WARD_OIDC_GROUP_ROLES: 'secops:Production:admin' },
    /^WARD_OIDC_GROUP_ROLES: "secops:Production:admin": the role must be one of/,
  )
  refused({ ...SSO, WARD_OIDC_GROUP_ROLES: 'secops:member' }, /^WARD_OIDC_GROUP_ROLES: "secops:member" is not group:workspace:role/)
  refused({ WARD_PASSWORD_SIGNIN: 'off' }, /^WARD_PASSWORD_SIGNIN: off needs single sign-on/)
  refused({ ...SSO, WARD_PASSWORD_SIGNIN: 'no' }, /^WARD_PASSWORD_SIGNIN: must be on or off/)
  assert.equal(loadConfig({ ...SSO, WARD_OIDC_ISSUER: 'http://127.0.115.9:8080' }).oidc!.issuer.protocol, 'http:')
})

describe('discovery at start', () => {
  let notIdp: { url: string; close(): Promise<void> }
  let wrongIssuer: { url: string; close(): Promise<void> }
  before(async () => {
    notIdp = await startNotAProvider(NOT_IDP, 404, '{}')
    wrongIssuer = await startNotAProvider(NOT_IDP, 200, JSON.stringify({ issuer: 'https://someone-else.example.test' }))
  })
  after(async () => {
    await notIdp.close()
    await wrongIssuer.close()
  })

  const env = (issuer: string) => ({ ...SSO, WARD_PUBLIC_URL: 'http://127.0.0.1:1', WARD_OIDC_ISSUER: issuer })

  test('a provider that does not answer discovery, or names another issuer, stops start-up naming WARD_OIDC_ISSUER', async () => {
    await assert.rejects(
      discoverOidc(loadConfig(env(notIdp.url)).oidc!),
      (e: Error) =>
        e instanceof ConfigError &&
        e.message.startsWith(`WARD_OIDC_ISSUER: discovery at ${notIdp.url}/.well-known/openid-configuration failed`),
    )
    await assert.rejects(
      discoverOidc(loadConfig(env(wrongIssuer.url)).oidc!),
      (e: Error) => e instanceof ConfigError && /^WARD_OIDC_ISSUER: discovery at .* failed: .*issuer/.test(e.message),
    )
  })

  test('`ward serve` says so in one line and exits 2; `ward admin` does not need the provider', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], {
        env: {
          ...process.env,
          ...env(notIdp.url),
          WARD_DATABASE_URL: 'sqlite::memory:',
          HOST: '127.0.0.1',
          PORT: '0',
          WARD_PASSWORD_SIGNIN: 'off',
        },
        encoding: 'utf8',
        timeout: 60000,
      })
    const serve = run(['serve'])
    assert.equal(serve.status, 2, serve.stderr)
    assert.match(
      serve.stderr,
      /^ward: configuration error: WARD_OIDC_ISSUER: discovery at http:\/\/127\.0\.115\.12:\d+\/\.well-known\/openid-configuration failed/m,
    )
    const admin = run(['admin', 'user', 'list'])
    assert.equal(admin.status, 0, admin.stderr)
  })
})

describe('WARD_PASSWORD_SIGNIN=off', () => {
  let idp: TestProvider
  let w: TestWard
  before(async () => {
    idp = await startOidcProvider(IDP, ['http://127.0.0.1:1/sign-in/oidc/callback'])
    w = await startWard({
      worker: false,
      env: {
        WARD_PUBLIC_URL: 'http://127.0.0.1:1',
        WARD_OIDC_ISSUER: idp.issuer,
        WARD_OIDC_CLIENT_ID: CLIENT_ID,
        WARD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
        WARD_PASSWORD_SIGNIN: 'off',
      },
    })
  })
  after(async () => {
    await w?.close()
    await idp?.close()
  })

  test('the sign-in page offers single sign-on only, and a password post is refused with a clear message', async () => {
    const page = await w.app.inject({ method: 'GET', url: '/sign-in?next=/targets' })
    assert.equal(page.statusCode, 200)
    assert.doesNotMatch(page.body, /name="password"/)
    assert.match(page.body, /href="\/sign-in\/oidc\?next=%2Ftargets"/)
    const before = await w.h.db.selectFrom('web_sessions').select('id_hash').execute()
    const r = await w.app.inject({
      method: 'POST',
      url: '/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=alice&password=whatever-password',
    })
    assert.equal(r.statusCode, 403)
    assert.match(r.body, /Password sign-in is turned off on this Ward \(WARD_PASSWORD_SIGNIN=off\)/)
    assert.equal((await w.h.db.selectFrom('web_sessions').select('id_hash').execute()).length, before.length)
    assert.equal((await w.app.inject({ method: 'GET', url: '/set-password/whatever' })).statusCode, 403)
  })

  test('the SSO link sends the browser to the provider with PKCE (S256), state and nonce', async () => {
    const r = await w.app.inject({ method: 'GET', url: '/sign-in/oidc?next=/targets' })
    assert.equal(r.statusCode, 303)
    const to = new URL(String(r.headers.location))
    assert.equal(to.origin, idp.issuer)
    for (const p of ['state', 'nonce', 'code_challenge']) assert.ok((to.searchParams.get(p) ?? '').length >= 40, p)
    assert.equal(to.searchParams.get('code_challenge_method'), 'S256')
    assert.equal(to.searchParams.get('redirect_uri'), 'http://127.0.0.1:1/sign-in/oidc/callback')
    const cookie = r.cookies.find((c) => c.name === 'ward_oidc')!
    assert.equal(cookie.httpOnly, true)
    assert.equal(cookie.path, '/sign-in/oidc')
  })
})
