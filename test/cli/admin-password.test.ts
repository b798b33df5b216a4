// `ward admin user create --password-stdin` and `ward admin user set-password`: web sign-in passwords
// read from standard input (never from argv), hashed with scrypt; a one-time set-password link.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { verifyPassword } from '../../src/domain/passwords.js'

const BIN = path.resolve('bin/ward.js')
let dir: string
let env: Record<string, string>
const ward = (input: string | null, ...args: string[]) =>
  spawnSync(process.execPath, [BIN, 'admin', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 30000,
    input: input ?? '',
  })
const hashOf = (id: number) => {
  const db = new SQLite(path.join(dir, 'ward.db'), { readonly: true })
  try {
    return (db.prepare('select password_hash from users where id = ?').get(id) as { password_hash: string | null }).password_hash
  } finally {
    db.close()
  }
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-admin-pw-'))
  env = { WARD_DATABASE_URL: `sqlite:${path.join(dir, 'ward.db')}`, HOST: '127.0.25.1', PORT: '8080' }
})
after(() => fs.rmSync(dir, { recursive: true, force: true }))

test('user create --password-stdin stores a scrypt hash of the line read from stdin', async () => {
  const r = ward('first long password\n', 'user', 'create', '--name', 'erin', '--password-stdin')
  assert.equal(r.status, 0, r.stderr)
  assert.match(r.stdout, /web sign-in: password set/)
  const id = Number(/user id: (\d+)/.exec(r.stdout)![1])
  const h = hashOf(id)
  assert.match(h!, /^scrypt\$/)
  assert.equal(await verifyPassword('first long password', h), true)
  const short = ward('short\n', 'user', 'create', '--name', 'fred', '--password-stdin')
  assert.equal(short.status, 2)
  assert.match(short.stderr, /at least 10 characters/)
  assert.doesNotMatch(ward(null, 'user', 'list').stdout, /fred/, 'nothing created')
})

test('user set-password replaces the password from stdin, or prints a one-time link', async () => {
  const id = Number(/user id: (\d+)/.exec(ward(null, 'user', 'create', '--name', 'gina').stdout)![1])
  assert.equal(hashOf(id), null)
  const r = ward('second long password\n', 'user', 'set-password', '--user', String(id), '--password-stdin')
  assert.equal(r.status, 0, r.stderr)
  assert.equal(await verifyPassword('second long password', hashOf(id)), true)
  const link = ward(null, 'user', 'set-password', '--user', String(id), '--link')
  assert.equal(link.status, 0, link.stderr)
  assert.match(link.stdout, /http:\/\/127\.0\.25\.1:8080\/set-password\/[\w-]{43}/)
  assert.equal(ward(null, 'user', 'set-password', '--user', String(id)).status, 2)
  assert.match(ward('x long password\n', 'user', 'set-password', '--user', '999', '--password-stdin').stderr, /does not exist/)
})
