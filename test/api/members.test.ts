// Shared workspaces: the members API, and every id route × {owner, member, viewer, non-member,
// removed member}. A viewer's change is refused with 403 and leaves every row as it was; a member's
// goes through; a non-member and a removed member get the same 404 as an unknown id.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, type TestWard } from '../helpers/ward.js'
import { ID_ROUTES, type RouteCase } from './routes-table.js'

let w: TestWard
type Person = { key: string; userId: number; workspaceId: number }
let bob: Person // member
let carol: Person // viewer
let dave: Person // never a member
let erin: Person // removed member

const members = (key?: string) => w.req('GET', `/api/v2/workspaces/${w.workspaceId}/members`, { key })
const add = (user_name: string, role: string, key?: string) =>
  w.req('POST', `/api/v2/workspaces/${w.workspaceId}/members`, { key, body: { user_name, role } })

/** A fresh target, finished scan with a finding, and schedule in alice's workspace. */
async function fixtures(): Promise<Record<RouteCase['kind'], number>> {
  const name = `m${Math.random().toString(36).slice(2, 10)}.example`
  const target = (await w.req('POST', '/api/v2/targets', { form: { name } })).json().data.created_id
  const scan = (
    await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: target, tool_params: { steps: 1, step_ms: 1 } } })
  ).json().data.created_id
  await waitForScan(w, scan, (s) => s.status_name === 'finished')
  const finding = (await w.req('GET', `/api/v2/findings?task_id=${scan}`)).json().data[0].id
  const schedule = (await w.req('POST', '/api/v2/schedules', { body: { tool_id: 9001, target_id: target, interval_minutes: 60 } })).json()
    .data.created_id
  // A receiver on a loopback port nothing listens on: the member's test message is refused at once.
  const integration = (
    await w.req('POST', '/api/v2/integrations', {
      body: { type: 'webhook', name: 'n', config: { url: 'http://127.0.95.250:9/hook' }, enabled: false },
    })
  ).json().data.created_id
  return { target, scan, finding, schedule, integration, workspace: w.workspaceId, none: 0 }
}

/** Every row a change could touch, as text: equal before and after means nothing changed. */
async function snapshot(): Promise<string> {
  const db = w.h.db
  const rows = await Promise.all([
    db.selectFrom('targets').selectAll().orderBy('id').execute(),
    db.selectFrom('scans').select(['id', 'status', 'stop_requested', 'workspace_id']).orderBy('id').execute(),
    db.selectFrom('findings').select(['id', 'status', 'risk_level', 'verified']).orderBy('id').execute(),
    db.selectFrom('schedules').selectAll().orderBy('id').execute(),
    db.selectFrom('workspaces').selectAll().orderBy('id').execute(),
    db.selectFrom('workspace_members').selectAll().orderBy('workspace_id').orderBy('user_id').execute(),
    db.selectFrom('finding_history').select('id').execute(),
  ])
  return JSON.stringify(rows)
}

const isWrite = (r: RouteCase) => r.method !== 'GET' && !r.path(1).endsWith('/activate')
const label = (r: RouteCase, id: number) => `${r.method} ${r.path(id)} ${r.body ? JSON.stringify(r.body(id)) : ''}`
const call = (r: RouteCase, id: number, key: string) => w.req(r.method, r.path(id), { key, ...(r.body ? { body: r.body(id) } : {}) })
const WRITES = [
  ...ID_ROUTES.filter(isWrite),
  {
    method: 'PUT',
    path: (id: number) => `/api/v2/workspaces/${id}/vpn_profile`,
    kind: 'workspace',
    body: () => ({ vpn_profile_uuid: null }),
  } satisfies RouteCase,
]

before(async () => {
  w = await startWard()
  ;[bob, carol, dave, erin] = await Promise.all(['bob', 'carol', 'dave', 'erin'].map((n) => w.user(n)))
  for (const [n, role] of [
    ['bob', 'member'],
    ['carol', 'viewer'],
    ['erin', 'member'],
  ])
    assert.equal((await add(n!, role!)).statusCode, 201)
  const r = await w.req('DELETE', `/api/v2/workspaces/${w.workspaceId}/members/${erin.userId}`)
  assert.equal(r.statusCode, 204)
})
after(() => w.close())

test("the creator is the owner; members are listed with their roles; GET /workspaces gives the caller's role", async () => {
  const list = members().then((r) => r.json().data)
  assert.deepEqual(
    (await list).map((m: any) => [m.user_name, m.role]),
    [
      ['alice', 'owner'],
      ['bob', 'member'],
      ['carol', 'viewer'],
    ],
  )
  for (const m of await list) assert.match(m.added_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  assert.equal((await members(carol.key)).statusCode, 200, 'a viewer reads the member list')
  assert.equal((await members(dave.key)).statusCode, 404)
  const ws = (await w.req('GET', '/api/v2/workspaces', { key: carol.key })).json().data
  assert.deepEqual(
    ws.map((x: any) => [x.id, x.role]).sort(),
    [
      [carol.workspaceId, 'owner'],
      [w.workspaceId, 'viewer'],
    ].sort(),
  )
  const erinWs = (await w.req('GET', '/api/v2/workspaces', { key: erin.key })).json().data
  assert.deepEqual(
    erinWs.map((x: any) => x.id),
    [erin.workspaceId],
    'a removed member no longer lists the workspace',
  )
})

test('only owners manage members; a workspace keeps an owner; bad input changes nothing', async () => {
  const before = await snapshot()
  for (const key of [bob.key, carol.key]) {
    const refused = [
      await add('dave', 'viewer', key),
      await w.req('PATCH', `/api/v2/workspaces/${w.workspaceId}/members/${carol.userId}`, { key, body: { role: 'owner' } }),
      await w.req('DELETE', `/api/v2/workspaces/${w.workspaceId}/members/${w.userId}`, { key }),
    ]
    for (const r of refused) assert.deepEqual([r.statusCode, r.json().status], [403, 403], r.body)
  }
  const outsider = await add('bob', 'viewer', dave.key)
  assert.equal(outsider.statusCode, 404)
  assert.match(outsider.json().message, /does not exist/)
  assert.equal((await add('nobody-by-that-name', 'viewer')).statusCode, 404)
  assert.equal((await add('BOB', 'viewer')).statusCode, 409, 'names compare case-insensitively; bob is already a member')
  assert.equal((await add('dave', 'admin')).statusCode, 400)
  assert.equal(
    (await w.req('PATCH', `/api/v2/workspaces/${w.workspaceId}/members/${w.userId}`, { body: { role: 'member' } })).statusCode,
    409,
    'the last owner cannot step down',
  )
  assert.equal(
    (await w.req('DELETE', `/api/v2/workspaces/${w.workspaceId}/members/${w.userId}`)).statusCode,
    409,
    'the last owner cannot be removed',
  )
  assert.equal((await w.req('DELETE', `/api/v2/workspaces/${w.workspaceId}/members/${dave.userId}`)).statusCode, 404)
  assert.equal(await snapshot(), before)
})

test('an owner adds, promotes and removes; two owners may then hand over', async () => {
  const r = await add('dave', 'viewer')
  assert.equal(r.statusCode, 201)
  assert.deepEqual(r.json(), { data: { created_id: dave.userId } })
  assert.equal(
    (await w.req('PATCH', `/api/v2/workspaces/${w.workspaceId}/members/${dave.userId}`, { body: { role: 'owner' } })).statusCode,
    204,
  )
  // Dave, now an owner, demotes alice, then gives the ownership back and leaves.
  assert.equal(
    (await w.req('PATCH', `/api/v2/workspaces/${w.workspaceId}/members/${w.userId}`, { key: dave.key, body: { role: 'member' } }))
      .statusCode,
    204,
  )
  assert.equal((await add('erin', 'viewer')).statusCode, 403, 'alice is no longer an owner')
  assert.equal(
    (await w.req('PATCH', `/api/v2/workspaces/${w.workspaceId}/members/${w.userId}`, { key: dave.key, body: { role: 'owner' } }))
      .statusCode,
    204,
  )
  assert.equal((await w.req('DELETE', `/api/v2/workspaces/${w.workspaceId}/members/${dave.userId}`)).statusCode, 204)
  assert.deepEqual(
    (await members()).json().data.map((m: any) => m.user_name),
    ['alice', 'bob', 'carol'],
  )
})

test('a viewer gets 403 on every write and nothing changes; non-members and removed members get 404 like an unknown id', async () => {
  const own = await fixtures()
  for (const r of WRITES) {
    const id = own[r.kind]
    const before = await snapshot()
    const v = await call(r, id, carol.key)
    assert.equal(v.statusCode, 403, `viewer: ${label(r, id)} → ${v.body}`)
    assert.equal(v.json().status, 403)
    assert.equal(typeof v.json().message, 'string')
    assert.equal(await snapshot(), before, `viewer changed something: ${label(r, id)}`)
  }
  for (const r of [...ID_ROUTES, ...WRITES]) {
    const id = own[r.kind]
    const missing = await call(r, 999999, dave.key)
    for (const [who, p] of [
      ['non-member', dave],
      ['removed member', erin],
    ] as const) {
      const before = await snapshot()
      const got = await call(r, id, p.key)
      assert.equal(got.statusCode, 404, `${who}: ${label(r, id)} → ${got.body}`)
      assert.deepEqual(got.json(), missing.json(), `${who}: ${label(r, id)}`)
      assert.equal(await snapshot(), before, `${who} changed something: ${label(r, id)}`)
    }
  }
})

test('a viewer reads every id route; a member may make each change', async () => {
  const own = await fixtures()
  for (const r of ID_ROUTES.filter((r) => !isWrite(r))) {
    const got = await call(r, own[r.kind], carol.key)
    assert.ok(got.statusCode === 200 || got.statusCode === 204, `viewer reads ${label(r, own[r.kind])} → ${got.statusCode} ${got.body}`)
  }
  for (const r of WRITES) {
    const fresh = await fixtures()
    const got = await call(r, fresh[r.kind], bob.key)
    assert.ok(got.statusCode >= 200 && got.statusCode < 300, `member: ${label(r, fresh[r.kind])} → ${got.statusCode} ${got.body}`)
  }
})

test('a member removed while holding a cached key loses access at once', async () => {
  const own = await fixtures()
  assert.equal((await add('erin', 'member')).statusCode, 201)
  // Erin's key is now in the caller cache with access to the scan.
  assert.equal((await w.req('GET', `/api/v2/scans/${own.scan}`, { key: erin.key })).statusCode, 200)
  assert.equal((await w.req('DELETE', `/api/v2/workspaces/${w.workspaceId}/members/${erin.userId}`)).statusCode, 204)
  for (const url of [
    `/api/v2/scans/${own.scan}`,
    `/api/v2/findings/${own.finding}`,
    `/api/v2/targets/${own.target}`,
    `/api/v2/schedules/${own.schedule}`,
  ])
    assert.equal((await w.req('GET', url, { key: erin.key })).statusCode, 404, url)
  assert.deepEqual((await w.req('GET', `/api/v2/findings?task_id=${own.scan}`, { key: erin.key })).json().data, [])
})

test('a member works in the shared workspace: lists show its data, and a scan by name lands there', async () => {
  const own = await fixtures()
  await w.req('POST', `/api/v2/workspaces/${w.workspaceId}/activate`, { key: bob.key })
  const scans = (await w.req('GET', '/api/v2/scans', { key: bob.key })).json().data.map((s: any) => s.id)
  assert.ok(scans.includes(own.scan))
  assert.ok((await w.req('GET', '/api/v2/findings', { key: bob.key })).json().data.some((f: any) => f.id === own.finding))
  const r = await w.req('POST', '/api/v2/scans', {
    key: bob.key,
    body: { tool_id: 9001, target_name: 'bob-made.example', tool_params: { steps: 1, step_ms: 1 } },
  })
  assert.equal(r.statusCode, 201)
  const made = await w.h.db
    .selectFrom('targets')
    .select(['workspace_id', 'user_id'])
    .where('id', '=', r.json().data.target_id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(made, { workspace_id: w.workspaceId, user_id: bob.userId })
  await waitForScan(w, r.json().data.created_id, (s) => s.status_name === 'finished')
  // A viewer whose active workspace is the shared one cannot create there.
  await w.req('POST', `/api/v2/workspaces/${w.workspaceId}/activate`, { key: carol.key })
  assert.equal((await w.req('POST', '/api/v2/targets', { key: carol.key, form: { name: 'carol.example' } })).statusCode, 403)
})
