// VPN profiles through the API (issue 7): CRUD, write-only secrets, tenancy, the workspace default, and
// scans whose traffic goes through loopback SOCKS5 / HTTP CONNECT proxies of the test bed.
// Every listener of this file is on 127.0.9.0/24; the proxies only ever dial loopback.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { deadPort, startHttpConnectProxy, startSocks5Proxy, startTargets, type Targets, type TestProxy } from '../testbed/proxies.js'
import { createToolCatalogue } from '../../src/tools/registry.js'
import { buildApp } from '../../src/api/app.js'
import { resolveVpnProfile } from '../../src/domain/vpn.js'
import { egressForScan, EgressUnavailableError } from '../../src/engine/scan-egress.js'
import { websiteScanner } from '../../src/tools/website-scanner/run.js'
import type { ScanRow } from '../../src/store/schema.js'
import { portScanner } from '../../src/tools/port-scanner/run.js'
import { runTool } from '../helpers/tool-harness.js'

const getTool = (id: number) => createToolCatalogue({ diagnostic: false }).get(id)

const USER = 'ward-vpn'
const PASS = 'Vpn-S3cret:pa55/w0rd'
const auth = { username: USER, password: PASS }
// The password in every form it could leak in.
const SECRET_FORMS = [PASS, encodeURIComponent(PASS), Buffer.from(`${USER}:${PASS}`).toString('base64')]
const assertNoSecret = (text: string) => {
  for (const s of SECRET_FORMS) assert.ok(!text.includes(s), `secret leaked: ${text}`)
}

let w: TestWard
let targets: Targets
let socks: TestProxy
let socksAuth: TestProxy
let httpProxy: TestProxy
let httpAuth: TestProxy
let site: string

before(async () => {
  w = await startWard()
  targets = await startTargets('127.0.9.10')
  socks = await startSocks5Proxy({ host: '127.0.9.1', outboundAddress: '127.0.9.91' })
  socksAuth = await startSocks5Proxy({ host: '127.0.9.2', outboundAddress: '127.0.9.92', auth })
  httpProxy = await startHttpConnectProxy({ host: '127.0.9.3', outboundAddress: '127.0.9.93' })
  httpAuth = await startHttpConnectProxy({ host: '127.0.9.4', outboundAddress: '127.0.9.94', auth })
  site = `http://127.0.9.10:${targets.httpPort}/`
})
after(async () => {
  await w.close()
  await Promise.all([targets, socks, socksAuth, httpProxy, httpAuth].map((x) => x.close()))
})

async function createProfile(body: Record<string, unknown>, key?: string): Promise<string> {
  const r = await w.req('POST', '/api/v2/vpn_profiles', { body, key })
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_id
  assert.match(id, /^[0-9a-f-]{36}$/)
  return id
}

async function scan(body: Record<string, unknown>, key?: string) {
  const r = await w.req('POST', '/api/v2/scans', { body, key })
  assert.equal(r.statusCode, 201, r.body)
  return r.json().data.created_id as number
}

const socksBody = (name: string, p: TestProxy, withAuth: boolean) => ({
  name,
  type: 'socks5',
  host: p.host,
  port: p.port,
  ...(withAuth ? auth : {}),
})
const httpBody = (name: string, p: TestProxy) => ({ name, type: 'http_connect', url: p.url })

describe('VPN profiles CRUD', () => {
  test('create, read, list and delete; secrets are never returned', async () => {
    const s = await createProfile(socksBody('crud-socks', socksAuth, true))
    const h = await createProfile(httpBody('crud-http', httpAuth))
    assert.ok(httpAuth.url.includes('@'), 'the HTTP proxy URL carries credentials')

    const one = await w.req('GET', `/api/v2/vpn_profiles/${s}`)
    assert.equal(one.statusCode, 200)
    assertNoSecret(one.body)
    const sv = one.json().data
    assert.deepEqual(
      { ...sv, created_at: 'x' },
      {
        uuid: s,
        name: 'crud-socks',
        type: 'socks5',
        host: '127.0.9.2',
        port: socksAuth.port,
        url: null,
        username: USER,
        has_password: true,
        workspace_ids: [],
        created_at: 'x',
      },
    )
    assert.match(sv.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    assert.ok(!('password' in sv))

    const hv = (await w.req('GET', `/api/v2/vpn_profiles/${h}`)).json().data
    assert.equal(hv.url, `http://127.0.9.4:${httpAuth.port}`, 'credentials are stripped from the URL')
    assert.equal(hv.username, USER)
    assert.equal(hv.has_password, true)

    const list = await w.req('GET', '/api/v2/vpn_profiles')
    assertNoSecret(list.body)
    const uuids = list.json().data.map((p: any) => p.uuid)
    assert.ok(uuids.includes(s) && uuids.includes(h))

    const noAuth = await createProfile(socksBody('crud-noauth', socks, false))
    const nv = (await w.req('GET', `/api/v2/vpn_profiles/${noAuth}`)).json().data
    assert.equal(nv.has_password, false)
    assert.equal(nv.username, null)

    const dup = await w.req('POST', '/api/v2/vpn_profiles', { body: socksBody('crud-socks', socks, false) })
    assert.equal(dup.statusCode, 409)
    assert.equal(dup.json().message, 'VPN profile "crud-socks" already exists')

    for (const id of [s, h, noAuth]) {
      assert.equal((await w.req('DELETE', `/api/v2/vpn_profiles/${id}`)).statusCode, 204)
      const gone = await w.req('GET', `/api/v2/vpn_profiles/${id}`)
      assert.equal(gone.statusCode, 404)
      assert.deepEqual(gone.json(), { status: 404, message: 'VPN profile does not exist' })
    }
    assert.equal((await w.req('DELETE', `/api/v2/vpn_profiles/${s}`)).statusCode, 404)
  })

  test('invalid profiles are 400 with messages free of secrets', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ name: 'x', type: 'socks5', host: '127.0.9.1' }, /needs host and port/],
      [{ name: 'x', type: 'socks5', host: '127.0.9.1', port: 70000 }, /port/],
      [{ name: 'x', type: 'socks5', host: 'a b', port: 1080 }, /host must be/],
      [{ name: 'x', type: 'socks5', host: '127.0.9.1', port: 1080, password: PASS }, /both username and password/],
      [{ name: 'x', type: 'socks5', host: '127.0.9.1', port: 1080, url: 'http://127.0.9.1:1' }, /not url/],
      [{ name: 'x', type: 'wireguard', host: '127.0.9.1', port: 1080 }, /type/],
      [{ name: 'x', type: 'http_connect' }, /needs url/],
      [{ name: 'x', type: 'http_connect', url: `ftp://${USER}:${encodeURIComponent(PASS)}@127.0.9.3:8080` }, /http:\/\/ or https:\/\//],
      [{ name: 'x', type: 'http_connect', url: `http://${USER}:${encodeURIComponent(PASS)}@127.0.9.3:8080/path` }, /path/],
      [{ name: 'x', type: 'http_connect', url: `not a url ${PASS}` }, /not a valid/],
      [{ name: 'x', type: 'http_connect', url: 'http://127.0.9.3:8080', password: PASS }, /not host, port, username or password/],
      [{ name: ' ', type: 'socks5', host: '127.0.9.1', port: 1080 }, /name/],
    ]
    for (const [body, re] of bad) {
      const r = await w.req('POST', '/api/v2/vpn_profiles', { body })
      assert.equal(r.statusCode, 400, `${JSON.stringify(body)} → ${r.body}`)
      assert.match(r.json().message, re)
      assertNoSecret(r.body)
    }
    assert.equal((await w.req('GET', '/api/v2/vpn_profiles/not-a-uuid')).statusCode, 400)
    assert.equal((await w.req('GET', '/api/v2/vpn_profiles', { key: null })).statusCode, 401)
  })

  test("tenancy: another user's profile behaves like an unknown one", async () => {
    const mine = await createProfile(socksBody('tenancy', socks, false))
    const bob = await w.user('bob-vpn')
    const asBob = { key: bob.key }
    assert.deepEqual((await w.req('GET', '/api/v2/vpn_profiles', asBob)).json().data, [])
    assert.equal((await w.req('GET', `/api/v2/vpn_profiles/${mine}`, asBob)).statusCode, 404)
    assert.equal((await w.req('DELETE', `/api/v2/vpn_profiles/${mine}`, asBob)).statusCode, 404)
    const attach = await w.req('PUT', `/api/v2/workspaces/${bob.workspaceId}/vpn_profile`, { ...asBob, body: { vpn_profile_uuid: mine } })
    assert.equal(attach.statusCode, 404)
    assert.equal(attach.json().message, 'VPN profile does not exist')
    const s = await w.req('POST', '/api/v2/scans', { ...asBob, body: { tool_id: 9001, target_name: '127.0.9.10', vpn_profile_uuid: mine } })
    assert.equal(s.statusCode, 404)
    assert.equal(s.json().message, 'VPN profile does not exist')
    // Alice cannot attach to bob's workspace either.
    const foreignWs = await w.req('PUT', `/api/v2/workspaces/${bob.workspaceId}/vpn_profile`, { body: { vpn_profile_uuid: mine } })
    assert.equal(foreignWs.statusCode, 404)
    assert.equal(foreignWs.json().message, 'Workspace does not exist')
    assert.equal((await w.req('GET', `/api/v2/vpn_profiles/${mine}`)).statusCode, 200, 'still there for its owner')
    assert.equal((await w.req('DELETE', `/api/v2/vpn_profiles/${mine}`)).statusCode, 204)
  })
})

test('the API log (trace level) never contains a profile secret', async () => {
  const lines: string[] = []
  const app = await buildApp(
    {
      db: w.h.db,
      dbKind: w.h.kind,
      config: w.config,
      blocklist: w.app.ward.blocklist,
      tools: createToolCatalogue({ diagnostic: w.config.enableDiagnosticTool }),
      resolveVpnProfile,
    },
    { logger: { level: 'trace', stream: { write: (l: string) => void lines.push(l) } } },
  )
  try {
    const headers = { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' }
    const ok = await app.inject({
      method: 'POST',
      url: '/api/v2/vpn_profiles',
      headers,
      payload: JSON.stringify(socksBody('logged', socksAuth, true)),
    })
    assert.equal(ok.statusCode, 201)
    const bad = await app.inject({
      method: 'POST',
      url: '/api/v2/vpn_profiles',
      headers,
      payload: JSON.stringify({ name: 'bad', type: 'http_connect', url: `ftp://${USER}:${encodeURIComponent(PASS)}@127.0.9.3:1` }),
    })
    assert.equal(bad.statusCode, 400)
    await app.inject({ method: 'GET', url: `/api/v2/vpn_profiles/${ok.json().data.created_id}`, headers })
    assert.ok(lines.length >= 3, 'requests were logged')
    assertNoSecret(lines.join('\n'))
    await w.req('DELETE', `/api/v2/vpn_profiles/${ok.json().data.created_id}`)
  } finally {
    await app.close()
  }
})

describe('scans through a VPN profile', () => {
  test("the workspace's profile is used when the scan names none; null overrides it", async () => {
    const p = await createProfile(socksBody('office', socks, false))
    const put = await w.req('PUT', `/api/v2/workspaces/${w.workspaceId}/vpn_profile`, { body: { vpn_profile_uuid: p } })
    assert.equal(put.statusCode, 204, put.body)
    const ws = (await w.req('GET', '/api/v2/workspaces')).json().data.find((x: any) => x.id === w.workspaceId)
    assert.equal(ws.vpn_profile_uuid, p)
    assert.deepEqual((await w.req('GET', `/api/v2/vpn_profiles/${p}`)).json().data.workspace_ids, [w.workspaceId])
    try {
      const peersBefore = targets.peers.http.length
      const id = await scan({ tool_id: 170, target_name: site })
      const s = await waitForScan(w, id, isTerminal, 30000)
      assert.equal(s.status_name, 'finished', JSON.stringify(s))
      assert.equal(s.vpn_scan, true)
      const peers = targets.peers.http.slice(peersBefore)
      assert.ok(peers.length > 0, 'the website scanner reached the target')
      assert.deepEqual([...new Set(peers)], ['127.0.9.91'], 'every request came from the proxy')
      assert.ok(socks.connections.some((c) => c.destination === `127.0.9.10:${targets.httpPort}` && c.outcome === 'connected'))
      const f = await w.req('GET', `/api/v2/scans/${id}/output`)
      assert.ok(f.json().data.output_data.findings.length > 0, 'results were gathered through the proxy')

      // Explicit null: no VPN, straight from Ward.
      const proxied = socks.connections.length
      const before2 = targets.peers.http.length
      const direct = await scan({ tool_id: 170, target_name: site, vpn_profile_uuid: null })
      const d = await waitForScan(w, direct, isTerminal, 30000)
      assert.equal(d.status_name, 'finished', JSON.stringify(d))
      assert.equal(d.vpn_scan, false)
      assert.equal(socks.connections.length, proxied, 'the proxy saw nothing')
      assert.ok(targets.peers.http.slice(before2).length > 0)
      assert.ok(!targets.peers.http.slice(before2).includes('127.0.9.91'))
    } finally {
      assert.equal(
        (await w.req('PUT', `/api/v2/workspaces/${w.workspaceId}/vpn_profile`, { body: { vpn_profile_uuid: null } })).statusCode,
        204,
      )
      await w.req('DELETE', `/api/v2/vpn_profiles/${p}`)
    }
  })

  const variants: { name: string; body: () => Record<string, unknown>; proxy: () => TestProxy; outbound: string }[] = [
    { name: 'socks5 without auth', body: () => socksBody('v-socks', socks, false), proxy: () => socks, outbound: '127.0.9.91' },
    { name: 'socks5 with auth', body: () => socksBody('v-socks-auth', socksAuth, true), proxy: () => socksAuth, outbound: '127.0.9.92' },
    { name: 'http_connect without auth', body: () => httpBody('v-http', httpProxy), proxy: () => httpProxy, outbound: '127.0.9.93' },
    { name: 'http_connect with auth', body: () => httpBody('v-http-auth', httpAuth), proxy: () => httpAuth, outbound: '127.0.9.94' },
  ]
  for (const v of variants) {
    test(`website scan through ${v.name} (explicit uuid)`, async () => {
      const p = await createProfile(v.body())
      const peersBefore = targets.peers.http.length
      const failuresBefore = v.proxy().authFailures
      const id = await scan({ tool_id: 170, target_name: site, vpn_profile_uuid: p })
      const s = await waitForScan(w, id, isTerminal, 30000)
      assert.equal(s.status_name, 'finished', JSON.stringify(s))
      assert.equal(s.vpn_scan, true)
      const peers = targets.peers.http.slice(peersBefore)
      assert.ok(peers.length > 0)
      assert.deepEqual([...new Set(peers)], [v.outbound])
      assert.equal(v.proxy().authFailures, failuresBefore)
      assert.equal((await w.req('DELETE', `/api/v2/vpn_profiles/${p}`)).statusCode, 204)
    })
  }

  test('TCP port scanner (tool 70) through SOCKS5 and HTTP CONNECT, when registered', async (t) => {
    if (!getTool(70)) {
      t.diagnostic('tool 70 is not registered yet: only the website scanner was tested through the proxies')
      assert.equal(getTool(70), undefined)
      return
    }
    for (const [body, proxy, outbound] of [
      [socksBody('ps-socks', socksAuth, true), socksAuth, '127.0.9.92'],
      [httpBody('ps-http', httpAuth), httpAuth, '127.0.9.94'],
    ] as const) {
      const p = await createProfile(body)
      const before = targets.peers.tcp.length
      const id = await scan({
        tool_id: 70,
        target_name: '127.0.9.10',
        vpn_profile_uuid: p,
        tool_params: { ports: String(targets.tcpPort) },
      })
      const s = await waitForScan(w, id, isTerminal, 30000)
      assert.equal(s.status_name, 'finished', JSON.stringify(s))
      assert.equal(s.vpn_scan, true)
      const peers = targets.peers.tcp.slice(before)
      assert.ok(peers.length > 0, 'the port scanner reached the open port')
      assert.deepEqual([...new Set(peers)], [outbound])
      assert.ok(proxy.connections.some((c) => c.destination === `127.0.9.10:${targets.tcpPort}`))
      await w.req('DELETE', `/api/v2/vpn_profiles/${p}`)
    }
  })

  test("the port scanner's traffic goes through a stored profile's egress (engine level, tool 70 not yet in the API)", async () => {
    for (const [body, proxy, outbound] of [
      [socksBody('ps-engine-socks', socksAuth, true), socksAuth, '127.0.9.92'],
      [httpBody('ps-engine-http', httpAuth), httpAuth, '127.0.9.94'],
    ] as const) {
      const p = await createProfile(body)
      const egress = await egressForScan(
        w.h.db,
        { user_id: w.userId, vpn_profile_uuid: p } as ScanRow,
        portScanner,
        new AbortController().signal,
      )
      try {
        assert.equal(egress.kind, body.type)
        const before = targets.peers.tcp.length
        const r = await runTool(portScanner, {
          target: '127.0.9.10',
          params: { ports: `${targets.tcpPort},${targets.closedPort}`, timeout_ms: 2000 },
          egress,
        })
        assert.equal(r.error, undefined, String(r.error))
        const summary = r.output.ports_summary as { open: number; closed: number }
        assert.equal(summary.open, 1, JSON.stringify(r.output))
        const peers = targets.peers.tcp.slice(before)
        assert.ok(peers.length > 0)
        assert.deepEqual([...new Set(peers)], [outbound], 'the open port saw only the proxy')
        assert.ok(proxy.connections.some((c) => c.destination === `127.0.9.10:${targets.tcpPort}` && c.outcome === 'connected'))
      } finally {
        await egress.close()
        await w.req('DELETE', `/api/v2/vpn_profiles/${p}`)
      }
    }
  })

  test('a dead proxy ends the scan "VPN connection error" fast, with a clear message', async (t) => {
    const port = await deadPort('127.0.9.50')
    const p = await createProfile({ name: 'dead', type: 'socks5', host: '127.0.9.50', port })
    const h = await createProfile({
      name: 'dead-http',
      type: 'http_connect',
      url: `http://${USER}:${encodeURIComponent(PASS)}@127.0.9.50:${port}`,
    })
    for (const [uuid, label] of [
      [p, `VPN profile "dead" (socks5 127.0.9.50:${port})`],
      [h, `VPN profile "dead-http" (http_connect http://127.0.9.50:${port})`],
    ]) {
      const t0 = Date.now()
      const peersBefore = targets.peers.http.length
      const id = await scan({ tool_id: 170, target_name: site, vpn_profile_uuid: uuid })
      const s = await waitForScan(w, id, isTerminal, 10000)
      assert.equal(s.status_name, 'VPN connection error')
      assert.equal(s.vpn_scan, true)
      assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`)
      assert.ok(s.status_message.startsWith(label), s.status_message)
      assert.match(s.status_message, /unreachable/)
      t.diagnostic(s.status_message)
      assertNoSecret(s.status_message)
      assert.equal(targets.peers.http.length, peersBefore, 'nothing reached the target')
    }
  })

  test('wrong credentials end the scan "VPN connection error"', async (t) => {
    const wrong = { username: USER, password: 'not-the-password' }
    const s5 = await createProfile({ name: 'wrong-socks', type: 'socks5', host: socksAuth.host, port: socksAuth.port, ...wrong })
    const none = await createProfile({ name: 'missing-socks', type: 'socks5', host: socksAuth.host, port: socksAuth.port })
    const hc = await createProfile({
      name: 'wrong-http',
      type: 'http_connect',
      url: `http://${USER}:wrong@${httpAuth.host}:${httpAuth.port}`,
    })
    for (const [uuid, re] of [
      [s5, /rejected the credentials/],
      [none, /requires authentication/],
      [hc, /credentials|407|authentication/i],
    ] as const) {
      const peersBefore = targets.peers.http.length
      const id = await scan({ tool_id: 170, target_name: site, vpn_profile_uuid: uuid })
      const s = await waitForScan(w, id, isTerminal, 10000)
      assert.equal(s.status_name, 'VPN connection error', JSON.stringify(s))
      assert.match(s.status_message, re)
      t.diagnostic(s.status_message)
      assert.ok(!s.status_message.includes('not-the-password') && !s.status_message.includes(':wrong'), s.status_message)
      assert.equal(targets.peers.http.length, peersBefore)
    }
  })

  test('the UDP scanner (tool 80) through a proxy fails to start, saying why', async (t) => {
    assert.ok(getTool(80)?.needs.udp, 'tool 80 needs UDP')
    const p = await createProfile(socksBody('udp', socks, false))
    const h = await createProfile(httpBody('udp-http', httpProxy))
    for (const uuid of [p, h]) {
      const accepted = socks.accepted + httpProxy.accepted
      const id = await scan({ tool_id: 80, target_name: '127.0.9.10', vpn_profile_uuid: uuid })
      const s = await waitForScan(w, id, isTerminal, 10000)
      assert.equal(s.status_name, 'failed to start')
      t.diagnostic(s.status_message)
      assert.equal(s.vpn_scan, true)
      assert.match(s.status_message, /needs UDP, which VPN profile "udp(-http)?" \((socks5|http_connect) .*\) cannot carry/)
      assert.equal(socks.accepted + httpProxy.accepted, accepted, 'the proxy was not even contacted')
    }
  })

  test('a profile deleted after the scan was created ends it "VPN connection error"', async () => {
    const ghost = { user_id: w.userId, vpn_profile_uuid: '00000000-0000-4000-8000-000000000000' } as ScanRow
    await assert.rejects(egressForScan(w.h.db, ghost, websiteScanner, new AbortController().signal), (e: Error) => {
      assert.ok(e instanceof EgressUnavailableError)
      assert.match(e.message, /no longer exists/)
      return true
    })
  })

  test('a profile used by a running scan cannot be deleted (409); afterwards it can, and workspaces are detached', async () => {
    const p = await createProfile(socksBody('busy', socks, false))
    assert.equal((await w.req('PUT', `/api/v2/workspaces/${w.workspaceId}/vpn_profile`, { body: { vpn_profile_uuid: p } })).statusCode, 204)
    const id = await scan({ tool_id: 9001, target_name: '127.0.9.10', tool_params: { steps: 1000, step_ms: 50 } })
    const running = await waitForScan(w, id, (s) => s.status_name === 'running' || isTerminal(s))
    assert.equal(running.status_name, 'running')
    assert.equal(running.vpn_scan, true)
    const del = await w.req('DELETE', `/api/v2/vpn_profiles/${p}`)
    assert.equal(del.statusCode, 409)
    assert.match(del.json().message, /running scan/)
    assert.equal((await w.req('POST', `/api/v2/scans/${id}/stop`)).statusCode < 300, true)
    await waitForScan(w, id, isTerminal)
    assert.equal((await w.req('DELETE', `/api/v2/vpn_profiles/${p}`)).statusCode, 204)
    const ws = (await w.req('GET', '/api/v2/workspaces')).json().data.find((x: any) => x.id === w.workspaceId)
    assert.equal(ws.vpn_profile_uuid, null, 'the workspace was detached')
    // With the default gone, a new scan goes direct.
    const next = (
      await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: '127.0.9.10', tool_params: { steps: 1, step_ms: 1 } } })
    ).json().data.created_id
    assert.equal((await waitForScan(w, next, isTerminal)).vpn_scan, false)
  })
})
