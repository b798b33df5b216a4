// The set-password link on a real `ward all` process logging at info (issue 25, fault 9): the token
// reaches no log line (Fastify's request log of the URL included), a post from another site is
// refused and leaves the link usable, and a person in chromium (Debian's, through playwright-core)
// still sets a password through it.
// Loopback address of this file: 127.0.52.1.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startProc, stopProc, type WardProc } from '../helpers/processes.js'
import { browserSkip, launchBrowser } from '../helpers/browser.js'

const HOST = '127.0.52.1'
let dir: string
let env: Record<string, string>
let ward: WardProc
let token: string
const skip = browserSkip()
if (skip) console.log(`chromium part skipped: ${skip}`)

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-set-password-'))
  env = { WARD_DATABASE_URL: `sqlite:${path.join(dir, 'ward.db')}`, HOST, LOG_LEVEL: 'info' }
  ward = await startProc('all', env, 120000) // a loaded test machine can take a while to start it
  // A link made by the admin command (its own process): this token was never in the server's output.
  const admin = spawnSync(process.execPath, [path.resolve('bin/ward.js'), 'admin', 'user', 'set-password', '--user', '1', '--link'], {
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 60000,
  })
  assert.equal(admin.status, 0, admin.stderr)
  token = /\/set-password\/([\w-]{20,})/.exec(admin.stdout)![1]!
})
after(async () => {
  await stopProc(ward)
  fs.rmSync(dir, { recursive: true, force: true })
})

test('a post from another site is refused and the link keeps working', async () => {
  const url = `${ward.base}/set-password/${token}`
  assert.equal((await fetch(url)).status, 200)
  const r = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: 'http://127.0.0.60:9710', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: 'the attacker password', password2: 'the attacker password' }),
  })
  assert.equal(r.status, 403)
  assert.ok(!(r.headers.get('set-cookie') ?? '').includes('ward_session'), 'no session cookie')
  assert.equal((await fetch(url)).status, 200, 'the link still works')
})

test('a person sets a password through the link in chromium and is signed in', { skip }, async () => {
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage()
    await page.goto(`${ward.base}/set-password/${token}`)
    await page.fill('#password', 'a password from the browser')
    await page.fill('#password2', 'a password from the browser')
    await page.click('button[type=submit]')
    await page.waitForURL(`${ward.base}/profile`)
    assert.match(await page.content(), /Sign out/)
    // Used up: the link is gone once the password is set.
    assert.equal((await fetch(`${ward.base}/set-password/${token}`)).status, 404)
  } finally {
    await browser.close()
  }
})

test('no log line holds the token; the request log shows the path redacted', async () => {
  await stopProc(ward)
  const out = ward.output()
  assert.ok(!out.includes(token), 'the token is in the log')
  assert.ok(!out.includes(token.slice(0, 12)), 'part of the token is in the log')
  assert.match(out, /"url":"\/set-password\/\[redacted\]"/, 'the requests were logged')
})
