// The web interface while scans run, in chromium (playwright-core), at 1440×900 and 390×844: "Scan
// again" keeps the earlier settings, the new-scan form shows one tool's description, a running
// scan's page and the dashboard update themselves and stop when the scan ends, times read as local
// or relative time with ISO on hover, a target has its own page, and no page is wider than a phone.
// Loopback addresses of this file: 127.0.97.x. ward-test: single-run
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import fs from 'node:fs'
import type net from 'node:net'
import path from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { PASSWORD, setPassword } from '../helpers/web.js'
import { browserSkip, launchBrowser } from '../helpers/browser.js'

const WEB = '127.0.97.1'
const BED = '127.0.97.2'
const SHOTS = process.env.WARD_UI_SCREENSHOTS
const LONG_WORD = `reports-${'x'.repeat(180)}`

let w: TestWard
let base: string
let ctx: BrowserContext
let page: Page
let bed: http.Server
let bedPort = 0
const consoleErrors: string[] = []
const skip = browserSkip()
if (skip) console.log(`browser tests skipped: ${skip}`)

async function shot(p: Page, name: string) {
  if (!SHOTS) return
  fs.mkdirSync(SHOTS, { recursive: true })
  await p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })
}

/** A scan through the API (the default key), its id. */
async function apiScan(body: Record<string, unknown>): Promise<number> {
  const r = await w.req('POST', '/api/v2/scans', { body })
  assert.equal(r.statusCode, 201, r.body)
  return r.json().data.created_id ?? r.json().data.id
}

/** How much wider than the window the page is, in CSS pixels (0: it fits). */
const overflow = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

describe('live pages in chromium', { skip, concurrency: false }, () => {
  before(async () => {
    w = await startWard({ env: { WARD_SIGNIN_LIMIT: '50' } })
    await setPassword(w, w.userId)
    await w.app.listen({ host: WEB, port: 0 })
    base = `http://${WEB}:${(w.app.server.address() as net.AddressInfo).port}`
    // Only the long path exists: the URL fuzzer reports it (a finding with a very long URL).
    bed = http.createServer((req, res) =>
      req.url?.includes(LONG_WORD)
        ? res.writeHead(200, { 'content-type': 'text/plain' }).end('quarterly reports, internal')
        : res.writeHead(404).end('no'),
    )
    await new Promise<void>((r) => bed.listen(0, BED, r))
    bedPort = (bed.address() as net.AddressInfo).port
    ctx = await launchBrowser()
    page = await ctx.newPage()
    await page.setViewportSize({ width: 1440, height: 900 })
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text())
    })
    page.on('pageerror', (e) => consoleErrors.push(e.message))
    await page.goto(`${base}/`)
    await page.fill('#name', 'alice')
    await page.fill('#password', PASSWORD)
    await page.click('button[type=submit]')
    await page.waitForURL(`${base}/`)
  })
  after(async () => {
    await ctx?.close()
    bed?.close()
    await w?.close()
  })

  test("the new-scan form shows the chosen tool's description only", async () => {
    await page.goto(`${base}/scans/new`)
    const visible = () => page.locator('[data-tool-help]:visible').count()
    assert.equal(await visible(), 1)
    await page.selectOption('#tool_id', '90')
    assert.equal(await visible(), 1)
    assert.equal(await page.locator('[data-tool-help]:visible').getAttribute('data-tool-help'), '90')
  })

  test("a running scan's page shows its tests, findings and raw output as they come, and stops polling at the end", async () => {
    await page.goto(`${base}/scans/new`)
    await page.selectOption('#tool_id', '9001')
    await page.fill('#target_name', 'live.example')
    await page.fill('[name="p.9001.steps"]', '5')
    await page.fill('[name="p.9001.step_ms"]', '1500')
    await page.click('button:has-text("Start scan")')
    await page.waitForURL(/\/scans\/\d+/)
    // While it runs: tests and findings appear without a reload.
    // While it runs (the steps take 7.5 s, the page polls every 2 s): findings and tests appear without a reload.
    const seen = await page.waitForFunction(
      () => {
        const running = !!document.querySelector('#scan-live [data-status=running]')
        const findings = Number(/Findings \((\d+)\)/.exec(document.querySelector('#fs')?.textContent ?? '')?.[1] ?? 0)
        const tests = Number(/Tests \((\d+)\)/.exec(document.querySelector('#ts')?.textContent ?? '')?.[1] ?? 0)
        return running && findings >= 1 && findings < 3
          ? { tests, raw: document.querySelector('[data-testid=raw-output]')?.textContent ?? '' }
          : null
      },
      null,
      { timeout: 30000, polling: 100 },
    )
    const during = (await seen.jsonValue())!
    assert.ok(during.tests >= 1 && during.tests < 5, `tests while running: ${during.tests}`)
    assert.match(during.raw, /step 1\/5/)
    await shot(page, 'scan-running')
    await page.waitForSelector('#scan-live [data-status=finished]', { timeout: 60000 })
    assert.equal(await page.locator('#ts').innerText(), 'Tests (5)')
    assert.match(await page.locator('[data-testid=tests]').innerText(), /5 of 5 tests/)
    assert.equal(await page.locator('[data-testid=queued]').count(), 0, 'no "Scan queued" once it ended')
    assert.equal(await page.locator('#scan-live[hx-trigger]').count(), 0, 'no more polling')
    // The three findings of one kind are one row with their count, opening to their places.
    assert.equal(await page.locator('[data-testid=finding-group]').count(), 1)
    assert.equal(await page.locator('[data-testid=group-count]').innerText(), '3 places')
    await page.click('[data-testid=finding-group] summary span')
    assert.equal(await page.locator('[data-testid=finding-group] li a:visible').count(), 3)
  })

  test('"Scan again" opens the form with the earlier scan\'s tool and parameters', async () => {
    await page.click('text=Scan again')
    await page.waitForURL(/\/scans\/new\?from_scan_id=/)
    assert.equal(await page.inputValue('#tool_id'), '9001')
    assert.equal(await page.inputValue('[name="p.9001.steps"]'), '5')
    assert.equal(await page.inputValue('[name="p.9001.step_ms"]'), '1500')
    assert.equal(await page.locator('#target_id option:checked').innerText(), 'live.example')
  })

  test('the dashboard moves an ending scan from "Running now" to "Recently finished" without a reload', async () => {
    const id = await apiScan({ tool_id: 9001, target_name: 'live.example', tool_params: { steps: 3, step_ms: 1500 } })
    await page.goto(`${base}/`)
    await page.waitForSelector(`[data-testid=running] a:has-text("#${id}")`, { timeout: 10000 })
    await page.waitForSelector(`[data-testid=recent] a:has-text("#${id}")`, { timeout: 60000 })
    assert.match(await page.locator('[data-testid=running]').innerText(), /No scan is running or waiting/)
    // 1440 px wide: the "Ended" column is inside its table's box, not cut off.
    const th = await page.locator('[data-testid=recent] th:has-text("Ended")').boundingBox()
    const box = await page.locator('[data-testid=recent] .table-wrap').boundingBox()
    assert.ok(th && box && th.x + th.width <= box.x + box.width + 1, `Ended at ${JSON.stringify(th)}, table ${JSON.stringify(box)}`)
    assert.equal(await page.locator('#dash-live[hx-trigger]').count(), 0, 'no more polling')
    await shot(page, 'dashboard-live')
  })

  let portScan = 0
  test('a target has its own page: ports and services, findings by severity, scan history per tool, scan with…', async () => {
    portScan = await apiScan({ tool_id: 70, target_name: BED, tool_params: { ports: String(bedPort) } })
    const fuzz = await apiScan({ tool_id: 90, target_name: `http://${BED}:${bedPort}/`, tool_params: { wordlist: [LONG_WORD] } })
    await waitForScan(w, portScan, isTerminal, 60000)
    await waitForScan(w, fuzz, isTerminal, 60000)
    await page.goto(`${base}/targets`)
    await page.click(`a:text-is("${BED}")`)
    await page.waitForURL(/\/targets\/\d+$/)
    assert.ok((await page.locator('h1').innerText()).startsWith(BED), await page.locator('h1').innerText())
    assert.match(await page.locator('[data-testid=services]').innerText(), new RegExp(String(bedPort)))
    assert.match(await page.locator('[data-testid=target-findings]').innerText(), /\d/)
    assert.match(await page.locator('#hist').locator('..').innerText(), /TCP Port Scanner/)
    assert.ok((await page.locator('[data-testid=scan-with] a').count()) >= 5)
    await shot(page, 'target')
    await page.click('[data-testid=scan-with] a:has-text("TCP Port Scanner")')
    await page.waitForURL(/\/scans\/new\?/)
    assert.equal(await page.inputValue('#tool_id'), '70')
    assert.equal(await page.locator('#target_id option:checked').innerText(), BED)
  })

  test('times read as local or relative time, with the ISO time on hover', async () => {
    await page.goto(`${base}/findings`)
    const t = page.locator('td time[data-when]').first()
    assert.match((await t.getAttribute('title'))!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    const text = await t.innerText()
    assert.doesNotMatch(text, /\d{4}-\d\d-\d\dT/)
    assert.match(text, /ago|just now/)
  })

  test('on a 390 px phone no page is wider than the screen (long URLs wrap)', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    const finding = (await w.req('GET', '/api/v2/findings?limit=100'))
      .json()
      .data.find((f: any) => String(f.url ?? '').startsWith(`http://${BED}`))
    assert.ok(finding, JSON.stringify((await w.req('GET', '/api/v2/findings?limit=100')).json().data.map((f: any) => f.url)))
    const target = (await w.req('GET', '/api/v2/targets')).json().data[0].id
    const wide: string[] = []
    for (const url of [
      '/',
      '/scans',
      '/findings',
      `/findings/${finding.id}`,
      `/scans/${portScan}`,
      `/targets/${target}`,
      '/targets',
      '/scans/new',
      '/profile',
      '/workspaces',
      '/vpn-profiles',
      '/no/such/page',
    ]) {
      await page.goto(`${base}${url}`)
      const px = await overflow(page)
      if (px > 0) {
        wide.push(`${url} is ${px} px too wide`)
        await shot(page, `too-wide-${url.replace(/\W+/g, '-')}`)
      }
    }
    assert.deepEqual(wide, [])
    await page.goto(`${base}/findings/${finding.id}`)
    assert.ok((await page.locator('main').innerText()).includes(LONG_WORD), 'the long path is on the finding page')
    await shot(page, 'finding-phone')
    await page.setViewportSize({ width: 1440, height: 900 })
  })

  test("forms adapt: a VPN profile shows its type's fields, authentication is a choice of kind with its fields", async () => {
    await page.goto(`${base}/vpn-profiles`)
    assert.ok(await page.isVisible('#vpn-host'))
    assert.ok(!(await page.isVisible('#vpn-url')))
    await page.selectOption('#vpn-type', 'http_connect')
    assert.ok(!(await page.isVisible('#vpn-host')) && (await page.isVisible('#vpn-url')))
    await page.fill('#vpn-name', 'Office proxy')
    await page.fill('#vpn-url', `http://${BED}:3128`)
    await page.click('button:has-text("Create VPN profile")')
    await page.waitForSelector('text=VPN profile created.')
    await page.goto(`${base}/scans/new`)
    await page.selectOption('#tool_id', '90')
    assert.equal(await page.locator('fieldset[data-tool="90"] textarea[name="p.90.authentication"]').count(), 0, 'no raw JSON')
    assert.ok(!(await page.isVisible('#p-90-authentication-username-basic')))
    await page.selectOption('#p-90-authentication-type', 'basic')
    assert.ok(await page.isVisible('#p-90-authentication-username-basic'))
    assert.ok(!(await page.isVisible('#p-90-authentication-login_url-form')))
    assert.equal(await page.locator('text=one item per line').count(), 1, 'the list rule is said once')
    await page.fill('#target_name', `http://${BED}:${bedPort}/`)
    await page.fill('[name="p.90.wordlist"]', 'admin')
    await page.fill('#p-90-authentication-username-basic', 'ops')
    await page.fill('#p-90-authentication-password-basic', 'a secret')
    await shot(page, 'new-scan-auth')
    await page.click('button:has-text("Start scan")')
    await page.waitForURL(/\/scans\/\d+/)
    const id = Number(/\/scans\/(\d+)/.exec(page.url())![1])
    const row = await w.h.db.selectFrom('scans').select('tool_params').where('id', '=', id).executeTakeFirstOrThrow()
    const auth = JSON.parse(row.tool_params).authentication
    assert.equal(auth.type, 'basic')
    assert.equal(auth.username, 'ops')
    assert.match(auth.password, /^wardenc:/, 'stored sealed')
    await waitForScan(w, id, isTerminal, 60000)
  })

  test('no page broke the CSP or threw a script error', () => {
    // /no/such/page answers 404 on purpose.
    assert.deepEqual(
      consoleErrors.filter((e) => !/status of 404/.test(e)),
      [],
    )
  })
})
