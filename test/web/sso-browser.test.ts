// Single sign-on end to end in a real browser (Debian's chromium through playwright-core) against a
// real OpenID Connect provider started here (test/testbed/oidc-provider.ts): a person in `secops`
// signs in and lands as a member of Production; their groups change and so do their memberships at the
// next sign-in; a bad state, a refusal by the provider and an answer naming an issuer Ward does not
// trust each give a 4xx page, no session and one audit entry.
// WARD_UI_SCREENSHOTS=docs/ui saves the sign-in page with its SSO button there. ward-test: single-run
// (one browser pass: the identities and memberships on PostgreSQL are test/store/sso-memberships.test.ts and test/web/sso-config.test.ts).
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { startWard, type TestWard } from '../helpers/ward.js'
import { browserSkip, launchBrowser } from '../helpers/browser.js'
import { CLIENT_ID, CLIENT_SECRET, freePort, startForeignIssuer, startOidcProvider, type TestProvider } from '../testbed/oidc-provider.js'

// This file's loopback addresses (the single sign-on bed, 127.0.115.x).
const IDP = '127.0.115.1'
const WARD = '127.0.115.2'
const FOREIGN = '127.0.115.3'
const WARD_B = '127.0.115.4'

const skip = browserSkip()
if (skip) console.log(`browser tests skipped: ${skip}`)

let idp: TestProvider
let foreign: { issuer: string; close(): Promise<void> }
let w: TestWard
let wb: TestWard
let base: string
let baseB: string
let productionId: number
const browsers: BrowserContext[] = []

const ssoEnv = (publicUrl: string, issuer: string) => ({
  WARD_PUBLIC_URL: publicUrl,
  WARD_OIDC_ISSUER: issuer,
  WARD_OIDC_CLIENT_ID: CLIENT_ID,
  WARD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
  WARD_OIDC_SCOPES: 'openid profile groups',
  WARD_OIDC_GROUP_ROLES: 'secops:Production:member,auditors:*:viewer',
})

/** A fresh browser that may reach this file's loopback addresses only. */
async function browser(): Promise<Page> {
  const b = await launchBrowser()
  browsers.push(b)
  await b.route('**/*', (route) => (new URL(route.request().url()).hostname.startsWith('127.0.115.') ? route.continue() : route.abort()))
  return b.newPage()
}

const auditOf = (t: TestWard, action: string) =>
  t.h.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute()
const roleOf = async (t: TestWard, userId: number, workspaceId: number) =>
  (
    await t.h.db
      .selectFrom('workspace_members')
      .select('role')
      .where('user_id', '=', userId)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst()
  )?.role ?? null

/** Clicks the SSO button and waits for the answer of Ward's callback (after the provider's pages, when shown). */
async function ssoCallback(p: Page, b: string, atProvider?: (p: Page) => Promise<void>) {
  await p.goto(`${b}/sign-in`)
  const answer = p.waitForResponse((r) => r.url().startsWith(`${b}/sign-in/oidc/callback`))
  await p.click('[data-testid=sso]')
  if (atProvider) {
    await p.waitForURL((u) => u.host.startsWith(IDP))
    await atProvider(p)
  }
  return answer
}

const signInAtProvider = (login: string) => async (p: Page) => {
  await p.fill('#login', login)
  await p.fill('#password', 'anything')
  await p.click('#idp-submit')
}

describe('single sign-on through a real OpenID Connect provider in chromium', { skip, concurrency: false }, () => {
  before(async () => {
    const [port, portB] = [await freePort(WARD), await freePort(WARD_B)]
    base = `http://${WARD}:${port}`
    baseB = `http://${WARD_B}:${portB}`
    idp = await startOidcProvider(IDP, [`${base}/sign-in/oidc/callback`, `${baseB}/sign-in/oidc/callback`])
    idp.accounts.set('dana', { preferred_username: 'dana', groups: ['secops'] })
    foreign = await startForeignIssuer(FOREIGN, idp)
    w = await startWard({ env: ssoEnv(base, idp.issuer), worker: false })
    wb = await startWard({ env: ssoEnv(baseB, foreign.issuer), worker: false })
    await w.app.listen({ host: WARD, port })
    await wb.app.listen({ host: WARD_B, port: portB })
    productionId = (await w.req('POST', '/api/v2/workspaces', { body: { name: 'Production' } })).json().data.created_id
  })
  after(async () => {
    for (const b of browsers) await b.close()
    await w?.close()
    await wb?.close()
    await foreign?.close()
    await idp?.close()
  })

  test('a person in secops signs in, is created, and lands as a member of Production', async () => {
    const p = await browser()
    await p.goto(`${base}/sign-in`)
    assert.equal(await p.locator('[data-testid=sso]').innerText(), 'Sign in with single sign-on')
    if (process.env.WARD_UI_SCREENSHOTS)
      await p.screenshot({ path: path.join(process.env.WARD_UI_SCREENSHOTS, 'sign-in-sso.png'), fullPage: true })
    const answer = await ssoCallback(p, base, signInAtProvider('dana'))
    assert.equal(answer.status(), 303)
    await p.waitForURL(`${base}/`)
    assert.match(await p.locator('header, nav').first().innerText(), /dana/)
    const dana = await w.h.db.selectFrom('users').select(['id', 'name']).where('name', '=', 'dana').executeTakeFirstOrThrow()
    const link = await w.h.db.selectFrom('user_identities').selectAll().where('user_id', '=', dana.id).executeTakeFirstOrThrow()
    assert.deepEqual([link.issuer, link.subject], [idp.issuer, 'dana'])
    assert.equal(await roleOf(w, dana.id, productionId), 'member')
    assert.equal(
      (await w.h.db.selectFrom('api_keys').select('id').where('user_id', '=', dana.id).execute()).length,
      0,
      'no API key nobody saw',
    )
    const ok = await auditOf(w, 'sign_in.succeeded')
    assert.equal(ok.length, 1)
    assert.deepEqual([ok[0]!.actor, ok[0]!.actor_user_id, JSON.parse(ok[0]!.details).method], ['dana', dana.id, 'oidc'])
    assert.match(ok[0]!.client ?? '', /^127\./, 'the client address')
    assert.doesNotMatch(JSON.stringify(await w.h.db.selectFrom('audit_log').selectAll().execute()), /eyJ/, 'no token in the log')
    const added = await auditOf(w, 'member.added')
    assert.deepEqual(
      added.map((a) => [a.workspace_id, a.actor, a.object_id]),
      [[productionId, 'system', String(dana.id)]],
    )

    // The groups change at the provider: the next sign-in brings the memberships the mapping manages along.
    idp.accounts.set('dana', { preferred_username: 'dana', groups: ['auditors'] })
    await p.click('button:has-text("Sign out")')
    await p.waitForURL(/\/sign-in/)
    assert.equal((await ssoCallback(p, base)).status(), 303, 'still signed in at the provider: straight back')
    await p.waitForURL(`${base}/`)
    assert.equal(await roleOf(w, dana.id, productionId), 'viewer', 'secops gone, auditors: viewer everywhere')
    assert.equal(await roleOf(w, dana.id, w.workspaceId), 'viewer', "alice's Default too (*)")
    const own = await w.h.db.selectFrom('workspaces').select('id').where('user_id', '=', dana.id).executeTakeFirstOrThrow()
    assert.equal(await roleOf(w, dana.id, own.id), 'owner', 'her own workspace: a manual membership, untouched')

    idp.accounts.set('dana', { preferred_username: 'dana', groups: [] })
    await p.click('button:has-text("Sign out")')
    await p.waitForURL(/\/sign-in/)
    await ssoCallback(p, base)
    await p.waitForURL(`${base}/`)
    assert.equal(await roleOf(w, dana.id, productionId), null, 'no group grants Production any more')
    assert.equal(await roleOf(w, dana.id, own.id), 'owner')
    assert.equal((await w.h.db.selectFrom('users').select('id').where('name', 'like', 'dana%').execute()).length, 1, 'one user, linked')
    assert.equal((await auditOf(w, 'sign_in.succeeded')).length, 3)
  })

  test('a bad state: 400, no session, one audit entry', async () => {
    const p = await browser()
    await p.goto(`${base}/sign-in/oidc`)
    await p.waitForURL((u) => u.host.startsWith(IDP))
    const before = (await auditOf(w, 'sign_in.failed')).length
    const r = await p.goto(`${base}/sign-in/oidc/callback?code=forged&state=not-the-one&iss=${encodeURIComponent(idp.issuer)}`)
    assert.equal(r!.status(), 400)
    assert.match(await p.locator('[data-testid=sso-error]').innerText(), /state did not match/)
    assert.equal((await p.context().cookies(base)).filter((c) => c.name === 'ward_session').length, 0)
    const failed = await auditOf(w, 'sign_in.failed')
    assert.equal(failed.length, before + 1)
    assert.equal(JSON.parse(failed.at(-1)!.details).method, 'oidc')
    // Without the cookie of a started sign-in (another browser's link): refused as well.
    const again = await p.goto(`${base}/sign-in/oidc/callback?code=forged&state=x`)
    assert.equal(again!.status(), 400)
    assert.equal((await auditOf(w, 'sign_in.failed')).length, before + 2)
  })

  test('the provider answers with an error (the person cancelled): 403 page, no session, one audit entry', async () => {
    const p = await browser()
    const before = (await auditOf(w, 'sign_in.failed')).length
    const answer = await ssoCallback(p, base, (p) => p.click('#idp-cancel'))
    assert.equal(answer.status(), 403)
    assert.match(await p.locator('[data-testid=sso-error]').innerText(), /refused the sign-in \(access_denied/)
    assert.equal((await p.context().cookies(base)).filter((c) => c.name === 'ward_session').length, 0)
    const failed = await auditOf(w, 'sign_in.failed')
    assert.equal(failed.length, before + 1)
    assert.match(JSON.parse(failed.at(-1)!.details).reason, /access_denied/)
  })

  test('a disabled account: 403 page, no session, no membership change, one audit entry', async () => {
    idp.accounts.set('fred', { preferred_username: 'fred', groups: ['secops'] })
    const p = await browser()
    assert.equal((await ssoCallback(p, base, signInAtProvider('fred'))).status(), 303)
    const fred = await w.h.db.selectFrom('users').select('id').where('name', '=', 'fred').executeTakeFirstOrThrow()
    await w.h.db.updateTable('users').set({ disabled_at: new Date().toISOString() }).where('id', '=', fred.id).execute()
    idp.accounts.set('fred', { preferred_username: 'fred', groups: [] })
    const q = await browser()
    const before = (await auditOf(w, 'sign_in.failed')).length
    const answer = await ssoCallback(q, base, signInAtProvider('fred'))
    assert.equal(answer.status(), 403)
    assert.match(await q.locator('[data-testid=sso-error]').innerText(), /This account is disabled/)
    assert.equal((await q.context().cookies(base)).filter((c) => c.name === 'ward_session').length, 0)
    assert.equal(await roleOf(w, fred.id, productionId), 'member', 'a refused sign-in changes no membership')
    assert.equal((await auditOf(w, 'sign_in.failed')).length, before + 1)
  })

  test('an answer from an issuer Ward does not trust: 401 page, no user, no session, one audit entry', async () => {
    const p = await browser()
    idp.accounts.set('erin', { preferred_username: 'erin', groups: ['secops'] })
    const answer = await ssoCallback(p, baseB, signInAtProvider('erin'))
    assert.equal(answer.status(), 401)
    assert.match(await p.locator('[data-testid=sso-error]').innerText(), /issuer Ward does not trust/)
    assert.equal((await p.context().cookies(baseB)).filter((c) => c.name === 'ward_session').length, 0)
    assert.equal((await wb.h.db.selectFrom('users').select('id').where('name', '=', 'erin').execute()).length, 0)
    assert.equal((await auditOf(wb, 'sign_in.failed')).length, 1)
    assert.equal((await auditOf(wb, 'sign_in.succeeded')).length, 0)
  })
})
