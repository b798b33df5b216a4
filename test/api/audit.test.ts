// The audit log: each audited API action (every API route of api/audited-routes.ts) leaves exactly
// one entry naming the actor (user and key prefix), client, object and workspace, with what changed
// and no secret; refused requests and failed changes leave none, and a change that fails after
// writing rolls back with its entry (one transaction); GET /audit shows owners their workspaces'
// entries only. Invitations through the API.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, type TestWard } from '../helpers/ward.js'
import { AUDITED } from '../../src/api/audited-routes.js'
import { audited, type AuditIntent } from '../../src/store/audit.js'
import { createWorkspace } from '../../src/store/accounts.js'

let w: TestWard
let bob: { key: string; userId: number; workspaceId: number }
const SECRETS = ['hunter2-proxy-pass', 'cb-secret-value', 'tool-param-password']

const entries = async () => w.h.db.selectFrom('audit_log').selectAll().orderBy('id').execute()

before(async () => {
  w = await startWard()
  bob = await w.user('bob')
})
after(() => w.close())

test('every audited API action leaves exactly one entry, with no secret in it', async () => {
  const ws = w.workspaceId
  const ids: Record<string, number | string> = {}
  const done = new Set<string>()
  const step = async (action: string, call: () => Promise<any>) => {
    done.add(action)
    const before = (await entries()).length
    const r = await call()
    assert.ok(r.statusCode < 300, `${action}: ${r.statusCode} ${r.body}`)
    const after = await entries()
    assert.equal(after.length, before + 1, `${action} left ${after.length - before} entries`)
    const e = after.at(-1)!
    assert.equal(e.action, action)
    assert.equal(e.client, '127.0.0.1')
    assert.match(e.actor, /^alice \(key ward_.{7}\)$/)
    for (const s of [...SECRETS, w.key]) assert.ok(!JSON.stringify(e).includes(s), `${action} entry holds a secret`)
    return { r, e }
  }
  ids.target = (
    await step('target.created', () => w.req('POST', '/api/v2/targets', { form: { name: 'audit.example' } }))
  ).r.json().data.created_id
  const scan = await step('scan.started', () =>
    w.req('POST', '/api/v2/scans', {
      body: {
        tool_id: 9001,
        target_id: ids.target,
        tool_params: { steps: 1, step_ms: 1 },
        report_callback: { url: 'https://127.0.0.1:9/cb', secret: 'cb-secret-value' },
      },
    }),
  )
  ids.scan = scan.r.json().data.created_id
  assert.deepEqual([scan.e.workspace_id, scan.e.object_type, scan.e.object_id], [ws, 'scan', String(ids.scan)])
  await waitForScan(w, ids.scan as number, (s) => s.status_name === 'finished')
  await step('scan.stopped', () => w.req('POST', `/api/v2/scans/${ids.scan}/stop`))
  ids.finding = (await w.req('GET', `/api/v2/findings?task_id=${ids.scan}`)).json().data[0].id
  const triage = await step('finding.triaged', () =>
    w.req('PATCH', `/api/v2/findings/${ids.finding}`, { body: { status: 'accepted', reason: 'known' } }),
  )
  assert.deepEqual(JSON.parse(triage.e.details), { status: 'accepted', reason: 'known' })
  ids.schedule = (
    await step('schedule.created', () =>
      w.req('POST', '/api/v2/schedules', { body: { tool_id: 9001, target_id: ids.target, interval_minutes: 60 } }),
    )
  ).r.json().data.created_id
  await step('schedule.changed', () => w.req('PATCH', `/api/v2/schedules/${ids.schedule}`, { body: { name: 'nightly' } }))
  await step('schedule.paused', () => w.req('POST', `/api/v2/schedules/${ids.schedule}/pause`))
  await step('schedule.resumed', () => w.req('POST', `/api/v2/schedules/${ids.schedule}/resume`))
  const run = await step('schedule.run', () => w.req('POST', `/api/v2/schedules/${ids.schedule}/run`))
  assert.deepEqual([run.e.workspace_id, run.e.object_id], [ws, String(ids.schedule)])
  for (const id of run.r.json().data.created_ids) await waitForScan(w, id, (s) => s.status_name === 'finished')
  await step('schedule.deleted', () => w.req('DELETE', `/api/v2/schedules/${ids.schedule}`))
  ids.settings = (
    await step('scan_settings.created', () =>
      w.req('POST', '/api/v2/scan-settings', { body: { name: 'quick', tool_id: 9001, tool_params: { steps: 1, step_ms: 1 } } }),
    )
  ).r.json().data.created_id
  await step('scan_settings.changed', () => w.req('PATCH', `/api/v2/scan-settings/${ids.settings}`, { body: { name: 'quicker' } }))
  const settingsDeleted = await step('scan_settings.deleted', () => w.req('DELETE', `/api/v2/scan-settings/${ids.settings}`))
  assert.equal(settingsDeleted.e.workspace_id, ws)
  const wsMade = await step('workspace.created', () => w.req('POST', '/api/v2/workspaces', { body: { name: 'Audited' } }))
  assert.equal(wsMade.e.object_id, String(wsMade.r.json().data.created_id))
  ids.vpn = (
    await step('vpn_profile.created', () =>
      w.req('POST', '/api/v2/vpn_profiles', {
        body: { name: 'office', type: 'socks5', host: '127.0.95.9', port: 1080, username: 'u', password: 'hunter2-proxy-pass' },
      }),
    )
  ).r.json().data.created_id
  await step('workspace.vpn_profile_set', () =>
    w.req('PUT', `/api/v2/workspaces/${ws}/vpn_profile`, { body: { vpn_profile_uuid: ids.vpn } }),
  )
  await step('vpn_profile.deleted', () => w.req('DELETE', `/api/v2/vpn_profiles/${ids.vpn}`))
  await step('member.added', () => w.req('POST', `/api/v2/workspaces/${ws}/members`, { body: { user_name: 'bob', role: 'viewer' } }))
  await step('member.changed', () => w.req('PATCH', `/api/v2/workspaces/${ws}/members/${bob.userId}`, { body: { role: 'member' } }))
  await step('member.removed', () => w.req('DELETE', `/api/v2/workspaces/${ws}/members/${bob.userId}`))
  const inv = await step('invitation.created', () => w.req('POST', `/api/v2/workspaces/${ws}/invitations`, { body: { role: 'viewer' } }))
  const token = inv.r.json().data.path.split('/').pop()
  assert.ok(!JSON.stringify(inv.e).includes(token), 'the invitation token is not in the log')
  await step('invitation.revoked', () => w.req('DELETE', `/api/v2/workspaces/${ws}/invitations/${inv.r.json().data.created_id}`))
  await step('scan.deleted', () => w.req('DELETE', `/api/v2/scans/${ids.scan}`))
  const del = await step('target.deleted', () => w.req('DELETE', `/api/v2/targets/${ids.target}`))
  assert.equal(del.e.workspace_id, ws, 'a deleted object keeps its workspace in the entry')
  const api = new Set(Object.entries(AUDITED).flatMap(([route, a]) => (route.includes(' /api/') ? [a.action] : [])))
  assert.deepEqual(
    [...api].filter((a) => !done.has(a)),
    [],
    'every audited API action is tried here',
  )
})

test('refused requests leave no entry; GET /audit shows owners their workspaces only, with filters', async () => {
  const before = (await entries()).length
  assert.equal((await w.req('DELETE', '/api/v2/targets/999999')).statusCode, 404)
  assert.equal(
    (await w.req('POST', '/api/v2/targets', { key: bob.key, form: { name: 'bob-in-alice.example', workspace_id: String(w.workspaceId) } }))
      .statusCode,
    404,
  )
  assert.equal((await entries()).length, before)
  const mine = (await w.req('GET', '/api/v2/audit')).json().data
  assert.equal(mine.length, before)
  assert.equal(mine[0].action, 'target.deleted', 'newest first')
  assert.match(mine[0].at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  assert.deepEqual(
    (await w.req('GET', '/api/v2/audit?action=member.changed')).json().data.map((e: any) => e.details),
    [{ role: 'member' }],
  )
  assert.deepEqual((await w.req('GET', '/api/v2/audit', { key: bob.key })).json().data, [], "bob owns none of alice's workspaces")
  assert.deepEqual((await w.req('GET', '/api/v2/audit?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z')).json().data, [])
  assert.equal((await w.req('GET', '/api/v2/audit?from=yesterday')).statusCode, 400)
})

test('invitations through the API: owners only, valid 7 days; neither the list nor the store holds the link', async () => {
  const ws = w.workspaceId
  assert.equal((await w.req('POST', `/api/v2/workspaces/${ws}/invitations`, { key: bob.key, body: { role: 'owner' } })).statusCode, 404)
  const r = await w.req('POST', `/api/v2/workspaces/${ws}/invitations`, { body: { role: 'member' } })
  assert.equal(r.statusCode, 201)
  assert.match(r.json().data.path, /^\/invite\/[A-Za-z0-9_-]{43}$/)
  const exp = Date.parse(r.json().data.expires_at) - Date.now()
  assert.ok(exp > 6.9 * 86400_000 && exp <= 7 * 86400_000, 'valid 7 days')
  const list = (await w.req('GET', `/api/v2/workspaces/${ws}/invitations`)).json().data
  assert.deepEqual(
    list.map((i: any) => [i.id, i.role]),
    [[r.json().data.created_id, 'member']],
  )
  assert.ok(!JSON.stringify(list).includes(r.json().data.path.split('/').pop()))
  const stored = await w.h.db.selectFrom('workspace_invitations').select('token_hash').execute()
  assert.ok(stored.every((s) => !r.json().data.path.includes(s.token_hash)))
})

test('ward admin: key create/revoke leave entries by system; audit export writes JSON lines, oldest first', async () => {
  const { runAdmin } = await import('../../src/cli/admin.js')
  const lines: string[] = []
  const out = (s: string) => lines.push(s)
  await runAdmin(['key', 'create', '--user', String(bob.userId)], w.h, w.config, out)
  const key = /api key: (\S+)/.exec(lines.join('\n'))![1]!
  await runAdmin(['key', 'revoke', '--key-prefix', key], w.h, w.config, out)
  const last = (await entries()).slice(-2)
  assert.deepEqual(
    last.map((e) => [e.action, e.actor]),
    [
      ['key.created', 'system'],
      ['key.revoked', 'system'],
    ],
  )
  assert.ok(!JSON.stringify(last).includes(key), 'the key is not in the log, only its prefix')
  lines.length = 0
  await runAdmin(['audit', 'export', '--since', '2000-01-01T00:00:00Z'], w.h, w.config, out)
  const exported = lines.map((l) => JSON.parse(l))
  assert.equal(exported.length, (await entries()).length)
  assert.ok(exported.every((e, i) => i === 0 || e.id > exported[i - 1].id))
  assert.equal(exported.at(-1).action, 'key.revoked')
  await assert.rejects(runAdmin(['audit', 'export', '--since', 'last week'], w.h, w.config, out), /--since must be/)
})

test('failed changes leave no entry and change nothing; a change that fails after writing rolls back with its entry', async () => {
  const ws = w.workspaceId
  const before = (await entries()).length
  const workspaces = async () => (await w.h.db.selectFrom('workspaces').select('id').execute()).length
  const made = await workspaces()
  // Failed inside the change's transaction (a unique name), or refused by it (last owner, no such user or object).
  assert.equal((await w.req('POST', '/api/v2/workspaces', { body: { name: 'Audited' } })).statusCode, 409)
  assert.equal((await w.req('POST', '/api/v2/targets', { form: { name: 'dup.example' } })).statusCode, 201)
  assert.equal((await w.req('POST', '/api/v2/targets', { form: { name: 'dup.example' } })).statusCode, 409)
  assert.equal((await w.req('DELETE', `/api/v2/workspaces/${ws}/members/${w.userId}`)).statusCode, 409, 'the last owner')
  assert.equal((await w.req('POST', `/api/v2/workspaces/${ws}/members`, { body: { user_name: 'nobody', role: 'viewer' } })).statusCode, 404)
  assert.equal((await w.req('DELETE', '/api/v2/schedules/999999')).statusCode, 404)
  assert.equal((await w.req('POST', '/api/v2/schedules/999999/run')).statusCode, 404)
  assert.equal((await w.req('DELETE', `/api/v2/workspaces/${ws}/invitations/999999`)).statusCode, 404)
  assert.equal((await w.req('PATCH', '/api/v2/scan-settings/999999', { body: { name: 'x' } })).statusCode, 404)
  assert.deepEqual(
    (await entries()).slice(before).map((e) => e.action),
    ['target.created'],
    'only the one done change left an entry',
  )
  assert.equal(await workspaces(), made)
  const owners = (await w.req('GET', `/api/v2/workspaces/${ws}/members`)).json().data.filter((m: any) => m.role === 'owner')
  assert.deepEqual(
    owners.map((m: any) => m.user_id),
    [w.userId],
    'a change refused halfway (the last owner) rolled back its own write',
  )
  // The entry is written in the change's transaction: a change that throws after writing takes its
  // entry with it, and neither is seen.
  const intent: AuditIntent = {
    actorUserId: w.userId,
    actor: 'alice',
    client: null,
    action: 'workspace.created',
    objectType: 'workspace',
    objectId: null,
    workspace: null,
    details: {},
  }
  await assert.rejects(
    audited(
      w.h.db,
      intent,
      async (trx) => {
        const id = await createWorkspace(trx, w.userId, 'Never')
        throw new Error(`boom after ${id}`)
      },
      () => true,
    ),
    /boom/,
  )
  assert.equal(await workspaces(), made)
  assert.equal((await entries()).length, before + 1)
  assert.equal(intent.written, undefined)
})
