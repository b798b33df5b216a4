// The Templates page in a real browser (Debian's chromium through playwright-core) at 1440 and 390
// pixels: templates imported by `ward admin templates import` are listed beside the shipped library,
// searched and filtered by tag and severity; a hostile template's text is shown escaped (no script runs, no markup is made); the
// page is read only. ward-test: single-run (one browser pass is enough)
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import type net from 'node:net'
import type { BrowserContext, Page } from 'playwright-core'
import { startWard, type TestWard } from '../helpers/ward.js'
import { PASSWORD, setPassword } from '../helpers/web.js'
import { browserSkip, launchBrowser } from '../helpers/browser.js'
import { runAdmin } from '../../src/cli/admin.js'

// This file's loopback address (the template protocols' bed range, 127.0.113.x).
const WEB = '127.0.113.80'

const template = (id: string, name: string, severity: string, tags: string, extra = '') =>
  `id: ${id}\ninfo:\n  name: ${JSON.stringify(name)}\n  author: ward\n  severity: ${severity}\n  tags: ${tags}\n  description: ${JSON.stringify(`About ${name}`)}\n${extra}dns:\n  - name: "{{FQDN}}"\n    type: CNAME\n    matchers:\n      - type: word\n        words: ["example.net"]\n`

const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'

let w: TestWard
let base: string
let browser: BrowserContext
let p: Page
const errors: string[] = []
const skip = browserSkip()
if (skip) console.log(`browser tests skipped: ${skip}`)

describe('the Templates page in chromium', { skip, concurrency: false }, () => {
  before(async () => {
    w = await startWard()
    await setPassword(w, w.userId)
    const dir = fs.mkdtempSync(path.join(w.dir, 'templates-'))
    fs.writeFileSync(path.join(dir, 'takeover-a.yaml'), template('takeover-acme', 'Acme takeover', 'high', 'dns,takeover'))
    fs.writeFileSync(path.join(dir, 'info-b.yaml'), template('dns-info-b', 'Mail records', 'info', 'dns,mail'))
    fs.writeFileSync(
      path.join(dir, 'hostile.yaml'),
      template('hostile-text', HOSTILE, 'low', 'dns,hostile', `  remediation: ${JSON.stringify(HOSTILE)}\n`),
    )
    let out = ''
    await runAdmin(['templates', 'import', dir], w.h, w.config, (s) => (out += s))
    assert.match(out, /^loaded 3,/, out)
    await w.app.listen({ host: WEB, port: 0 })
    base = `http://${WEB}:${(w.app.server.address() as net.AddressInfo).port}`
    browser = await launchBrowser()
    p = await browser.newPage()
    p.on('pageerror', (e) => errors.push(e.message))
    await p.goto(`${base}/`)
    await p.fill('#name', 'alice')
    await p.fill('#password', PASSWORD)
    await p.click('button[type=submit]')
    await p.waitForURL(`${base}/`)
  })
  after(async () => {
    await browser?.close()
    await w?.close()
  })

  for (const width of [1440, 390]) {
    test(`search, filter and a template's text at ${width} px`, async () => {
      await p.setViewportSize({ width, height: 900 })
      await p.goto(`${base}/templates`)
      const rows = p.locator('[data-testid=templates] tbody tr')
      assert.equal(await rows.count(), 50, 'a page of the shipped and imported templates')
      assert.ok((await rows.locator('td:last-child').allInnerTexts()).includes('shipped'))
      await p.goto(`${base}/templates?tag=dns`)
      assert.deepEqual(await rows.locator('td:last-child').allInnerTexts(), ['imported', 'imported', 'imported'])
      await p.fill('#t-q', 'acme')
      await p.click('form.filters button[type=submit]')
      assert.equal(await rows.count(), 1)
      assert.match(await rows.first().innerText(), /takeover-acme/)
      await p.goto(`${base}/templates?tag=dns`)
      await p.selectOption('#t-sev', 'info')
      await p.click('form.filters button[type=submit]')
      assert.deepEqual(await rows.locator('td:first-child').allInnerTexts(), ['dns-info-b'])
      await p.goto(`${base}/templates?tag=takeover`)
      assert.deepEqual(await rows.locator('td:first-child').allInnerTexts(), ['takeover-acme'])
      await p.goto(`${base}/templates?tag=dns`)
      await p.click('text=hostile-text')
      const text = await p.locator('[data-testid=template-text]').innerText()
      assert.ok(text.includes('<script>window.__pwned=2</script>'), 'the YAML is shown as text')
      assert.equal(await p.locator('main img, main script, pre img').count(), 0, 'no markup from the template')
      assert.equal(await p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? 0), 0)
      assert.equal(await p.locator('main form[method=post], main button.danger').count(), 0, 'read only')
      // Nothing of the page's own content reaches past the screen (the template text scrolls in its box).
      const past = await p.evaluate(() =>
        [...document.querySelectorAll('main *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
          .map((e) => `${e.tagName}.${e.className}`)
          .slice(0, 5),
      )
      assert.deepEqual(past, [], `at ${width} px`)
      assert.deepEqual(errors, [])
    })
  }
})
