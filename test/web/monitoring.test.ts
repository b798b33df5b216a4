// Monitoring and bulk work in chromium (playwright-core): a schedule made from a finished scan's
// settings, run now, paused and resumed; the comparison page of its run against the first scan; 50+
// findings triaged in one go (one history entry each) and the filtered list exported as CSV, SARIF
// and JSON. Loopback address of this file: 127.0.97.3. ward-test: single-run
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import type net from 'node:net'
import path from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { PASSWORD, setPassword } from '../helpers/web.js'
import { browserSkip, launchBrowser } from '../helpers/browser.js'

const WEB = '127.0.97.3'
const SHOTS = process.env.WARD_UI_SCREENSHOTS
let w: TestWard
let base: string
let ctx: BrowserContext
let page: Page
const consoleErrors: string[] = []
const skip = browserSkip()
if (skip) console.log(`browser tests skipped: ${skip}`)

async function shot(p: Page, name: string) {
  if (!SHOTS) return
  fs.mkdirSync(SHOTS, { recursive: true })
  await p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })
}

async function download(p: Page, selector: string): Promise<string> {
  const [d] = await Promise.all([p.waitForEvent('download'), p.click(selector)])
  return fs.readFileSync((await d.path())!, 'utf8')
}

describe('schedules, comparison and bulk triage in chromium', { skip, concurrency: false }, () => {
  let first = 0
  let findingCount = 0
  before(async () => {
    w = await startWard({ env: { WARD_SIGNIN_LIMIT: '50' } })
    await setPassword(w, w.userId)
    await w.app.listen({ host: WEB, port: 0 })
    base = `http://${WEB}:${(w.app.server.address() as net.AddressInfo).port}`
    // 101 diagnostic steps: a finding at every other step, 51 in all.
    const r = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 9001, target_name: 'monitored.example', tool_params: { steps: 101, step_ms: 1 } },
    })
    first = r.json().data.created_id ?? r.json().data.id
    await waitForScan(w, first, isTerminal, 60000)
    findingCount = (await w.req('GET', `/api/v2/findings?task_id=${first}&limit=500`)).json().data.length
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
    await w?.close()
  })

  let second = 0
  test("a schedule from a finished scan's settings: created, run now, paused and resumed", async () => {
    assert.ok(findingCount >= 50, `${findingCount} findings`)
    await page.goto(`${base}/scans/${first}`)
    await page.click('text=Schedule these settings')
    await page.waitForURL(/\/schedules\?from_scan_id=/)
    assert.match(await page.locator('[data-testid=from-scan]').innerText(), new RegExp(`#${first}`))
    await page.fill('#s-name', 'Nightly <diagnostic>')
    await page.selectOption('#s-timing', 'cron')
    await page.fill('#s-cron', '0 3 * * *')
    await page.fill('#s-tz', 'Europe/Berlin')
    await page.click('button:has-text("Create schedule")')
    await page.waitForSelector('text=Schedule created.')
    const row = page.locator('[data-testid=schedules] tbody tr').first()
    assert.match(
      await row.innerText(),
      /Nightly <diagnostic>[\s\S]*Diagnostic of monitored\.example[\s\S]*cron 0 3 \* \* \* \(Europe\/Berlin\)/,
    )
    assert.equal(await row.locator('[data-testid=next-run] time').count(), 1)
    await row.locator('button:has-text("Run now")').click()
    await page.waitForSelector('text=Scan queued by the schedule.')
    const link = page.locator('[data-testid=schedules] tbody tr').first().locator('a[href^="/scans/"]').first()
    second = Number((await link.getAttribute('href'))!.split('/').pop())
    assert.ok(second > first)
    await page.locator('[data-testid=schedules] tbody tr').first().locator('button:has-text("Pause")').click()
    await page.waitForSelector('text=Schedule paused')
    assert.match(await page.locator('[data-testid=schedules] tbody tr').first().innerText(), /paused/)
    await page.locator('[data-testid=schedules] tbody tr').first().locator('button:has-text("Resume")').click()
    await page.waitForSelector('text=Schedule resumed')
    await shot(page, 'schedules')
    const api = (await w.req('GET', '/api/v2/schedules')).json().data[0]
    assert.equal(api.paused, false)
    assert.equal(api.timezone, 'Europe/Berlin')
    assert.deepEqual(api.tool_params.steps, 101)
  })

  test('the comparison page: the scheduled run against the first scan, and against a chosen scan', async () => {
    await waitForScan(w, second, isTerminal, 60000)
    await page.goto(`${base}/scans/${second}`)
    await page.click('text=What changed')
    await page.waitForURL(new RegExp(`/scans/${second}/changes`))
    assert.match(await page.locator('[data-testid=against]').innerText(), new RegExp(`#${first}`))
    assert.equal(await page.locator('[data-testid=new] li').count(), 0)
    assert.equal(await page.locator('[data-testid=still] li').count(), findingCount)
    await page.selectOption('#against', String(first))
    await page.click('button:has-text("Compare")')
    await page.waitForURL(new RegExp(`against=${first}`))
    assert.equal(await page.locator('[data-testid=still] li').count(), findingCount)
    await shot(page, 'changes')
    await page.goto(`${base}/scans/${first}/changes`)
    assert.equal(await page.locator('[data-testid=no-earlier]').count(), 1)
  })

  test('bulk triage: every finding of a scan accepted at once (with an expiry date and reason), one history entry each; two chosen by hand reopened', async () => {
    await page.goto(`${base}/findings?scan_id=${first}&workspace_id=all`)
    await page.selectOption('#b-status', 'accepted')
    assert.ok(await page.isVisible('#b-until'), 'accepted risk asks until when')
    await page.fill('#b-until', '2027-01-31')
    await page.fill('#b-reason', 'lab noise')
    await page.check('#b-all')
    await shot(page, 'findings-bulk')
    await page.click('button:has-text("Apply to chosen")')
    await page.waitForSelector('text=The chosen findings were updated')
    const rows = await w.h.db.selectFrom('finding_history').selectAll().where('field', '=', 'status').execute()
    const mine = rows.filter((h) => h.new_value === 'accepted' && h.reason === 'lab noise; accepted until 2027-01-31')
    assert.equal(mine.length, findingCount, 'one history entry per finding')
    const dated = await w.h.db.selectFrom('findings').select('id').where('accepted_until', '=', '2027-01-31').execute()
    assert.ok(dated.length >= findingCount, `the expiry is kept with the acceptance (${dated.length})`)
    // Some rows by hand: the first two boxes of the page, reopened.
    await page.goto(`${base}/findings?scan_id=${first}&workspace_id=all&status=accepted`)
    await page.locator('input[name=ids]').nth(0).check()
    await page.locator('input[name=ids]').nth(1).check()
    await page.selectOption('#b-status', 'open')
    await page.click('button:has-text("Apply to chosen")')
    await page.waitForSelector('text=The chosen findings were updated')
    const open = (await w.req('GET', `/api/v2/findings?task_id=${first}&limit=500`)).json().data.filter((f: any) => f.status === 'open')
    assert.equal(open.length, 2)
  })

  test('the filtered list exports as CSV, SARIF and JSON', async () => {
    await page.goto(`${base}/findings?scan_id=${first}&workspace_id=all&status=accepted`)
    const csv = await download(page, '[data-testid=export] a:has-text("CSV")')
    assert.equal(csv.trim().split('\n').length, findingCount - 2 + 1, 'a header and one line per finding')
    const sarif = JSON.parse(await download(page, '[data-testid=export] a:has-text("SARIF")'))
    assert.equal(sarif.version, '2.1.0')
    assert.equal(sarif.runs[0].results.length, findingCount - 2)
    const json = JSON.parse(await download(page, '[data-testid=export] a:has-text("JSON")'))
    assert.equal(json.data.length, findingCount - 2)
    assert.ok(json.data.every((f: any) => f.status === 'accepted'))
  })

  test('no page broke the CSP or threw a script error', () => {
    assert.deepEqual(consoleErrors, [])
  })
})
