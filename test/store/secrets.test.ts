// Secrets at rest: VPN passwords and report-callback secrets are sealed (AES-256-GCM, key from
// WARD_SECRET_KEY or an owner-only key file) in every row that holds them, on SQLite and PostgreSQL;
// rows an older Ward wrote in plain text are still read and are sealed at start; a wrong or missing
// key stops start-up with a clear error; the API, the logs and the reports never carry a secret.
// Listeners of this file are on 127.0.23.0/24.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { randomBytes, randomUUID } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { pino } from 'pino'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { ConfigError, loadConfig } from '../../src/config/config.js'
import { openDatabase } from '../../src/store/db.js'
import { SecretBox, SecretOpenError, isSealed, openSealedStrings, openSecret, sealSecret } from '../../src/store/secret-box.js'
import { secretsOf } from '../../src/store/secrets.js'
import { getVpnProfileForEgress } from '../../src/store/vpn-profiles.js'
import { startWorkerRole } from '../../src/cli/roles.js'
import { verifySignature } from '../../src/reports/callback-signing.js'
import { Type } from '@sinclair/typebox'
import { SecretParam, mapSecretParams, resolveToolParams } from '../../src/toolkit/params.js'
import type { ToolCatalogue, ToolManifest } from '../../src/toolkit/tool.js'
import { createScan } from '../../src/domain/scans.js'
import { parseScope } from '../../src/toolkit/scope.js'

const VPN_PASS = 'vpn-Pa55:wörd/at-rest'
const HOOK_SECRET = 'hook-S3cret-at-rest'
const SEALED = /^wardenc:v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/

const rowsText = async (w: TestWard) => {
  const db = w.h.db
  return JSON.stringify([
    await db.selectFrom('vpn_profiles').selectAll().execute(),
    await db.selectFrom('scans').selectAll().execute(),
    await db.selectFrom('callback_deliveries').selectAll().execute(),
    await db.selectFrom('callback_attempts').selectAll().execute(),
    await db.selectFrom('scan_logs').selectAll().execute(),
  ])
}

describe('the secret box', () => {
  const box = new SecretBox(randomBytes(32))
  test('seals into the versioned envelope and opens again; every seal has its own IV', () => {
    const a = sealSecret(box, 'pässword')
    const b = sealSecret(box, 'pässword')
    assert.match(a, SEALED)
    assert.notEqual(a, b)
    assert.ok(!a.includes('pässword') && isSealed(a))
    assert.equal(openSecret(box, a), 'pässword')
    assert.equal(openSecret(box, sealSecret(box, '')), '')
  })
  test('a plain value (a row of an older Ward) is read as it is', () => {
    assert.equal(openSecret(box, 'plain-old-secret'), 'plain-old-secret')
  })
  test('another key, a changed byte or an unknown version is an error that does not repeat the value', () => {
    const sealed = sealSecret(box, 'top-secret')
    const other = new SecretBox(randomBytes(32))
    assert.throws(
      () => openSecret(other, sealed),
      (e: Error) => e instanceof SecretOpenError && e.message.includes(other.keyId) && !e.message.includes('top-secret'),
    )
    const parts = sealed.split(':')
    const ct = Buffer.from(parts[4]!, 'base64url')
    ct[0]! ^= 1
    assert.throws(() => openSecret(box, [...parts.slice(0, 4), ct.toString('base64url')].join(':')), SecretOpenError)
    assert.throws(() => openSecret(box, sealed.replace('wardenc:v1:', 'wardenc:v9:')), /envelope this Ward does not know \(wardenc:v9:…\)/)
    assert.throws(() => openSecret(box, 'wardenc:v1:abc'), /incomplete envelope/)
  })
  test('openSealedStrings opens the sealed strings of a JSON value (sealed tool_params credentials)', () => {
    const v = { user: 'u', authentication: { password: sealSecret(box, 'pw'), headers: [sealSecret(box, 'Bearer t')] }, n: 3, off: null }
    assert.deepEqual(openSealedStrings(box, v), { user: 'u', authentication: { password: 'pw', headers: ['Bearer t'] }, n: 3, off: null })
  })
})

describe('configuration of the key', () => {
  const base = { WARD_DATABASE_URL: 'sqlite:/tmp/ward-x/ward.db' }
  test('by default the key file lies beside the SQLite file, in ./data for PostgreSQL, none for :memory:', () => {
    assert.equal(loadConfig(base).secretKeyFile, '/tmp/ward-x/ward-secret.key')
    assert.equal(loadConfig({ WARD_DATABASE_URL: 'postgres://ward@127.0.0.1/ward' }).secretKeyFile, 'data/ward-secret.key')
    assert.equal(loadConfig({ WARD_DATABASE_URL: 'sqlite::memory:' }).secretKeyFile, null)
    assert.equal(loadConfig({ ...base, WARD_SECRET_KEY_FILE: '/etc/ward/key' }).secretKeyFile, '/etc/ward/key')
  })
  test('WARD_SECRET_KEY: 32 bytes in base64 or base64url; anything else is refused without repeating it', () => {
    const key = randomBytes(32)
    assert.deepEqual(loadConfig({ ...base, WARD_SECRET_KEY: key.toString('base64') }).secretKey, key)
    assert.deepEqual(loadConfig({ ...base, WARD_SECRET_KEY: key.toString('base64url') }).secretKey, key)
    assert.equal(loadConfig({ ...base, WARD_SECRET_KEY: key.toString('base64') }).secretKeyFile, null)
    for (const bad of ['hunter2-hunter2', randomBytes(16).toString('base64'), randomBytes(33).toString('base64'), key.toString('hex')])
      assert.throws(
        () => loadConfig({ ...base, WARD_SECRET_KEY: bad }),
        (e: Error) =>
          e instanceof ConfigError && /^WARD_SECRET_KEY: must be 32 random bytes in base64/.test(e.message) && !e.message.includes(bad),
      )
    assert.throws(
      () => loadConfig({ ...base, WARD_SECRET_KEY: key.toString('base64'), WARD_SECRET_KEY_FILE: '/k' }),
      /set one of them, not both/,
    )
  })
})

describe('the key file of an embedded database', () => {
  let root: string
  before(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-secrets-'))))
  after(() => fs.rmSync(root, { recursive: true, force: true }))

  test('is created 0600 at the first start, holds 32 bytes in base64, and is reused afterwards', async () => {
    const file = path.join(root, 'first', 'data', 'ward.db')
    const keyFile = path.join(path.dirname(file), 'ward-secret.key')
    const old = process.umask(0o022)
    let keyId: string
    try {
      const h = await openDatabase({ kind: 'sqlite', file })
      keyId = secretsOf(h.db).keyId
      await h.close()
    } finally {
      process.umask(old)
    }
    assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600)
    assert.equal(Buffer.from(fs.readFileSync(keyFile, 'utf8').trim(), 'base64').length, 32)
    assert.deepEqual(
      fs.readdirSync(path.dirname(file)).filter((n) => n.endsWith('.tmp')),
      [],
      'no temporary file left behind',
    )
    const again = await openDatabase({ kind: 'sqlite', file })
    assert.equal(secretsOf(again.db).keyId, keyId)
    await again.close()
  })

  test('a missing, unreadable or wrong key stops start-up with a clear error', async () => {
    const file = path.join(root, 'wrong', 'ward.db')
    const keyFile = path.join(path.dirname(file), 'ward-secret.key')
    const h = await openDatabase({ kind: 'sqlite', file })
    const id = secretsOf(h.db).keyId
    await h.close()
    const original = fs.readFileSync(keyFile)

    await assert.rejects(
      openDatabase({ kind: 'sqlite', file }, { secrets: { secretKey: randomBytes(32), secretKeyFile: null } }),
      (e: Error) => {
        assert.ok(e instanceof ConfigError)
        assert.match(
          e.message,
          new RegExp(
            `^WARD_SECRET_KEY holds key [0-9a-f]{12}, but this database's secrets are sealed with key ${id}: start Ward with that key`,
          ),
        )
        return true
      },
    )

    fs.writeFileSync(keyFile, randomBytes(32).toString('base64'))
    await assert.rejects(
      openDatabase({ kind: 'sqlite', file }),
      (e: Error) =>
        e instanceof ConfigError &&
        e.message.startsWith(`the key file ${keyFile} holds key`) &&
        e.message.includes(`sealed with key ${id}`),
    )

    fs.writeFileSync(keyFile, 'not a key\n')
    await assert.rejects(
      openDatabase({ kind: 'sqlite', file }),
      (e: Error) =>
        e instanceof ConfigError &&
        e.message ===
          `WARD_SECRET_KEY_FILE: the key file ${keyFile} must hold 32 random bytes in base64, e.g. from \`openssl rand -base64 32\``,
    )

    fs.rmSync(keyFile)
    await assert.rejects(
      openDatabase({ kind: 'sqlite', file }),
      (e: Error) =>
        e instanceof ConfigError &&
        e.message.startsWith(
          `WARD_SECRET_KEY_FILE: the key file ${keyFile} does not exist, but this database's secrets are sealed with a key`,
        ),
    )
    assert.ok(!fs.existsSync(keyFile), 'no new key was made for a database that has one')

    fs.writeFileSync(keyFile, original)
    const ok = await openDatabase(
      { kind: 'sqlite', file },
      { secrets: { secretKey: Buffer.from(original.toString().trim(), 'base64'), secretKeyFile: null } },
    )
    assert.equal(secretsOf(ok.db).keyId, id, 'the same key given as WARD_SECRET_KEY opens the database')
    await ok.close()
  })

  test('`ward all` with the wrong key exits 2 with one line naming the problem', () => {
    const dir = path.join(root, 'cli')
    const key = randomBytes(32).toString('base64')
    const env = {
      ...process.env,
      LOG_LEVEL: 'silent',
      HOST: '127.0.23.9',
      PORT: '0',
      WARD_DATABASE_URL: `sqlite:${path.join(dir, 'ward.db')}`,
    }
    const first = spawnSync(process.execPath, ['bin/ward.js', 'admin', 'user', 'list'], {
      env: { ...env, WARD_SECRET_KEY: key },
      encoding: 'utf8',
      timeout: 60000,
    })
    assert.equal(first.status, 0, first.stderr)
    const r = spawnSync(process.execPath, ['bin/ward.js', 'all'], {
      env: { ...env, WARD_SECRET_KEY: randomBytes(32).toString('base64') },
      encoding: 'utf8',
      timeout: 60000,
    })
    assert.equal(r.status, 2, r.stderr)
    assert.match(
      r.stderr,
      /^ward: configuration error: WARD_SECRET_KEY holds key [0-9a-f]{12}, but this database's secrets are sealed with key [0-9a-f]{12}: .*\n$/,
    )
    assert.ok(!r.stderr.includes(key) && !r.stderr.includes(' at '), r.stderr)
  })
})

interface Receiver {
  url: string
  got: Array<{ headers: http.IncomingHttpHeaders; body: Buffer }>
  close(): Promise<void>
}

async function receiver(host: string): Promise<Receiver> {
  const got: Receiver['got'] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks) })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}

describe('secrets in the database, the API, the logs and the reports', () => {
  let w: TestWard
  let rx: Receiver
  let worker: Awaited<ReturnType<typeof startWorkerRole>>
  const logLines: string[] = []
  before(async () => {
    w = await startWard({ worker: false })
    // The worker and callback sender log at trace level into logLines.
    worker = await startWorkerRole({
      db: w.h.db,
      dbKind: w.h.kind,
      config: w.config,
      log: pino({ level: 'trace' }, { write: (l: string) => void logLines.push(l) }),
    })
    rx = await receiver('127.0.23.1')
  })
  after(async () => {
    await worker.stop()
    await w.close()
    await rx.close()
  })

  test('VPN passwords are sealed in their rows, never returned, and opened only for the egress', async () => {
    const socks = await w.req('POST', '/api/v2/vpn_profiles', {
      body: { name: 'rest-socks', type: 'socks5', host: '127.0.23.2', port: 1080, username: 'u', password: VPN_PASS },
    })
    assert.equal(socks.statusCode, 201, socks.body)
    const httpP = await w.req('POST', '/api/v2/vpn_profiles', {
      body: { name: 'rest-http', type: 'http_connect', url: `http://u:${encodeURIComponent(VPN_PASS)}@127.0.23.3:3128` },
    })
    assert.equal(httpP.statusCode, 201, httpP.body)
    for (const uuid of [socks.json().data.created_id, httpP.json().data.created_id]) {
      const row = await w.h.db.selectFrom('vpn_profiles').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow()
      assert.match(row.password!, SEALED)
      assert.ok(
        !JSON.stringify(row).includes(VPN_PASS) && !JSON.stringify(row).includes(encodeURIComponent(VPN_PASS)),
        'no column holds the password',
      )
      const one = await w.req('GET', `/api/v2/vpn_profiles/${uuid}`)
      assert.equal(one.json().data.has_password, true)
      assert.ok(!one.body.includes(VPN_PASS) && !one.body.includes('wardenc:'), one.body)
      assert.equal((await getVpnProfileForEgress(w.h.db, uuid))!.password, VPN_PASS)
    }
    const list = await w.req('GET', '/api/v2/vpn_profiles')
    assert.equal(list.json().data.length, 2)
    assert.ok(!list.body.includes(VPN_PASS) && !list.body.includes('wardenc:'), list.body)
  })

  test('a callback secret is sealed in scans.report_callback and callback_deliveries.secret, and still signs the delivery', async () => {
    const r = await w.req('POST', '/api/v2/scans', {
      body: {
        tool_id: 9001,
        target_name: '127.0.23.4',
        tool_params: { steps: 2, step_ms: 5 },
        report_callback: { url: rx.url, format: 'json', secret: HOOK_SECRET },
      },
    })
    assert.equal(r.statusCode, 201, r.body)
    const id = r.json().data.created_id as number
    const stored = await w.h.db.selectFrom('scans').select('report_callback').where('id', '=', id).executeTakeFirstOrThrow()
    const cb = JSON.parse(stored.report_callback!)
    assert.equal(cb.url, rx.url)
    assert.match(cb.secret, SEALED)
    await waitForScan(w, id, isTerminal)
    const until = Date.now() + 15000
    while (!rx.got.length && Date.now() < until) await new Promise((res) => setTimeout(res, 25))
    assert.equal(rx.got.length, 1, 'delivered')
    assert.ok(
      verifySignature(HOOK_SECRET, rx.got[0]!.body, String(rx.got[0]!.headers['x-ward-signature'])),
      'signed with the opened secret',
    )
    const d = await w.h.db.selectFrom('callback_deliveries').selectAll().where('scan_id', '=', id).executeTakeFirstOrThrow()
    assert.match(d.secret!, SEALED)
    assert.ok(!(await rowsText(w)).includes(HOOK_SECRET), 'no row holds the callback secret')

    // Nothing the API serves about the scan carries it: the scan, the list, deliveries, outputs in every format.
    const reads: Array<[string, Record<string, string>]> = [
      [`/api/v2/scans/${id}`, {}],
      ['/api/v2/scans', {}],
      [`/api/v2/scans/${id}/callbacks`, {}],
      [`/api/v2/scans/${id}/raw`, {}],
      ...['application/json', 'application/sarif+json', 'text/csv', 'application/xml', 'text/markdown', 'application/pdf'].map(
        (a): [string, Record<string, string>] => [`/api/v2/scans/${id}/output`, { accept: a }],
      ),
    ]
    for (const [url, headers] of reads) {
      const res = await w.req('GET', url, { headers })
      assert.equal(res.statusCode, 200, `${url} ${headers.accept ?? ''}: ${res.body.slice(0, 200)}`)
      assert.ok(
        !res.rawPayload.includes(HOOK_SECRET) && !res.rawPayload.includes('wardenc:'),
        `${url} ${headers.accept ?? ''} carries no secret`,
      )
    }
    assert.ok(
      logLines.some((l) => l.includes('report callback attempt')),
      'the sender logged its attempt',
    )
    assert.ok(!logLines.join('\n').includes(HOOK_SECRET), 'no log line holds the secret')
  })

  test('plain rows written by an older Ward are read, and sealed at start', async () => {
    const db = w.h.db
    const now = new Date().toISOString()
    const uuid = randomUUID()
    await db
      .insertInto('vpn_profiles')
      .values({
        uuid,
        user_id: w.userId,
        name: 'legacy',
        type: 'socks5',
        host: '127.0.23.5',
        port: 1080,
        username: 'old',
        password: 'legacy-vpn-pass',
        url: null,
        created_at: now,
      })
      .execute()
    assert.equal((await getVpnProfileForEgress(db, uuid))!.password, 'legacy-vpn-pass', 'a plain row is read as it is')
    const r = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 9001, target_name: '127.0.23.6', tool_params: { steps: 1, step_ms: 5 } },
    })
    const scanId = r.json().data.created_id as number
    await waitForScan(w, scanId, isTerminal)
    // As an older Ward stored them: the callback with its secret in clear, in the scan and in a delivery.
    await db
      .updateTable('scans')
      .set({ report_callback: JSON.stringify({ url: 'http://127.0.23.7:9/old', format: 'json', secret: 'legacy-hook-secret' }) })
      .where('id', '=', scanId)
      .execute()
    await db.deleteFrom('callback_deliveries').where('scan_id', '=', scanId).execute()
    await db
      .insertInto('callback_deliveries')
      .values({
        scan_id: scanId,
        event_id: randomUUID(),
        url: 'http://127.0.23.7:9/old',
        format: 'json',
        secret: 'legacy-hook-secret',
        status: 'delivered',
        attempts: 1,
        next_attempt_at: now,
        lease_owner: null,
        lease_expires_at: null,
        last_status_code: 200,
        last_error: null,
        created_at: now,
        delivered_at: now,
      })
      .execute()
    assert.ok((await rowsText(w)).includes('legacy-vpn-pass'))

    // A later start seals the profiles (and scans not yet ended, pending deliveries: where an older
    // process beside this one could still write); the first start with a key seals every row.
    const later = await openDatabase(w.config.db, { secrets: w.config, notify: false })
    await later.close()
    assert.match(
      (await db.selectFrom('vpn_profiles').select('password').where('uuid', '=', uuid).executeTakeFirstOrThrow()).password!,
      SEALED,
    )
    await db.deleteFrom('secret_key_check').execute() // as in a database of a Ward from before sealing
    const again = await openDatabase(w.config.db, { secrets: w.config, notify: false })
    try {
      assert.equal((await db.selectFrom('secret_key_check').select('key_id').executeTakeFirstOrThrow()).key_id, secretsOf(w.h.db).keyId)
      const text = await rowsText(w)
      assert.ok(!text.includes('legacy-vpn-pass') && !text.includes('legacy-hook-secret'), 'sealed at start')
      const box = secretsOf(again.db)
      const p = await db.selectFrom('vpn_profiles').select('password').where('uuid', '=', uuid).executeTakeFirstOrThrow()
      assert.equal(box.open(p.password!), 'legacy-vpn-pass')
      const s = JSON.parse(
        (await db.selectFrom('scans').select('report_callback').where('id', '=', scanId).executeTakeFirstOrThrow()).report_callback!,
      )
      assert.deepEqual(
        { ...s, secret: box.open(s.secret) },
        { url: 'http://127.0.23.7:9/old', format: 'json', secret: 'legacy-hook-secret' },
      )
      const d = await db.selectFrom('callback_deliveries').select('secret').where('scan_id', '=', scanId).executeTakeFirstOrThrow()
      assert.equal(box.open(d.secret!), 'legacy-hook-secret')
    } finally {
      await again.close()
    }
  })

  test('a second process given another key refuses to start on this database', async () => {
    await assert.rejects(
      openDatabase(w.config.db, { secrets: { secretKey: randomBytes(32), secretKeyFile: null }, notify: false }),
      (e: Error) => e instanceof ConfigError && /but this database's secrets are sealed with key [0-9a-f]{12}/.test(e.message),
    )
  })
})

describe('scan credentials: tool_params members declared SecretParam', () => {
  const Params = Type.Object(
    {
      login: Type.String(),
      password: SecretParam({ minLength: 8, pattern: '^[^\\s]+$', description: 'no spaces' }),
      session: Type.Optional(Type.Object({ cookies: Type.Array(SecretParam()), note: Type.String() })),
    },
    { additionalProperties: false },
  )
  test('mapSecretParams reaches the write-only strings only, nested ones included', () => {
    const v = { login: 'admin', password: 'pw-123456', session: { cookies: ['a=1', 'b=2'], note: 'n' } }
    assert.deepEqual(
      mapSecretParams(Params, v, (x) => `<${x}>`),
      { login: 'admin', password: '<pw-123456>', session: { cookies: ['<a=1>', '<b=2>'], note: 'n' } },
    )
  })
  test('a message about a bad secret member does not repeat it', () => {
    for (const bad of ['short', 'has spaces in it']) {
      const r = resolveToolParams(Params, { login: 'admin', password: bad })
      assert.equal(r.ok, false)
      assert.ok(
        !r.ok &&
          r.message.startsWith('tool_params.password ') &&
          r.message.endsWith('(the value is not shown: it is a secret)') &&
          !r.message.includes(bad),
        !r.ok ? r.message : '',
      )
    }
  })
  test('are stored sealed when the scan is queued, and reach the tool opened', async () => {
    const w = await startWard({ worker: false })
    const seen: unknown[] = []
    const probe: ToolManifest<typeof Params> = {
      id: 9901,
      name: 'Credentials probe',
      description: 'Records the tool_params it is given.',
      params: Params,
      checks: [],
      supportsMaxScanTime: false,
      needs: {},
      restartable: true,
      load: async () => async (ctx) => void seen.push(ctx.params),
    }
    const tools: ToolCatalogue = {
      get: (id) => (id === 9901 ? (probe as unknown as ToolManifest) : undefined),
      ids: () => [9901],
      all: () => [probe as unknown as ToolManifest],
    }
    const worker = await startWorkerRole({
      db: w.h.db,
      dbKind: w.h.kind,
      config: w.config,
      log: pino({ level: 'silent' }),
      tools,
      callbacks: false,
    })
    try {
      const caller = { userId: w.userId, keyHash: '', activeWorkspaceId: w.workspaceId, maxTargets: 100, licenseExpires: null }
      const params = { login: 'admin', password: 'S3cret-login-pw', session: { cookies: ['sid=S3cret-cookie'], note: 'kept' } }
      const { scanId } = await createScan(
        w.h.db,
        caller,
        { tools, targetBlocklist: parseScope('WARD_TARGET_BLOCKLIST', ''), callbackBlocklist: parseScope('WARD_CALLBACK_BLOCKLIST', '') },
        { tool_id: 9901, target_name: '127.0.23.8', tool_params: params },
      )
      const until = Date.now() + 15000
      let row = await w.h.db.selectFrom('scans').selectAll().where('id', '=', scanId).executeTakeFirstOrThrow()
      const stored = JSON.parse(row.tool_params)
      assert.match(stored.password, SEALED)
      assert.match(stored.session.cookies[0], SEALED)
      assert.equal(stored.login, 'admin')
      assert.equal(stored.session.note, 'kept')
      while (!seen.length && Date.now() < until) await new Promise((r) => setTimeout(r, 25))
      assert.deepEqual(seen, [params], 'the tool got the credentials opened')
      while (row.status !== 'finished' && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 25))
        row = await w.h.db.selectFrom('scans').selectAll().where('id', '=', scanId).executeTakeFirstOrThrow()
      }
      assert.equal(row.status, 'finished', row.status_message ?? '')
      assert.ok(!(await rowsText(w)).includes('S3cret-'), 'no row holds a credential')
    } finally {
      await worker.stop()
      await w.close()
    }
  })
})
