// The scope rules through the API and the worker, as an operator meets them: each "what was seen"
// of the hardening issue, by entry point. Creation refuses every spelling of a blocked address; a
// target, VPN profile or callback created before its range was blocked is refused when the scan
// starts or the delivery is attempted, and nothing reaches it. Loopback addresses: 127.0.20.x.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { pino } from 'pino'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { startWorkerRole } from '../../src/cli/roles.js'
import { buildApp } from '../../src/api/app.js'
import { scopesOf } from '../../src/toolkit/scope.js'
import { createToolCatalogue } from '../../src/tools/registry.js'
import { resolveVpnProfile } from '../../src/domain/vpn.js'
import { startSocks5Proxy, startTargets, type Targets, type TestProxy } from '../testbed/proxies.js'

const METADATA_CALLBACKS = [
  'http://169.254.169.254/latest/meta-data/iam/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/latest/',
  'http://[0:0:0:0:0:ffff:a9fe:a9fe]/',
  'http://0xa9fea9fe/',
  'http://2852039166/',
  'http://0251.0376.0251.0376/',
  'http://169.254.43518/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://METADATA.GOOGLE.INTERNAL./',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'https://[fe80::1]/',
]

const post = (w: TestWard, body: Record<string, unknown>) =>
  w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: '127.0.0.1', ...body } })

describe('with default settings', () => {
  let w: TestWard
  before(async () => (w = await startWard({ worker: false })))
  after(() => w.close())

  test('a report callback to a metadata address is refused in every spelling', async () => {
    for (const url of METADATA_CALLBACKS) {
      const r = await post(w, { report_callback: { url } })
      assert.equal(r.statusCode, 400, `${url}: ${r.body}`)
      assert.match(r.json().message, /report_callback\.url is blocked: .* matches the callback block list entry ".*\(metadata\)"/, url)
    }
    // Loopback and private receivers stay allowed by default.
    assert.equal((await post(w, { report_callback: { url: 'http://127.0.20.20:8080/hook' } })).statusCode, 201)
  })

  test('a VPN profile whose host is a metadata address is refused in every spelling', async () => {
    const hosts = [
      '169.254.169.254',
      '::ffff:169.254.169.254',
      '[::ffff:a9fe:a9fe]',
      '0xa9fea9fe',
      '2852039166',
      'metadata.google.internal',
      'fd00:ec2::254',
    ]
    for (const host of hosts) {
      const r = await w.req('POST', '/api/v2/vpn_profiles', { body: { name: `p-${host}`, type: 'socks5', host, port: 1080 } })
      assert.equal(r.statusCode, 400, `${host}: ${r.body}`)
      assert.match(r.json().message, /may not be used as a VPN proxy: it matches the VPN host block list entry/)
    }
    for (const url of ['http://[::ffff:169.254.169.254]:3128', 'http://0xa9fea9fe:3128', 'https://metadata.google.internal:443']) {
      const r = await w.req('POST', '/api/v2/vpn_profiles', { body: { name: `u-${url}`, type: 'http_connect', url } })
      assert.equal(r.statusCode, 400, `${url}: ${r.body}`)
    }
    const ok = await w.req('POST', '/api/v2/vpn_profiles', { body: { name: 'office', type: 'socks5', host: '127.0.20.30', port: 1080 } })
    assert.equal(ok.statusCode, 201, ok.body)
  })

  test('targets: loopback scanning stays allowed by default', async () => {
    for (const name of ['127.0.20.9', 'localhost', '::1', 'http://0x7f.1/']) {
      const r = await w.req('POST', '/api/v2/targets', { body: { name } })
      assert.equal(r.statusCode, 201, `${name}: ${r.body}`)
    }
  })
})

describe('with block lists set', () => {
  let w: TestWard
  before(
    async () =>
      (w = await startWard({
        worker: false,
        env: { WARD_TARGET_BLOCKLIST: '127.0.20.0/24,::1,169.254.0.0/16', WARD_CALLBACK_BLOCKLIST: '127.0.0.0/8,::1' },
      })),
  )
  after(() => w.close())

  const TARGETS = [
    '::ffff:169.254.169.254',
    'http://[::ffff:169.254.169.254]/',
    '0:0:0:0:0:ffff:7f00:1409',
    'http://[0:0:0:0:0:ffff:7f00:1409]:8080/',
    'http://0x7f.0.20.9/',
    'http://2130711561/',
    'http://0177.0.024.011/',
    'http://127.5129/',
    '::',
    'http://[::]/',
    'localhost',
    'LOCALHOST.',
    'http://localhost:8080/admin',
  ]

  test('a target is refused in every spelling, by POST /targets and by POST /scans target_name', async () => {
    for (const name of TARGETS) {
      const r = await w.req('POST', '/api/v2/targets', { body: { name } })
      assert.equal(r.statusCode, 403, `${name}: ${r.body}`)
      assert.match(r.json().message, /^Target is blacklisted: /)
      const s = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: name } })
      assert.equal(s.statusCode, 403, `scan of ${name}: ${s.body}`)
    }
    assert.equal(
      Number(
        (
          await w.h.db
            .selectFrom('targets')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      0,
    )
  })

  test('a report callback is refused in every spelling of a blocked address', async () => {
    for (const url of [
      'http://localhost:8080/',
      'http://[::]:8080/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
      'http://0x7f.1/',
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://0.0.0.0/',
      'http://0/',
    ]) {
      const r = await post(w, { target_name: '192.0.2.1', report_callback: { url } })
      assert.equal(r.statusCode, 400, `${url}: ${r.body}`)
    }
  })
})

describe('rules changed after creation: enforced when the scan starts and on delivery', () => {
  let w: TestWard
  let bed: Targets
  let proxy: TestProxy
  let receiver: http.Server
  let hits = 0
  let receiverUrl = ''
  before(async () => {
    bed = await startTargets('127.0.20.9')
    proxy = await startSocks5Proxy({ host: '127.0.20.30', outboundAddress: '127.0.20.98' })
    receiver = http.createServer((_req, res) => {
      hits++
      res.end()
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.20.20', () => r()))
    receiverUrl = `http://127.0.20.20:${(receiver.address() as AddressInfo).port}/hook`
    w = await startWard({ worker: false })
  })
  after(async () => {
    await w.close()
    await bed.close()
    await proxy.close()
    await new Promise<void>((r) => receiver.close(() => r()))
  })

  test('an existing target, VPN profile and callback inside newly blocked ranges: nothing reaches them', async () => {
    // Created while the ranges were allowed.
    const target = await w.req('POST', '/api/v2/targets', { body: { name: '127.0.20.9' } })
    assert.equal(target.statusCode, 201, target.body)
    const targetId = target.json().data.created_id as number
    const scanOfTarget = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 70, target_id: targetId, tool_params: { ports: `${bed.tcpPort},${bed.httpPort}` } },
    })
    assert.equal(scanOfTarget.statusCode, 201, scanOfTarget.body)
    const profile = await w.req('POST', '/api/v2/vpn_profiles', {
      body: { name: 'office', type: 'socks5', host: proxy.host, port: proxy.port },
    })
    assert.equal(profile.statusCode, 201, profile.body)
    const scanViaVpn = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 70, target_name: '127.0.20.10', vpn_profile_uuid: profile.json().data.created_id, tool_params: { ports: '80' } },
    })
    assert.equal(scanViaVpn.statusCode, 201, scanViaVpn.body)
    // The same address under other spellings, as existing targets of other scans.
    const spelled: number[] = []
    for (const name of [
      '::ffff:127.0.20.9',
      `http://0x7f.0.20.9:${bed.httpPort}/`,
      `http://[0:0:0:0:0:ffff:7f00:1409]:${bed.httpPort}/`,
      `https://2130711561:${bed.httpsPort}/`,
    ]) {
      const r = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: name, tool_params: { steps: 1, step_ms: 1 } } })
      assert.equal(r.statusCode, 201, `${name}: ${r.body}`)
      spelled.push(r.json().data.created_id)
    }
    const scanWithCallback = await post(w, { tool_params: { steps: 1, step_ms: 1 }, report_callback: { url: receiverUrl } })
    assert.equal(scanWithCallback.statusCode, 201, scanWithCallback.body)

    // The operator blocks the ranges; the API and the worker restart with the new settings.
    const config = { ...w.config, targetBlocklist: '127.0.20.9/32', vpnHostBlocklist: '127.0.20.30', callbackBlocklist: '127.0.20.16/28' }
    const app = await buildApp(
      {
        db: w.h.db,
        dbKind: w.h.kind,
        config,
        blocklist: scopesOf(config).target,
        tools: createToolCatalogue({ diagnostic: true }),
        resolveVpnProfile,
      },
      { logger: false },
    )
    try {
      const auth = { authorization: `Bearer ${w.key}` }
      const again = await app.inject({ method: 'POST', url: '/api/v2/scans', headers: auth, payload: { tool_id: 70, target_id: targetId } })
      assert.equal(again.statusCode, 403, again.body)
      const byName = await app.inject({
        method: 'POST',
        url: '/api/v2/scans',
        headers: auth,
        payload: { tool_id: 70, target_name: '127.0.20.9' },
      })
      assert.equal(byName.statusCode, 403, byName.body)
    } finally {
      await app.close()
    }
    const worker = await startWorkerRole({ db: w.h.db, dbKind: w.h.kind, config, log: pino({ level: 'silent' }) })
    try {
      const s1 = await waitForScan(w, scanOfTarget.json().data.created_id, isTerminal, 15000)
      assert.equal(s1.status_name, 'failed to start')
      assert.match(
        s1.status_message,
        /the target 127\.0\.20\.9 is outside the allowed scope \(it matches the WARD_TARGET_BLOCKLIST entry "127\.0\.20\.9\/32"\); nothing was sent/,
      )
      for (const id of spelled) {
        const s = await waitForScan(w, id, isTerminal, 15000)
        assert.equal(s.status_name, 'failed to start', JSON.stringify(s))
        assert.match(s.status_message, /is outside the allowed scope \(it matches the WARD_TARGET_BLOCKLIST entry "127\.0\.20\.9\/32"\)/)
      }
      const s2 = await waitForScan(w, scanViaVpn.json().data.created_id, isTerminal, 15000)
      assert.equal(s2.status_name, 'VPN connection error')
      assert.match(
        s2.status_message,
        /VPN profile "office" \(socks5 127\.0\.20\.30:\d+\) cannot be used: its host is outside the allowed scope \(WARD_VPN_HOST_BLOCKLIST\); nothing was sent/,
      )
      const id3 = scanWithCallback.json().data.created_id as number
      const s3 = await waitForScan(w, id3, isTerminal, 15000)
      assert.equal(s3.status_name, 'finished')
      let d: any
      for (const until = Date.now() + 10000; Date.now() < until; await new Promise((r) => setTimeout(r, 30))) {
        d = (await w.req('GET', `/api/v2/scans/${id3}/callbacks`)).json().data[0]
        if (d?.status === 'failed') break
      }
      assert.equal(d?.status, 'failed', JSON.stringify(d))
      // One attempt, not retried, and its error says nothing about the port.
      assert.equal(d.attempts.length, 1)
      assert.equal(
        d.last_error,
        'EBLOCKED: connection to 127.0.20.20 blocked: outside the allowed scope (WARD_CALLBACK_BLOCKLIST); nothing was sent',
      )
    } finally {
      await worker.stop()
    }
    assert.deepEqual(bed.peers, { tcp: [], tls: [], http: [], https: [] })
    assert.equal(proxy.accepted, 0)
    assert.equal(hits, 0)
  })
})
