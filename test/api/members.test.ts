// Shared workspaces: the members API (owners manage members, a workspace keeps an owner), a removed
// member's cached key, and a member's work in the shared workspace. Every route × {owner, member,
// viewer, non-member, removed member} is the tenancy matrix (test/api/tenancy.test.ts).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, type TestWard } from '../helpers/ward.js'

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
async function fixtures() {
  const name = `m${Math.random().toString(36).slice(2, 10)}.example`
  const target = (await w.req('POST', '/api/v2/targets', { form: { name } })).json().data.created_id
  const scan = (
    await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: target, tool_params: { steps: 1, step_ms: 1 } } })
  ).json().data.created_id
  await waitForScan(w, scan, (s) => s.status_name === 'finished')
  const finding = (await w.req('GET', `/api/v2/findings?task_id=${scan}`)).json().data[0].id
  const schedule = (await w.req('POST', '/api/v2/schedules', { body: { tool_id: 9001, target_id: target, interval_minutes: 60 } })).json()
    .data.created_id
  return { target, scan, finding, schedule }
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
