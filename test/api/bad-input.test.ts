import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, tableCounts, type TestWard } from '../helpers/ward.js'
import { setPassword, signIn } from '../helpers/web.js'

let w: TestWard
before(async () => {
  w = await startWard()
})
after(() => w.close())

const NASTY_IDS = [
  '0',
  '-1',
  '-99999999999',
  '99999999999999999999999',
  '1e3',
  '0x10',
  'abc',
  '%00',
  '1%20OR%201=1',
  "1';DROP TABLE targets;--",
  'null',
  encodeURIComponent('ü'),
]
const NASTY_STRINGS = [
  'x'.repeat(100 * 1024),
  'a\u0000b',
  '\u0000',
  "'; DROP TABLE targets; --",
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  '💥'.repeat(10),
  '   ',
  '../../etc/passwd',
  '${jndi:ldap://x}',
]

test('bad ids on every id route → 400, never 500', async () => {
  const routes = [
    ['GET', '/api/v2/targets/:id'],
    ['DELETE', '/api/v2/targets/:id'],
    ['GET', '/api/v2/scans/:id'],
    ['DELETE', '/api/v2/scans/:id'],
    ['POST', '/api/v2/scans/:id/stop'],
    ['GET', '/api/v2/scans/:id/output'],
    ['GET', '/api/v2/scans/:id/raw'],
    ['GET', '/api/v2/scans/:id/tests'],
    ['GET', '/api/v2/findings/:id'],
    ['GET', '/api/v2/findings/:id/tests'],
    ['POST', '/api/v2/workspaces/:id/activate'],
  ]
  const before = await tableCounts(w)
  for (const [method, path] of routes) {
    for (const id of NASTY_IDS) {
      const r = await w.req(method, path.replace(':id', id))
      assert.ok(r.statusCode === 400 || r.statusCode === 404, `${method} ${path} ${id} → ${r.statusCode} ${r.body}`)
      assert.equal(r.json().status, r.statusCode)
    }
  }
  assert.deepEqual(await tableCounts(w), before)
})

test('bad query parameters on list routes → 400, never 500', async () => {
  const cases: Array<[string, string]> = [
    ['/api/v2/targets', 'limit=-1'],
    ['/api/v2/targets', 'limit=abc'],
    ['/api/v2/targets', 'page=0'],
    ['/api/v2/targets', 'type=%00'],
    ['/api/v2/targets', 'workspace_id=-5'],
    ['/api/v2/scans', 'status=bogus'],
    ['/api/v2/scans', 'tool_id=abc'],
    ['/api/v2/scans', 'start_time[from]=yesterday'],
    ['/api/v2/scans', 'start_time[to]=2026-13-45T99:00:00Z'],
    ['/api/v2/scans', 'limit=1001'],
    ['/api/v2/findings', 'group_duplicates=maybe'],
    ['/api/v2/findings', 'task_id=x'],
    ['/api/v2/findings', 'risk_level=9'],
    ['/api/v2/findings', 'status=closed'],
    ['/api/v2/findings', 'limit=0'],
  ]
  for (const [path, q] of cases) {
    const r = await w.req('GET', `${path}?${q}`)
    assert.equal(r.statusCode, 400, `${path}?${q}: ${r.body}`)
    assert.equal(r.json().status, 400)
  }
})

test('bad bodies for POST /targets → 4xx and nothing written', async () => {
  const before = await tableCounts(w)
  const bodies: Array<{ body?: unknown; form?: Record<string, string>; headers?: Record<string, string> }> = [
    { body: {} },
    { body: { name: null } },
    { body: { name: 123 } },
    { body: { name: ['a.example', 'b.example'] } },
    { body: { name: { x: 1 } } },
    { body: [] },
    { body: 'null' },
    { body: { name: 'ok.example', workspace_id: 'abc' } },
    { body: { name: 'ok.example', workspace_id: -1 } },
    { body: { name: 'ok.example', description: 7 } },
    { body: { name: 'ok.example', description: 'a\u0000b' } },
    { body: { name: 'ok.example', description: 'x'.repeat(100 * 1024) } },
    { form: { description: 'no name' } },
    { form: { name: '' } },
    { body: 'name=x', headers: { 'content-type': 'application/xml' } },
    { body: '', headers: { 'content-type': 'application/json' } },
    ...NASTY_STRINGS.map((name) => ({ body: { name } })),
    ...NASTY_STRINGS.map((name) => ({ form: { name } })),
  ]
  for (const b of bodies) {
    const r = await w.req('POST', '/api/v2/targets', b)
    assert.ok(r.statusCode >= 400 && r.statusCode < 500, `${JSON.stringify(b).slice(0, 120)} → ${r.statusCode}`)
    assert.equal(r.json().status, r.statusCode)
  }
  assert.deepEqual(await tableCounts(w), before)
})

test('bad bodies for POST /scans → 4xx and nothing written', async () => {
  const t = (await w.req('POST', '/api/v2/targets', { form: { name: 'scanbad.example' } })).json().data.created_id
  const before = await tableCounts(w)
  const bodies: unknown[] = [
    {},
    { tool_id: 'x', target_id: t },
    { tool_id: 12345, target_id: t },
    { tool_id: 9001 },
    { tool_id: 9001, target_id: t, target_name: 'a.example' },
    { tool_id: 9001, target_id: t, max_scan_time: 0 },
    { tool_id: 9001, target_id: t, max_scan_time: 1441 },
    { tool_id: 9001, target_id: t, max_scan_time: 'long' },
    { tool_id: 9001, target_id: t, redirect_level: 'sometimes' },
    { tool_id: 9001, target_id: t, scan_original_url: 'yes please' },
    { tool_id: 9001, target_id: t, vpn_profile_uuid: 'not-a-uuid' },
    { tool_id: 9001, target_id: t, tool_params: { steps: -1 } },
    { tool_id: 9001, target_id: t, tool_params: { bogus: 1 } },
    { tool_id: 9001, target_id: t, tool_params: 'x' },
    { tool_id: 9001, target_id: t, report_callback: { url: 'ftp://x' } },
    { tool_id: 9001, target_id: t, report_callback: { url: 'http://u:p@127.0.0.1/' } },
    { tool_id: 9001, target_id: t, report_callback: { url: 'http://127.0.0.1/', format: 'xml' } },
    { tool_id: 9001, target_id: t, workspace_id: 999999 },
    { tool_id: 9001, target_name: 'bad name with spaces' },
    { tool_id: 9001, target_name: 'x'.repeat(100 * 1024) },
    { tool_id: 9001, target_name: "'; DROP TABLE scans; --" },
    { tool_id: 9001, target_id: -4 },
    { tool_id: 9001, target_id: 99999999999999 },
  ]
  for (const b of bodies) {
    const r = await w.req('POST', '/api/v2/scans', { body: b })
    assert.ok(r.statusCode >= 400 && r.statusCode < 500, `${JSON.stringify(b).slice(0, 120)} → ${r.statusCode} ${r.body}`)
    assert.equal(r.json().status, r.statusCode)
  }
  const unknown = await w.req('POST', '/api/v2/scans', { body: { tool_id: 12345, target_id: t } })
  assert.match(unknown.json().message, /known tool ids: .*9001/)
  const param = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: t, tool_params: { steps: -1 } } })
  assert.match(param.json().message, /tool_params\.steps/)
  assert.deepEqual(await tableCounts(w), before)
})

test('bad bodies for POST /workspaces → 4xx and nothing written', async () => {
  const before = await tableCounts(w)
  for (const b of [{}, { name: '' }, { name: 5 }, { name: 'x'.repeat(100 * 1024) }, { name: 'a\u0000b' }, { name: '   ' }]) {
    const r = await w.req('POST', '/api/v2/workspaces', { body: b })
    assert.ok(r.statusCode >= 400 && r.statusCode < 500, `${JSON.stringify(b).slice(0, 80)} → ${r.statusCode}`)
  }
  assert.deepEqual(await tableCounts(w), before)
})

// Zone ids name an interface of the reading host; node's isIP accepts them, the URL parser does not
// (issue 25, fault 8: each of these answered 500 `TypeError: Invalid URL`).
const ZONE_IDS: Array<[string, string]> = [
  ['::1%lo', '%lo'],
  ['fe80::1%lo', '%lo'],
  ['::1%25eth0', '%25eth0'],
  ['[fe80::1%eth0]', '%eth0'],
  ['::ffff:127.0.0.1%lo', '%lo'],
  ['http://[fe80::1%25lo]/', '%25lo'],
  ['https://[::1%lo]:8443/admin', '%lo'],
]

test('IPv6 zone ids → 400 in words on POST /targets, /scans and /schedules and the web form; nothing written', async () => {
  await setPassword(w, w.userId)
  const s = await signIn(w)
  const before = await tableCounts(w)
  const message = (zone: string) => `IPv6 zone ids ("${zone}") are not supported in target names; give the address without the zone`
  for (const [name, zone] of ZONE_IDS) {
    for (const r of [
      await w.req('POST', '/api/v2/targets', { body: { name } }),
      await w.req('POST', '/api/v2/targets', { form: { name } }),
      await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: name } }),
      await w.req('POST', '/api/v2/schedules', { body: { tool_id: 9001, target_name: name, interval_minutes: 60 } }),
    ])
      assert.deepEqual(r.json(), { status: 400, message: message(zone) }, `${name}: ${r.body}`)
    const page = await s.post('/targets', { name })
    assert.equal(page.statusCode, 400, `${name}: ${page.body.slice(0, 200)}`)
    assert.ok(page.body.includes('IPv6 zone ids'), name)
  }
  assert.deepEqual(await tableCounts(w), before)
})
