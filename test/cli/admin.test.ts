// `ward admin`: lists, limits, and revocations an admin can trust (a short prefix of an active key
// revokes it; an ambiguous one names the candidates), with real dates and unique user names.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'

const BIN = path.resolve('bin/ward.js')
let dir: string
let env: Record<string, string>
const ward = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, 'admin', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 30000,
  })

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-admin-'))
  env = { WARD_DATABASE_URL: `sqlite:${path.join(dir, 'ward.db')}` }
})
after(() => fs.rmSync(dir, { recursive: true, force: true }))

const created = (r: ReturnType<typeof ward>) => {
  assert.equal(r.status, 0, r.stderr)
  return { userId: Number(/user id: (\d+)/.exec(r.stdout)![1]), key: /api key: (\S+)/.exec(r.stdout)![1]! }
}
const activeKeys = () => {
  const db = new SQLite(path.join(dir, 'ward.db'), { readonly: true })
  try {
    return (db.prepare('select key_prefix from api_keys where revoked_at is null').all() as Array<{ key_prefix: string }>).map(
      (r) => r.key_prefix,
    )
  } finally {
    db.close()
  }
}

test('user names are unique and licence dates are real calendar dates', () => {
  created(ward('user', 'create', '--name', 'dave', '--license-expires', '2028-02-29'))
  const dup = ward('user', 'create', '--name', 'Dave')
  assert.equal(dup.status, 2)
  assert.match(dup.stderr, /already exists/)
  for (const bad of ['2027-02-30', '2027-13-01', '2027-1-1', 'soon']) {
    const r = ward('user', 'create', '--name', `eve-${bad}`, '--license-expires', bad)
    assert.equal(r.status, 2, bad)
    assert.match(r.stderr, /calendar date/)
  }
  const list = ward('user', 'list')
  assert.equal(list.status, 0, list.stderr)
  assert.match(list.stdout, /^id\s+name\s+max_targets\s+license_expires\s+active_keys/)
  assert.match(list.stdout, /\bdave\s+\d+\s+2028-02-29\s+1\b/)
  assert.doesNotMatch(list.stdout, /eve-/)
})

test('user set changes the licence and the target limit', () => {
  const { userId } = created(ward('user', 'create', '--name', 'frank'))
  assert.equal(ward('user', 'set', '--user', String(userId), '--license-expires', '2031-12-31', '--max-targets', '7').status, 0)
  assert.match(ward('user', 'list').stdout, /\bfrank\s+7\s+2031-12-31\b/)
  assert.equal(ward('user', 'set', '--user', String(userId), '--license-expires', 'none').status, 0)
  assert.match(ward('user', 'list').stdout, /\bfrank\s+7\s+-\s/)
  assert.equal(ward('user', 'set', '--user', '999', '--max-targets', '3').status, 2)
  assert.equal(ward('user', 'set', '--user', String(userId), '--license-expires', '2031-02-31').status, 2)
})

test('revoke by any unique prefix of 8+ characters, by the whole key or by id; ambiguity names the matches', () => {
  const { userId, key } = created(ward('user', 'create', '--name', 'grace'))
  // 8 characters of an active key: revoked, and said so (it used to claim no key matched).
  const r8 = ward('key', 'revoke', '--key-prefix', key.slice(0, 8 + 2))
  assert.equal(r8.status, 0, r8.stderr)
  assert.match(r8.stdout, /revoked 1 key/)
  assert.ok(!activeKeys().includes(key.slice(0, 12)))
  // Every key starts with "ward_": a prefix shared by several keys is refused and names them.
  const k2 = /api key: (\S+)/.exec(ward('key', 'create', '--user', String(userId)).stdout)![1]!
  const amb = ward('key', 'revoke', '--key-prefix', 'ward_')
  assert.equal(amb.status, 2)
  assert.match(amb.stderr, /needs at least the first 8/)
  // Another active key sharing k2's first 10 characters (written directly: key ids are random).
  const db = new SQLite(path.join(dir, 'ward.db'))
  db.prepare('insert into api_keys (user_id, key_hash, key_prefix, created_at, revoked_at) values (?, ?, ?, ?, null)').run(
    userId,
    'f'.repeat(64),
    k2.slice(0, 10) + '~~',
    new Date().toISOString(),
  )
  db.close()
  const common = ward('key', 'revoke', '--key-prefix', k2.slice(0, 10))
  assert.equal(common.status, 2)
  assert.match(common.stderr, /matches 2 active keys: id \d+ \(/)
  assert.ok(activeKeys().includes(k2.slice(0, 12)), 'nothing revoked on an ambiguous prefix')
  // The whole key.
  const k3 = /api key: (\S+)/.exec(ward('key', 'create', '--user', String(userId)).stdout)![1]!
  assert.equal(ward('key', 'revoke', '--key-prefix', k3).status, 0)
  assert.ok(!activeKeys().includes(k3.slice(0, 12)))
  // By id, shown by key list; a second revocation says it already was.
  const list = ward('key', 'list', '--user', String(userId))
  assert.equal(list.status, 0, list.stderr)
  const row = list.stdout.split('\n').find((l) => l.includes(k2.slice(0, 12)))!
  assert.ok(row, list.stdout)
  const id = row.trim().split(/\s+/)[0]!
  assert.match(row, /\s-$/, 'active: no revoked_at')
  assert.equal(ward('key', 'revoke', '--key-id', id).status, 0)
  const again = ward('key', 'revoke', '--key-id', id)
  assert.equal(again.status, 2)
  assert.match(again.stderr, /already revoked/)
  assert.equal(ward('key', 'revoke', '--key-id', id, '--key-prefix', k2).status, 2, 'one of the two')
  assert.equal(ward('key', 'revoke', '--key-prefix', 'ward_zzzzzzzz').status, 2)
})
