// Sharing a workspace in a real browser (Debian's chromium through playwright-core): the owner opens
// the Members page from the workspaces list, adds a colleague by user name as a viewer; the colleague,
// signed in in another profile, switches to the shared workspace, sees "viewer" beside it and no way
// to add a target; the owner makes them a member and the form appears; removed, the workspace is gone
// for them. ward-test: single-run (the inject tests run on both databases; one browser pass is enough)
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import type net from 'node:net'
import type { BrowserContext, Page } from 'playwright-core'
import { startWard, type TestWard } from '../helpers/ward.js'
import { PASSWORD, setPassword } from '../helpers/web.js'
import { browserSkip, launchBrowser } from '../helpers/browser.js'

// This file's loopback address (the teams test bed range, 127.0.95.x).
const WEB = '127.0.95.1'

let w: TestWard
let base: string
const browsers: BrowserContext[] = []
let alice: Page
let bob: Page
const errors: string[] = []
const skip = browserSkip()
if (skip) console.log(`browser tests skipped: ${skip}`)

async function signedIn(name: string): Promise<Page> {
  const b = await launchBrowser()
  browsers.push(b)
  const p = await b.newPage()
  p.on('pageerror', (e) => errors.push(e.message))
  p.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  await p.goto(`${base}/`)
  await p.fill('#name', name)
  await p.fill('#password', PASSWORD)
  await p.click('button[type=submit]')
  await p.waitForURL(`${base}/`)
  return p
}

describe('members of a shared workspace in chromium', { skip, concurrency: false }, () => {
  before(async () => {
    w = await startWard({ env: { WARD_SIGNIN_LIMIT: '50' } })
    await setPassword(w, w.userId)
    await setPassword(w, (await w.user('bob')).userId)
    await w.app.listen({ host: WEB, port: 0 })
    base = `http://${WEB}:${(w.app.server.address() as net.AddressInfo).port}`
    alice = await signedIn('alice')
    bob = await signedIn('bob')
  })
  after(async () => {
    for (const b of browsers) await b.close()
    await w?.close()
  })

  test('the owner adds a colleague as a viewer from the Members page', async () => {
    await alice.click('nav >> text=Workspaces')
    await alice.click(`tr[data-workspace-id="${w.workspaceId}"] >> text=Members`)
    assert.equal(await alice.locator('[data-testid=my-role]').innerText(), 'owner')
    await alice.fill('#m-name', 'bob')
    await alice.selectOption('#m-role', 'viewer')
    await alice.click('button:has-text("Add member")')
    await alice.waitForURL(/ok=member-added/)
    assert.match(await alice.locator('tr[data-member="bob"]').innerText(), /bob/)
  })

  test('the viewer switches to it, sees their role, and has no control to add a target', async () => {
    await bob.click('nav >> text=Workspaces')
    await bob.click(`tr[data-workspace-id="${w.workspaceId}"] >> button:has-text("Set active")`)
    await bob.click('nav >> text=Targets')
    assert.equal(await bob.locator('[data-testid=active-role]').innerText(), 'viewer')
    assert.equal(await bob.locator('button:has-text("Add target")').count(), 0)
  })

  test('made a member, the colleague gets the form; removed, the workspace is gone for them', async () => {
    await alice.selectOption(
      `#role-${(await w.h.db.selectFrom('users').select('id').where('name', '=', 'bob').executeTakeFirstOrThrow()).id}`,
      'member',
    )
    await alice.click('tr[data-member="bob"] >> button:has-text("Change role")')
    await alice.waitForURL(/ok=member-changed/)
    await bob.reload()
    assert.equal(await bob.locator('[data-testid=active-role]').innerText(), 'member')
    await bob.fill('#t-name', 'bob-added.example')
    await bob.click('button:has-text("Add target")')
    await bob.waitForURL(/ok=target-added/)
    alice.once('dialog', (d) => void d.accept())
    await alice.click('tr[data-member="bob"] >> button:has-text("Remove")')
    await alice.waitForURL(/ok=member-removed/)
    assert.equal(await alice.locator('tr[data-member="bob"]').count(), 0)
    await bob.goto(`${base}/workspaces/${w.workspaceId}/members`)
    assert.match(await bob.locator('h1').innerText(), /Not found/)
    await bob.click('nav >> text=Targets')
    assert.equal(await bob.locator('text=bob-added.example').count(), 0, 'the shared target is no longer listed')
    // The one 404 is the page opened on purpose above; anything else is a script error or a CSP violation.
    assert.deepEqual(
      errors.filter((e) => !/status of 404/.test(e)),
      [],
      'no script error or CSP violation on any page',
    )
  })
})
