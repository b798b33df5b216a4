// The `ward` command line is parsed by commander everywhere: an unknown option, a stray argument or an
// unknown command is an error naming it, exit 2, and nothing runs; --help lists the commands.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const BIN = path.resolve('bin/ward.js')
let dir: string
let env: Record<string, string>
const ward = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, encoding: 'utf8', timeout: 30000 })

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-parser-'))
  env = { WARD_DATABASE_URL: `sqlite:${path.join(dir, 'ward.db')}`, PORT: '0', HOST: '127.0.0.1' }
})
after(() => fs.rmSync(dir, { recursive: true, force: true }))

test('an unknown option of an admin command is an error naming it, and creates nothing', () => {
  const r = ward('admin', 'user', 'create', '--alice')
  assert.equal(r.status, 2, r.stdout)
  assert.match(r.stderr, /ward admin user create: unknown option '--alice'/)
  const named = ward('admin', 'user', 'create', '--name', 'alice', '--alcie')
  assert.equal(named.status, 2)
  assert.match(named.stderr, /unknown option '--alcie'/)
  const list = ward('admin', 'user', 'list')
  assert.equal(list.status, 0, list.stderr)
  assert.doesNotMatch(list.stdout, /alice/, 'no user was created')
})

test('stray arguments and unknown commands are errors naming them', () => {
  const stray = ward('admin', 'user', 'create', '--name', 'bob', 'extra')
  assert.equal(stray.status, 2)
  assert.match(stray.stderr, /too many arguments/)
  assert.doesNotMatch(ward('admin', 'user', 'list').stdout, /\bbob\b/)
  const unknown = ward('admin', 'usr', 'create')
  assert.equal(unknown.status, 2)
  assert.match(unknown.stderr, /unknown command 'usr'/)
  const missing = ward('admin', 'kev', 'import')
  assert.equal(missing.status, 2)
  assert.match(missing.stderr, /missing required argument 'file'/)
})

test('a role command refuses an unknown option instead of starting', () => {
  for (const args of [['all', '--bogus'], ['serve', '--no-callbacks'], ['--port', '8080'], ['frobnicate']]) {
    const r = ward(...args)
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`)
    assert.match(
      r.stderr,
      new RegExp(
        args[0] === 'frobnicate' ? "unknown command 'frobnicate'" : `unknown option '${args.at(-1) === '8080' ? '--port' : args.at(-1)}'`,
      ),
    )
    assert.doesNotMatch(r.stdout, /listening/)
  }
})

test('--help and help list the commands, exit 0, and need no configuration', () => {
  for (const args of [['--help'], ['help']]) {
    const r = spawnSync(process.execPath, [BIN, ...args], {
      env: { ...process.env, WARD_DATABASE_URL: 'mysql://not-a-backend' },
      encoding: 'utf8',
      timeout: 30000,
    })
    assert.equal(r.status, 0, r.stderr)
    for (const c of ['all', 'serve', 'worker', 'callbacks', 'admin', 'scan'])
      assert.match(r.stdout, new RegExp(`^  ${c}\\b`, 'm'), `${args.join(' ')} lists ${c}`)
  }
  const admin = ward('admin', '--help')
  assert.equal(admin.status, 0)
  for (const c of ['user', 'key', 'workspace', 'kev', 'cve', 'epss', 'templates']) assert.match(admin.stdout, new RegExp(`^  ${c}\\b`, 'm'))
  const create = ward('admin', 'user', 'create', '--help')
  assert.equal(create.status, 0)
  for (const o of ['--name', '--max-targets', '--license-expires', '--password-stdin']) assert.ok(create.stdout.includes(o), o)
})
