import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import net from 'node:net'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const BIN = path.resolve('bin/ward.js')

function ward(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 30000,
  })
}

test('admin commands: user create, key create and revoke, workspace create', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-cli-'))
  const env = { WARD_DATABASE_URL: `sqlite:${path.join(dir, 'ward.db')}` }
  try {
    const u = ward(['admin', 'user', 'create', '--name', 'carol', '--max-targets', '5', '--license-expires', '2030-01-31'], env)
    assert.equal(u.status, 0, u.stderr)
    const userId = Number(/user id: (\d+)/.exec(u.stdout)?.[1])
    const key = /api key: (\S+)/.exec(u.stdout)?.[1]
    assert.ok(userId > 0 && key && key.length >= 32, u.stdout)
    const k = ward(['admin', 'key', 'create', '--user', String(userId)], env)
    assert.equal(k.status, 0, k.stderr)
    const key2 = /api key: (\S+)/.exec(k.stdout)![1]
    assert.notEqual(key2, key)
    const ws = ward(['admin', 'workspace', 'create', '--user', String(userId), '--name', 'Client A'], env)
    assert.equal(ws.status, 0, ws.stderr)
    assert.match(ws.stdout, /workspace id: \d+/)
    assert.equal(
      ward(['admin', 'workspace', 'create', '--user', String(userId), '--name', 'Client A'], env).status,
      2,
      'duplicate workspace',
    )
    const r = ward(['admin', 'key', 'revoke', '--key-prefix', key2.slice(0, 12)], env)
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /revoked 1/)
    // Usage errors: clear message, exit 2, nothing created.
    for (const args of [
      ['admin', 'user', 'create'],
      ['admin', 'user', 'create', '--name', 'x', '--max-targets', '-3'],
      ['admin', 'user', 'create', '--name', 'x', '--license-expires', 'tomorrow'],
      ['admin', 'key', 'create', '--user', '999'],
      ['admin', 'frobnicate'],
    ]) {
      const e = ward(args, env)
      assert.equal(e.status, 2, args.join(' '))
      assert.ok(e.stderr.trim().length > 0)
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a wrong configuration value stops start-up with one line naming the variable', () => {
  for (const [name, value] of [
    ['PORT', 'abc'],
    ['WARD_DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
    ['WARD_TARGET_BLOCKLIST', '10.0.0.0/99'],
    ['WARD_WORKER_CONCURRENCY', '0'],
  ]) {
    const r = ward(['all'], { [name]: value, WARD_DATABASE_URL: name === 'WARD_DATABASE_URL' ? value : 'sqlite::memory:' })
    assert.equal(r.status, 2, `${name}=${value}`)
    const lines = r.stderr.trim().split('\n')
    assert.equal(lines.length, 1, r.stderr)
    assert.match(lines[0], new RegExp(name))
  }
})

test('start on an empty database prints the first key once and serves the API', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-start-'))
  // With the Node options of `npm start` (package.json): the scan thread must start under them too.
  const startFlags = (JSON.parse(fs.readFileSync(path.join(path.dirname(BIN), '..', 'package.json'), 'utf8')).scripts.start as string)
    .split(' ')
    .filter((a) => a.startsWith('--'))
  assert.ok(startFlags.length > 0, 'npm start passes Node options')
  const child = spawn(process.execPath, [...startFlags, BIN, 'all'], {
    env: { ...process.env, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', WARD_DATABASE_URL: `sqlite:${path.join(dir, 'ward.db')}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  try {
    let out = ''
    const url = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20000)
      child.stdout.on('data', (d) => {
        out += d
        const m = /listening on (http:\/\/\S+\/api\/v2)/.exec(out)
        if (m) {
          clearTimeout(t)
          resolve(m[1])
        }
      })
    })
    const key = /(ward_[A-Za-z0-9_-]{20,})/.exec(out)?.[1]
    assert.ok(key, out)
    const r = await fetch(`${url}/targets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=www.example.com',
    })
    assert.equal(r.status, 201)
    assert.equal(r.headers.get('content-type'), 'application/json')
    child.kill('SIGTERM')
    const code = await new Promise((r) => child.on('exit', r))
    assert.equal(code, 0)
    // A second start on the same database creates no new key.
    const again = ward(['admin', 'key', 'revoke', '--key-prefix', key!.slice(0, 12)], {
      WARD_DATABASE_URL: `sqlite:${path.join(dir, 'ward.db')}`,
    })
    assert.equal(again.status, 0)
  } finally {
    child.kill('SIGKILL')
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('the first key is printed only once Ward listens; a start that fails on a busy port creates no user', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-busy-'))
  const db = `sqlite:${path.join(dir, 'ward.db')}`
  const busy = net.createServer()
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r))
  const port = (busy.address() as net.AddressInfo).port
  try {
    const failed = ward(['all'], { PORT: String(port), HOST: '127.0.0.1', WARD_DATABASE_URL: db })
    assert.notEqual(failed.status, 0, 'EADDRINUSE stops start-up')
    assert.doesNotMatch(failed.stdout + failed.stderr, /ward_[A-Za-z0-9_-]{20,}/, 'no key shown by a process that never served')
    const users = ward(['admin', 'user', 'list'], { WARD_DATABASE_URL: db })
    assert.equal(users.stdout.trim().split('\n').length, 1, `no user yet:\n${users.stdout}`)
    busy.close()
    // The next start, on a free port, creates the first user and shows its key; the one after says how to get one.
    for (const expect of [/API key \(shown once/, /no API key is shown: create one with `npx ward admin key create/]) {
      const child = spawn(process.execPath, [BIN, 'all'], {
        env: { ...process.env, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', WARD_DATABASE_URL: db },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let out = ''
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 30000)
        child.stdout.on('data', (d) => {
          out += d
          if (/listening on/.test(out)) {
            clearTimeout(t)
            resolve()
          }
        })
      })
      assert.match(out, expect)
      child.kill('SIGTERM')
      await new Promise((r) => child.on('exit', r))
    }
  } finally {
    busy.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
