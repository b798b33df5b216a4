// Instance administration and deleting a workspace: the first user is the admin; only admins list
// users and every workspace; a disabled user's key stops at once (even one the caller cache holds)
// and works again when enabled; each admin action and a workspace's deletion leave exactly one audit
// entry, written in its transaction; a schedule whose creator left pauses with its reason.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, type TestWard } from '../helpers/ward.js'
import { claimDueSchedule } from '../../src/store/schedules.js'

let w: TestWard
type Person = { key: string; userId: number; workspaceId: number }
let bob: Person
let carol: Person

before(async () => {
  // The caller cache on, long enough that only an invalidation can explain a refusal.
  w = await startWard({ env: { WARD_AUTH_CACHE_MS: '60000' } })
  // One after the other: the list is in id order, and ids follow creation.
  bob = await w.user('bob')
  carol = await w.user('carol')
})
after(() => w.close())

const audit = async (action: string) => await w.h.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute()

test('the first user is the instance admin; others get 403 on the admin routes', async () => {
  const users = await w.req('GET', '/api/v2/users')
  assert.equal(users.statusCode, 200)
  const rows = users.json().data
  assert.deepEqual(
    rows.map((u: any) => [u.name, u.is_admin, u.disabled]),
    [
      ['alice', true, false],
      ['bob', false, false],
      ['carol', false, false],
    ],
  )
  for (const path of ['/api/v2/users', '/api/v2/instance/workspaces'])
    assert.equal((await w.req('GET', path, { key: bob.key })).statusCode, 403, path)
  assert.equal((await w.req('POST', `/api/v2/users/${carol.userId}/disable`, { key: bob.key })).statusCode, 403)
  const all = (await w.req('GET', '/api/v2/instance/workspaces')).json().data
  assert.ok(
    all.some((x: any) => x.id === bob.workspaceId && x.owners.join() === 'bob'),
    'an admin sees every workspace',
  )
})

test('disabling a user stops their cached key at once; enabling brings it back; one audit entry each', async () => {
  assert.equal((await w.req('GET', '/api/v2/workspaces', { key: carol.key })).statusCode, 200, 'cached now')
  assert.equal((await w.req('POST', `/api/v2/users/${carol.userId}/disable`)).statusCode, 204)
  assert.equal((await w.req('GET', '/api/v2/workspaces', { key: carol.key })).statusCode, 401)
  assert.equal((await w.req('POST', `/api/v2/users/${carol.userId}/disable`)).statusCode, 204, 'again: no change')
  assert.equal((await audit('user.disabled')).length, 1)
  assert.equal((await w.req('POST', `/api/v2/users/${carol.userId}/enable`)).statusCode, 204)
  assert.equal((await w.req('GET', '/api/v2/workspaces', { key: carol.key })).statusCode, 200)
  assert.equal((await audit('user.enabled')).length, 1)
  assert.equal((await w.req('POST', `/api/v2/users/${w.userId}/disable`)).statusCode, 409, 'not yourself')
  assert.equal((await w.req('POST', `/api/v2/users/99999/disable`)).statusCode, 404)
  assert.equal((await w.req('POST', `/api/v2/users/${w.userId}/admin/revoke`)).statusCode, 409, 'the last admin stays')
  assert.equal((await audit('admin.revoked')).length, 0, 'a refused change leaves no entry')
  assert.equal((await w.req('POST', `/api/v2/users/${bob.userId}/admin`)).statusCode, 204)
  assert.equal((await w.req('GET', '/api/v2/users', { key: bob.key })).statusCode, 200, 'bob is an admin now')
  const granted = await audit('admin.granted')
  assert.equal(granted.length, 1)
  assert.match(granted[0]!.actor, /^alice \(key ward_/)
  assert.equal((await w.req('POST', `/api/v2/users/${bob.userId}/admin/revoke`)).statusCode, 204)
})

test('GET /audit: an instance admin reads every entry, an owner only their workspaces', async () => {
  const name = `a${Date.now()}.example`
  assert.equal((await w.req('POST', '/api/v2/targets', { key: bob.key, form: { name } })).statusCode, 201)
  const byAdmin = (await w.req('GET', `/api/v2/audit?action=target.created&workspace_id=${bob.workspaceId}`)).json().data
  assert.equal(byAdmin.length, 1)
  assert.equal(
    (await w.req('GET', `/api/v2/audit?action=target.created&workspace_id=${bob.workspaceId}`, { key: carol.key })).json().data.length,
    0,
  )
  assert.equal((await w.req('GET', '/api/v2/audit?actor=bob%20(key%20x)', {})).json().data.length, 0)
})

test('deleting a workspace: owners only, refused while a scan runs, everything in it goes, one audit entry', async () => {
  const ws = (await w.req('POST', '/api/v2/workspaces', { key: bob.key, body: { name: 'doomed' } })).json().data.created_id
  await w.req('POST', `/api/v2/workspaces/${ws}/activate`, { key: bob.key })
  for (const [n, role] of [['carol', 'viewer']])
    assert.equal((await w.req('POST', `/api/v2/workspaces/${ws}/members`, { key: bob.key, body: { user_name: n, role } })).statusCode, 201)
  const target = (
    await w.req('POST', '/api/v2/targets', { key: bob.key, form: { name: 'doomed.example', workspace_id: String(ws) } })
  ).json().data.created_id
  const scan = (
    await w.req('POST', '/api/v2/scans', {
      key: bob.key,
      body: { tool_id: 9001, target_id: target, tool_params: { steps: 400, step_ms: 20 } },
    })
  ).json().data.created_id
  await w.req('POST', '/api/v2/schedules', { key: bob.key, body: { tool_id: 9001, target_id: target, interval_minutes: 60 } })
  assert.equal((await w.req('DELETE', `/api/v2/workspaces/${ws}`, { key: carol.key })).statusCode, 403, 'a viewer')
  assert.equal((await w.req('DELETE', `/api/v2/workspaces/${ws}`)).statusCode, 404, 'a non-member (alice)')
  await waitForScan(w, scan, (s) => s.status_name === 'running', 10000, bob.key)
  assert.equal((await w.req('DELETE', `/api/v2/workspaces/${ws}`, { key: bob.key })).statusCode, 409, 'a scan runs')
  assert.equal((await audit('workspace.deleted')).length, 0)
  await w.req('POST', `/api/v2/scans/${scan}/stop`, { key: bob.key })
  await waitForScan(w, scan, (s) => s.status_name !== 'running', 10000, bob.key)
  assert.equal((await w.req('DELETE', `/api/v2/workspaces/${ws}`, { key: bob.key })).statusCode, 204)
  const db = w.h.db
  for (const table of ['targets', 'scans', 'schedules', 'workspace_members'] as const)
    assert.equal((await db.selectFrom(table).select('workspace_id').where('workspace_id', '=', ws).execute()).length, 0, table)
  assert.equal((await w.req('GET', `/api/v2/scans/${scan}`, { key: bob.key })).statusCode, 404)
  assert.equal(
    (await w.req('GET', '/api/v2/workspaces', { key: carol.key })).json().data.some((x: any) => x.id === ws),
    false,
  )
  const entry = await audit('workspace.deleted')
  assert.equal(entry.length, 1)
  assert.equal(entry[0]!.object_id, String(ws))
  const u = await db
    .selectFrom('users')
    .select(['active_workspace_id', 'target_count'])
    .where('id', '=', bob.userId)
    .executeTakeFirstOrThrow()
  assert.equal(u.active_workspace_id, bob.workspaceId, 'falls back to a workspace bob still belongs to')
})

test('a schedule whose creator left pauses with its reason at its next slot; a member who resumes it takes it over', async () => {
  const add = (n: string, role: string) => w.req('POST', `/api/v2/workspaces/${w.workspaceId}/members`, { body: { user_name: n, role } })
  assert.equal((await add('bob', 'member')).statusCode, 201)
  assert.equal((await add('carol', 'member')).statusCode, 201)
  const target = (await w.req('POST', '/api/v2/targets', { form: { name: 'orphan.example' } })).json().data.created_id
  const id = (
    await w.req('POST', '/api/v2/schedules', {
      key: bob.key,
      body: { tool_id: 9001, target_id: target, interval_minutes: 60, workspace_id: w.workspaceId },
    })
  ).json().data.created_id
  assert.equal((await w.req('DELETE', `/api/v2/workspaces/${w.workspaceId}/members/${bob.userId}`)).statusCode, 204)
  await w.h.db
    .updateTable('schedules')
    .set({ next_run_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', id)
    .execute()
  const run = await claimDueSchedule(w.h.db, w.h.kind, 'test', new Date())
  assert.equal(run?.outcome, 'skipped')
  assert.deepEqual(run?.scanIds, [])
  const s = (await w.req('GET', `/api/v2/schedules/${id}`)).json().data
  assert.equal(s.paused, true)
  assert.match(s.paused_reason, /creator can no longer start scans/)
  const paused = (await audit('schedule.paused')).filter((e) => e.object_id === String(id))
  assert.equal(paused.length, 1)
  assert.equal(paused[0]!.actor, 'system')
  assert.equal((await w.req('POST', `/api/v2/schedules/${id}/resume`, { key: carol.key })).statusCode, 200)
  const row = await w.h.db
    .selectFrom('schedules')
    .select(['user_id', 'paused', 'paused_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(row, { user_id: carol.userId, paused: 0, paused_reason: null })
})
