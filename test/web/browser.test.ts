// The web interface in a real browser (Debian's chromium through playwright-core): a person signs in,
// reads an API key, sets the active workspace and sees the API follow it, adds a target, starts a scan
// of a loopback test bed whose banners carry <script>, watches the progress reach 100 % without
// reloading, opens a finding (the hostile text is shown as text), triages it, downloads the PDF and
// signs out; a second user sees none of it; the main actions are reachable with the keyboard alone.
// WARD_UI_SCREENSHOTS=docs/ui saves screenshots of the main pages there. ward-test: single-run (the
// page tests run on both databases; one browser pass is enough)
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import http from 'node:http'
import fs from 'node:fs'
import path from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { startWard, type TestWard } from '../helpers/ward.js'
import { PASSWORD, setPassword } from '../helpers/web.js'
import { browserSkip, launchBrowser } from '../helpers/browser.js'

// This file's loopback addresses (127.0.25.x).
const WEB = '127.0.25.1'
const BED = '127.0.25.2'
const HOSTILE_BANNER = 'SSH-2.0-<script>window.__pwned=1</script>'
const HOSTILE_TITLE = '<script>window.__pwned=2</script>'
const SHOTS = process.env.WARD_UI_SCREENSHOTS

let w: TestWard
let base: string
let alice: BrowserContext
let page: Page
let bed: { ssh: net.Server; web: http.Server; sshPort: number; webPort: number }
let bobId: number
const skip = browserSkip()
if (skip) console.log(`browser tests skipped: ${skip}`)

async function listen<T extends net.Server>(s: T): Promise<number> {
  await new Promise<void>((r) => s.listen(0, BED, r))
  return (s.address() as net.AddressInfo).port
}

async function shot(p: Page, name: string) {
  if (!SHOTS) return
  fs.mkdirSync(SHOTS, { recursive: true })
  await p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })
}

async function signIn(p: Page, name: string) {
  await p.goto(`${base}/`)
  assert.match(p.url(), /\/sign-in/)
  await p.fill('#name', name)
  await p.fill('#password', PASSWORD)
  await p.click('button[type=submit]')
  await p.waitForURL(`${base}/`)
}

describe('the web interface in chromium', { skip, concurrency: false }, () => {
  before(async () => {
    w = await startWard({ env: { WARD_SIGNIN_LIMIT: '50' } })
    await setPassword(w, w.userId)
    const bob = await w.user('bob')
    bobId = bob.userId
    await setPassword(w, bob.userId)
    await w.app.listen({ host: WEB, port: 0 })
    base = `http://${WEB}:${(w.app.server.address() as net.AddressInfo).port}`
    const ssh = net.createServer((s) => {
      s.on('error', () => {})
      s.end(`${HOSTILE_BANNER}\r\n`)
    })
    const web = http.createServer((_req, res) => {
      res.writeHead(200, { server: `nginx/1.0 <img src=x onerror="window.__pwned=3">`, 'content-type': 'text/html' })
      // A directory listing whose title carries a script: the website scanner quotes the title.
      res.end(`<html><head><title>${HOSTILE_TITLE}</title></head><body><h1>Index of /</h1><a href="a.txt">a.txt</a></body></html>`)
    })
    bed = { ssh, web, sshPort: await listen(ssh), webPort: await listen(web) }
    alice = await launchBrowser()
    page = await alice.newPage()
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text())
    })
    page.on('pageerror', (e) => consoleErrors.push(e.message))
  })
  after(async () => {
    await alice?.close()
    bed?.ssh.close()
    bed?.web.close()
    await w?.close()
  })

  let apiKey = ''
  let scanId = 0
  // CSP violations and script errors show up here; none is expected on any page.
  const consoleErrors: string[] = []
  let findingId = 0

  test('sign in and read a new API key on the profile page (masked, revealed, copied); it works for the API', async () => {
    await signIn(page, 'alice')
    await shot(page, 'dashboard-empty')
    await page.click('nav >> text=Profile & API keys')
    await page.click('text=Create a new API key')
    const key = page.locator('[data-testid=new-key]')
    assert.match(await key.innerText(), /^ward_.{7}•+$/, 'masked first')
    await shot(page, 'profile')
    await page.click('button[data-reveal=new-key]')
    apiKey = await key.innerText()
    assert.match(apiKey, /^ward_[\w-]{32}$/)
    await page.click('button[data-copy=new-key]')
    await page.waitForSelector('button[data-copy=new-key]:has-text("Copied")')
    const r = await fetch(`${base}/api/v2/workspaces`, { headers: { authorization: `Bearer ${apiKey}` } })
    assert.equal(r.status, 200)
  })

  test('create a workspace and make it active: GET /api/v2/scans without workspace_id follows it', async () => {
    await page.click('nav >> text=Workspaces')
    await page.fill('#ws-name', 'Blue team')
    await page.click('text=Create workspace')
    await page.waitForSelector('text=Workspace created.')
    await page.click('tr:has-text("Blue team") >> text=Set active')
    await page.waitForSelector('[data-testid=active-workspace]:has-text("Blue team")')
    await shot(page, 'workspaces')
    const ws = (await (await fetch(`${base}/api/v2/workspaces`, { headers: { authorization: `Bearer ${apiKey}` } })).json()).data
    assert.equal(ws.find((x: any) => x.active).name, 'Blue team')
  })

  test('add a target (type inferred); a duplicate is refused with a sentence', async () => {
    await page.click('nav >> text=Targets')
    await page.fill('#t-name', BED)
    await page.fill('#t-desc', 'hostile test bed')
    await page.click('button:has-text("Add target")')
    await page.waitForSelector('text=Target added.')
    assert.match(await page.locator(`tr:has-text("${BED}")`).innerText(), /ip_address/)
    await page.fill('#t-name', BED)
    await page.click('button:has-text("Add target")')
    assert.match(await page.locator('.msg.error').innerText(), /already exists in this workspace/)
    await shot(page, 'targets')
  })

  test('start a port scan from the generated form and watch progress reach 100 % without reloading', async () => {
    await page.click(`tr:has-text("${BED}") >> text=Scan`)
    await page.selectOption('#tool_id', '70')
    // The port scanner's parameters come from its tool_params schema.
    await page.fill('[name="p.70.ports"]', `${bed.sshPort},${bed.webPort}`)
    await shot(page, 'new-scan')
    await page.click('button:has-text("Start scan")')
    await page.waitForURL(/\/scans\/\d+/)
    scanId = Number(/\/scans\/(\d+)/.exec(page.url())![1])
    // Live updates: the progress fragment polls, then the page reloads itself once the scan ends.
    await page.waitForSelector('[data-testid=progress]:has-text("100 %")', { timeout: 60000 })
    await page.waitForSelector('[data-status=finished]', { timeout: 60000 })
    await page.waitForSelector('text=Findings (', { timeout: 10000 })
    const tests = await page.locator('[data-testid=tests]').innerText()
    const [done, all] = /(\d+) of (\d+) tests/.exec(tests)!.slice(1).map(Number)
    assert.ok(all! > 0 && done === all, tests)
    await page.waitForFunction(() => !document.querySelector('#progress[hx-trigger]'))
    await shot(page, 'scan')
    // The API lists the scan for the active workspace, without workspace_id.
    const listed = (await (await fetch(`${base}/api/v2/scans`, { headers: { authorization: `Bearer ${apiKey}` } })).json()).data
    assert.deepEqual(
      listed.map((s: any) => s.id),
      [scanId],
    )
  })

  test('scanner-supplied text (an SSH banner, an HTTP Server header) is shown as text, never run', async () => {
    const raw = await page.locator('[data-testid=raw-output]').innerText()
    assert.ok(raw.includes('<script>window.__pwned=1</script>'), raw)
    await page
      .click('a:has-text("Open TCP port")', { timeout: 5000 })
      .catch(async () => page.click('section:has-text("Findings") tbody a >> nth=0'))
    await page.waitForURL(/\/findings\/\d+/)
    findingId = Number(/\/findings\/(\d+)/.exec(page.url())![1])
    const evidence = await page.locator('[data-testid=evidence]').innerText()
    assert.ok(evidence.includes('<script>') || evidence.includes('onerror'), evidence)
    assert.equal(await page.evaluate(() => (window as any).__pwned), undefined)
    await shot(page, 'finding')
  })

  test('a website scan of a page whose title carries <script>: the finding quotes it as text', async () => {
    await page.goto(`${base}/scans/new`)
    await page.selectOption('#tool_id', '170')
    await page.selectOption('#target_id', '')
    await page.fill('#target_name', `http://${BED}:${bed.webPort}/`)
    await page.click('button:has-text("Start scan")')
    await page.waitForURL(/\/scans\/\d+/)
    await page.waitForSelector('[data-status=finished]', { timeout: 90000 })
    await page.waitForSelector('text=Directory listing', { timeout: 10000 })
    await page.click('a:has-text("Directory listing")')
    await page.waitForURL(/\/findings\/\d+/)
    assert.ok((await page.locator('main').innerText()).includes(HOSTILE_TITLE))
    assert.equal(await page.evaluate(() => (window as any).__pwned), undefined)
    await page.goto(`${base}/findings/${findingId}`)
  })

  test('triage a finding with a comment; the history shows it', async () => {
    await page.selectOption('#t-status', 'accepted')
    await page.fill('#t-reason', 'test bed, <b>expected</b>')
    await page.click('button:has-text("Save triage")')
    await page.waitForSelector('text=Finding updated')
    assert.equal(await page.locator('[data-testid=finding-status]').innerText(), 'accepted')
    const history = await page.locator('[data-testid=history]').innerText()
    assert.match(history, /status: open → accepted/)
    assert.ok(history.includes('test bed, <b>expected</b>'))
  })

  test('download the PDF report of the scan (a valid PDF)', async () => {
    await page.goto(`${base}/scans/${scanId}`)
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=Download PDF report')])
    const file = await download.path()
    const bytes = fs.readFileSync(file!)
    assert.equal(bytes.subarray(0, 5).toString(), '%PDF-')
    assert.match(bytes.subarray(-1024).toString('latin1'), /%%EOF/)
  })

  test('set the active workspace back: the API no longer lists the scan without workspace_id', async () => {
    await page.click('nav >> text=Workspaces')
    await page.click('tr:has-text("Default") >> text=Set active')
    await page.waitForSelector('[data-testid=active-workspace]:has-text("Default")')
    const listed = (await (await fetch(`${base}/api/v2/scans`, { headers: { authorization: `Bearer ${apiKey}` } })).json()).data
    assert.deepEqual(listed, [])
    await page.click('tr:has-text("Blue team") >> text=Set active')
    await page.goto(`${base}/`)
    await shot(page, 'dashboard')
    assert.match(await page.locator('[data-testid=open-findings]').innerText(), /\d/)
    assert.ok(await page.locator('#findings-chart canvas').count(), 'the chart is drawn')
  })

  test('revoking the key on the profile page stops it for the API at once', async () => {
    await page.click('nav >> text=Profile & API keys')
    page.once('dialog', (d) => void d.accept())
    await page.click(`tr:has-text("${apiKey.slice(0, 12)}") >> text=Revoke`)
    await page.waitForSelector('text=The API key was revoked')
    assert.equal((await fetch(`${base}/api/v2/workspaces`, { headers: { authorization: `Bearer ${apiKey}` } })).status, 401)
  })

  test('no page broke the CSP or threw a script error', () => {
    // The duplicate target above is answered 409 on purpose; anything else is a fault.
    assert.deepEqual(
      consoleErrors.filter((e) => !/status of 409/.test(e)),
      [],
    )
  })

  test('sign out', async () => {
    await page.click('button:has-text("Sign out")')
    await page.waitForURL(/\/sign-in$/)
    await page.goto(`${base}/profile`)
    assert.match(page.url(), /\/sign-in\?next=%2Fprofile/)
  })

  test('a second user sees none of it, through any page', async () => {
    const bob = await launchBrowser()
    try {
      const p = await bob.newPage()
      await signIn(p, 'bob')
      for (const url of ['/', '/targets', '/scans', '/findings?workspace_id=all', '/workspaces']) {
        await p.goto(`${base}${url}`)
        const text = await p.locator('main').innerText()
        assert.ok(!text.includes(BED) && !text.includes('Blue team'), `${url} shows alice's data`)
      }
      for (const url of [`/scans/${scanId}`, `/scans/${scanId}/report.pdf`, `/scans/${scanId}/progress`, `/findings/1`]) {
        const r = await p.request.get(`${base}${url}`)
        assert.equal(r.status(), 404, url)
      }
      assert.ok(bobId > 0)
    } finally {
      await bob.close()
    }
  })

  test('keyboard only: sign in, then reach the main actions with Tab and Enter', async () => {
    const kb = await launchBrowser()
    try {
      const p = await kb.newPage()
      await p.goto(`${base}/`)
      // The name field has focus on arrival (autofocus may land just after "load" on a busy machine: wait for it, or fail).
      await p.waitForFunction(() => document.activeElement?.id === 'name', null, { timeout: 10_000 })
      await p.keyboard.type('alice')
      await p.keyboard.press('Tab')
      await p.keyboard.type(PASSWORD)
      await p.keyboard.press('Enter')
      await p.waitForURL(`${base}/`)
      const reached: string[] = []
      for (let i = 0; i < 40; i++) {
        await p.keyboard.press('Tab')
        reached.push(await p.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText?.trim() ?? ''))
      }
      for (const want of [
        'Skip to content',
        'Targets',
        'Scans',
        'Findings',
        'Workspaces',
        'Profile & API keys',
        'Sign out',
        'Start a scan',
      ])
        assert.ok(reached.includes(want), `${want} not reached: ${reached.join(' | ')}`)
      // Enter on a focused link opens it.
      while ((await p.evaluate(() => (document.activeElement as HTMLElement).innerText.trim())) !== 'Start a scan')
        await p.keyboard.press('Shift+Tab')
      await p.keyboard.press('Enter')
      await p.waitForURL(`${base}/scans/new`)
      await p.focus('#tool_id')
      await p.keyboard.press('Tab')
      assert.equal(await p.evaluate(() => document.activeElement?.id), 'target_id')
    } finally {
      await kb.close()
    }
  })
})
