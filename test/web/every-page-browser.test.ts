// Every page of the web interface in chromium (playwright-core), table-driven, at 1440×900 and
// 390×844: it opens, shows its main part, logs no console error and no CSP violation, and on the
// phone is no wider than the screen. The data: two diagnostic scans (no network), a schedule,
// saved settings, an invitation and a set-password link. WARD_UI_SCREENSHOTS=docs/ui saves a
// screenshot of each page at 1440 px. ward-test: single-run (one browser pass is enough)
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import type net from 'node:net'
import fs from 'node:fs'
import path from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { PASSWORD, setPassword } from '../helpers/web.js'
import { browserSkip, launchBrowser } from '../helpers/browser.js'
import { createPasswordLink } from '../../src/store/web-sessions.js'

// This file's loopback address (127.0.114.x).
const WEB = '127.0.114.1'
const SHOTS = process.env.WARD_UI_SCREENSHOTS
const skip = browserSkip()
if (skip) console.log(`browser tests skipped: ${skip}`)

interface PageCase {
  /** Path, filled in once the data exists. */
  path: () => string
  /** A selector that must be visible: the page's main part (a function when it names the data). */
  main: string | (() => string)
  /** Signed out (sign-in, set-password, invitation). */
  public?: boolean
  shot?: string
}

let w: TestWard
let base: string
const ids = { scan: 0, scan2: 0, target: 0, finding: 0, settings: 0, invite: '', setPassword: '' }

const PAGES: PageCase[] = [
  { path: () => '/', main: 'h1:has-text("Dashboard")', shot: 'dashboard' },
  { path: () => '/targets', main: 'h1:has-text("Targets")', shot: 'targets' },
  { path: () => `/targets/${ids.target}`, main: '[data-testid=scan-with]', shot: 'target' },
  { path: () => '/scans', main: () => `tr[data-scan-id="${ids.scan}"]`, shot: 'scans' },
  { path: () => '/scans/new', main: 'form[action="/scans/new"] >> text=Start scan', shot: 'new-scan' },
  { path: () => `/scans/${ids.scan2}`, main: '[data-testid=summary]', shot: 'scan' },
  { path: () => `/scans/${ids.scan2}/changes`, main: 'h1', shot: 'scan-changes' },
  { path: () => '/schedules', main: '[data-testid=schedules]', shot: 'schedules' },
  { path: () => '/scan-settings', main: () => `[data-settings-id="${ids.settings}"]`, shot: 'scan-settings' },
  { path: () => `/scans/new?settings_id=${ids.settings}`, main: '[data-testid=from-settings]' },
  { path: () => '/findings', main: `tr[data-finding-id]`, shot: 'findings' },
  { path: () => `/findings/${ids.finding}`, main: 'h1', shot: 'finding' },
  { path: () => '/workspaces', main: 'h1:has-text("Workspaces")', shot: 'workspaces' },
  { path: () => `/workspaces/${w.workspaceId}/members`, main: 'h1', shot: 'members' },
  { path: () => '/vpn-profiles', main: 'h1', shot: 'vpn-profiles' },
  { path: () => '/integrations', main: 'h1', shot: 'integrations' },
  { path: () => '/audit', main: 'h1:has-text("Audit")', shot: 'audit' },
  { path: () => '/templates', main: 'h1', shot: 'templates' },
  { path: () => '/users', main: 'h1', shot: 'users' },
  { path: () => '/profile', main: 'text=Create a new API key', shot: 'profile' },
  { path: () => '/no/such/page', main: 'h1:has-text("Not found")' },
  { path: () => '/sign-in', main: '#password', public: true, shot: 'sign-in' },
  { path: () => `/set-password/${ids.setPassword}`, main: 'input[type=password]', public: true },
  { path: () => ids.invite, main: 'h1', public: true },
]

async function apiOk(method: string, url: string, body?: unknown) {
  const r = await w.req(method, url, { body })
  assert.ok(r.statusCode < 300, `${method} ${url}: ${r.statusCode} ${r.body}`)
  return r.json().data
}

describe('every page in chromium, at 1440×900 and 390×844', { skip, concurrency: false }, () => {
  let signedIn: BrowserContext
  let signedOut: BrowserContext
  const problems: string[] = []
  const watch = (p: Page) => {
    p.on('console', (m) => {
      if (m.type() === 'error' && !/status of 404/.test(m.text())) problems.push(`${p.url()}: ${m.text()}`)
    })
    p.on('pageerror', (e) => problems.push(`${p.url()}: ${e.message}`))
    return p
  }

  before(async () => {
    w = await startWard({ env: { WARD_SIGNIN_LIMIT: '50' } })
    await setPassword(w, w.userId)
    await w.app.listen({ host: WEB, port: 0 })
    base = `http://${WEB}:${(w.app.server.address() as net.AddressInfo).port}`
    const params = { steps: 3, step_ms: 1 }
    const first = await apiOk('POST', '/api/v2/scans', { tool_id: 9001, target_name: 'every-page.example', tool_params: params })
    ids.scan = first.created_id
    ids.target = first.target_id
    await waitForScan(w, ids.scan, isTerminal)
    ids.scan2 = (await apiOk('POST', '/api/v2/scans', { from_scan_id: ids.scan })).created_id
    await waitForScan(w, ids.scan2, isTerminal)
    ids.finding = (await apiOk('GET', `/api/v2/findings?scan_id=${ids.scan2}`))[0].id
    await apiOk('POST', '/api/v2/schedules', { from_scan_id: ids.scan, interval_minutes: 1440, name: 'Daily diagnostic' })
    ids.settings = (await apiOk('POST', '/api/v2/scan-settings', { name: 'Three quick steps', from_scan_id: ids.scan })).created_id
    ids.invite = (await apiOk('POST', `/api/v2/workspaces/${w.workspaceId}/invitations`, { role: 'viewer' })).path
    const bob = await w.user('bob')
    ids.setPassword = await createPasswordLink(w.h.db, bob.userId, 3600_000)

    signedOut = await launchBrowser()
    signedIn = await launchBrowser()
    const p = watch(await signedIn.newPage())
    await p.goto(`${base}/sign-in`)
    await p.fill('#name', 'alice')
    await p.fill('#password', PASSWORD)
    await p.click('button[type=submit]')
    await p.waitForURL(`${base}/`)
    await p.close()
  })
  after(async () => {
    await signedIn?.close()
    await signedOut?.close()
    await w?.close()
  })

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const)
    for (const c of PAGES)
      test(`${width} px: ${c.shot ?? c.path.toString().replace(/^\(\)\s*=>\s*/, '')}`, async () => {
        const p = watch(await (c.public ? signedOut : signedIn).newPage())
        try {
          await p.setViewportSize({ width, height })
          const before = problems.length
          const r = await p.goto(`${base}${c.path()}`)
          assert.ok(r, 'the page answered')
          // Waiting for the main part, not for network idle (half a second of silence per page, and
          // never on the polling pages): it is what a fragment loaded after the page fills in.
          const main = typeof c.main === 'string' ? c.main : c.main()
          await p
            .locator(main)
            .first()
            .waitFor({ state: 'visible', timeout: 15000 })
            .catch(() => {})
          assert.ok(await p.locator(main).first().isVisible(), `${c.path()}: ${main} is visible`)
          // A CSP violation is reported on the console as an error ("Refused to ...").
          assert.deepEqual(problems.slice(before), [], 'no console error, no CSP violation')
          if (width < 500) {
            const px = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
            // What sticks out, to say where to look: the outermost elements past the right edge.
            const wide = await p.evaluate(() =>
              [...document.querySelectorAll('body *')]
                .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.table-wrap'))
                .slice(0, 3)
                .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
            )
            assert.ok(px <= 1, `${c.path()} is ${px} px wider than a ${width} px screen: ${wide.join(', ')}`)
          } else if (SHOTS && c.shot) {
            fs.mkdirSync(SHOTS, { recursive: true })
            await p.screenshot({ path: path.join(SHOTS, `${c.shot}.png`), fullPage: true })
          }
        } finally {
          await p.close()
        }
      })
})
