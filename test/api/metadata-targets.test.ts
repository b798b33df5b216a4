// Cloud metadata addresses are outside the target scope by default, as they are for callbacks and
// VPN hosts (issue 25, fault 7): POST /targets, POST /scans and /schedules with target_name and the
// web targets form refuse them in every spelling, whatever the operator's block list says; the
// allow list lifts the default; a target created while it was allowed is not scanned once it is not.
// No test here sends anything: the only scans run the diagnostic tool, which touches no network.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { pino } from 'pino'
import { startWard, tableCounts, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { startWorkerRole } from '../../src/cli/roles.js'
import { setPassword, signIn } from '../helpers/web.js'

const METADATA_TARGETS = [
  '169.254.169.254',
  'http://169.254.169.254/latest/meta-data/',
  'metadata.google.internal',
  'METADATA.GOOGLE.INTERNAL.',
  'https://metadata.google.internal/computeMetadata/v1/',
  'fd00:ec2::254',
  '[fd00:ec2::254]',
  'http://[fd00:ec2::254]/latest/meta-data/',
  '100.100.100.200',
  'fe80::1',
  // Other spellings of 169.254.169.254, normalised by the guard (bare, `0xa9fea9fe` is no valid name).
  'http://0251.0376.0251.0376/',
  'http://169.254.43518/',
  '::ffff:169.254.169.254',
  '::ffff:a9fe:a9fe',
  '64:ff9b::a9fe:a9fe',
  'http://0xa9fea9fe/latest/',
  'http://[::ffff:169.254.169.254]/',
  'http://2852039166/',
]

for (const [label, env] of [
  ['default settings', {}],
  ['an unrelated block list', { WARD_TARGET_BLOCKLIST: '10.0.0.0/8,blocked.example' }],
] as const) {
  describe(`metadata targets with ${label}`, () => {
    let w: TestWard
    before(async () => {
      w = await startWard({ worker: false, env })
      await setPassword(w, w.userId)
    })
    after(() => w.close())

    test('POST /targets, /scans and /schedules refuse every spelling with 403 and write nothing', async () => {
      const counts = await tableCounts(w)
      for (const name of METADATA_TARGETS) {
        const t = await w.req('POST', '/api/v2/targets', { body: { name } })
        assert.equal(t.statusCode, 403, `${name}: ${t.body}`)
        assert.match(t.json().message, /^Target is blacklisted: .* matches the block list entry ".* \(metadata\)"$/, name)
        const s = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: name } })
        assert.equal(s.statusCode, 403, `scan of ${name}: ${s.body}`)
        const sc = await w.req('POST', '/api/v2/schedules', { body: { tool_id: 9001, target_name: name, interval_minutes: 60 } })
        assert.equal(sc.statusCode, 403, `schedule of ${name}: ${sc.body}`)
        assert.equal(sc.json().status, 403)
      }
      assert.deepEqual(await tableCounts(w), counts)
      // Loopback and private networks stay scannable.
      assert.equal((await w.req('POST', '/api/v2/targets', { body: { name: '127.0.47.1' } })).statusCode, 201)
    })

    test('the web targets form refuses them in words', async () => {
      const s = await signIn(w)
      for (const name of ['169.254.169.254', 'metadata.google.internal', 'http://[fd00:ec2::254]/']) {
        const r = await s.post('/targets', { name })
        assert.equal(r.statusCode, 403, `${name}: ${r.body.slice(0, 300)}`)
        assert.match(r.body, /Target is blacklisted/)
      }
      const rows = await w.h.db.selectFrom('targets').select('name').execute()
      assert.ok(!rows.some((r) => /169\.254|metadata|fd00/.test(r.name)), JSON.stringify(rows))
    })
  })
}

describe('metadata targets with an allow list', () => {
  test('WARD_TARGET_ALLOWLIST=metadata lifts the default; a narrower CIDR lifts only its range', async () => {
    const all = await startWard({ worker: false, env: { WARD_TARGET_ALLOWLIST: 'metadata' } })
    try {
      for (const name of ['169.254.169.254', 'metadata.google.internal', 'fd00:ec2::254'])
        assert.equal((await all.req('POST', '/api/v2/targets', { body: { name } })).statusCode, 201, name)
    } finally {
      await all.close()
    }
    const narrow = await startWard({ worker: false, env: { WARD_TARGET_ALLOWLIST: '169.254.10.0/24' } })
    try {
      assert.equal((await narrow.req('POST', '/api/v2/targets', { body: { name: '169.254.10.7' } })).statusCode, 201)
      assert.equal((await narrow.req('POST', '/api/v2/targets', { body: { name: '169.254.169.254' } })).statusCode, 403)
    } finally {
      await narrow.close()
    }
  })

  test('a target created while metadata was allowed ends `failed to start` once it is not', async () => {
    // As after an upgrade: targets and scans made by a Ward that accepted metadata addresses.
    const w = await startWard({ worker: false, env: { WARD_TARGET_ALLOWLIST: 'metadata' } })
    try {
      const ids: number[] = []
      for (const name of ['169.254.169.254', 'http://0xa9fea9fe/latest/', 'metadata.google.internal']) {
        const r = await w.req('POST', '/api/v2/scans', {
          body: { tool_id: 9001, target_name: name, tool_params: { steps: 1, step_ms: 1 } },
        })
        assert.equal(r.statusCode, 201, `${name}: ${r.body}`)
        ids.push(r.json().data.created_id)
      }
      const config = { ...w.config, targetAllowlist: '' } // the upgrade: the default applies again
      const worker = await startWorkerRole({ db: w.h.db, dbKind: w.h.kind, config, log: pino({ level: 'silent' }) })
      try {
        for (const id of ids) {
          const s = await waitForScan(w, id, isTerminal, 15000)
          assert.equal(s.status_name, 'failed to start', JSON.stringify(s))
          assert.match(
            s.status_message,
            /is outside the allowed scope \(it matches the WARD_TARGET_BLOCKLIST entry "[^"]+ \(metadata\)"\); nothing was sent/,
          )
        }
      } finally {
        await worker.stop()
      }
    } finally {
      await w.close()
    }
  })
})
