// Invitations and the audit log in the web interface, through inject: an owner makes a one-time link
// on the Members page; a signed-in person joins with it once; a new person creates an account with
// a password through another link and is signed in; a revoked link is dead. Sign-ins (done and
// failed), keys and every audited page form leave one audit entry each (refused forms none), and no
// entry holds a password or token.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { isTerminal, startWard, waitForScan, type TestWard } from '../helpers/ward.js'
import { AUDITED } from '../../src/api/audited-routes.js'
import { cookieOf, PASSWORD, postSignIn, setPassword, signIn, type WebSession } from '../helpers/web.js'

let w: TestWard
let alice: WebSession
let bobId: number

const linkOf = (body: string) => /data-testid="invite-link">[^<]*?(\/invite\/[A-Za-z0-9_-]+)</.exec(body)?.[1]
const actions = async () => (await w.h.db.selectFrom('audit_log').select('action').orderBy('id').execute()).map((r) => r.action)
const roleOf = async (userId: number) =>
  (
    await w.h.db
      .selectFrom('workspace_members')
      .select('role')
      .where('workspace_id', '=', w.workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst()
  )?.role

before(async () => {
  w = await startWard({ env: { WARD_SIGNIN_LIMIT: '50' } })
  await setPassword(w, w.userId)
  bobId = (await w.user('bob')).userId
  await setPassword(w, bobId)
  alice = await signIn(w, 'alice')
})
after(() => w.close())

test('a signed-in person joins with a link once; the link is then dead', async () => {
  const made = await alice.post(`/workspaces/${w.workspaceId}/invitations`, { role: 'member' })
  assert.equal(made.statusCode, 200)
  const link = linkOf(made.body)!
  assert.ok(link, 'the link is shown once')
  assert.ok(!(await alice.get(`/workspaces/${w.workspaceId}/members`)).body.includes(link), 'and never again')
  const bob = await signIn(w, 'bob')
  const offer = await bob.get(link)
  assert.equal(offer.statusCode, 200)
  assert.match(offer.body, /data-testid="invite-role">member</)
  const joined = await bob.post(link)
  assert.equal(joined.statusCode, 303)
  assert.equal(await roleOf(bobId), 'member')
  assert.equal((await bob.get(link)).statusCode, 404)
  assert.equal((await bob.post(link)).statusCode, 404)
})

test('a new person creates an account through a link, with a password, and is signed in', async () => {
  const link = linkOf((await alice.post(`/workspaces/${w.workspaceId}/invitations`, { role: 'viewer' })).body)!
  const page = await w.app.inject({ method: 'GET', url: link })
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!
  const post = (form: Record<string, string>) =>
    w.app.inject({
      method: 'POST',
      url: `${link}/account`,
      headers: { cookie: cookieOf(page, 'ward_invite'), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: csrf, ...form }).toString(),
    })
  assert.equal((await post({ name: 'carol', password: PASSWORD, password2: 'different!!' })).statusCode, 400)
  assert.equal((await post({ name: 'BOB', password: PASSWORD, password2: PASSWORD })).statusCode, 409)
  const r = await post({ name: 'carol', password: PASSWORD, password2: PASSWORD })
  assert.equal(r.statusCode, 303, r.body)
  const session = cookieOf(r, 'ward_session')
  const home = await w.app.inject({ method: 'GET', url: '/targets', headers: { cookie: session } })
  assert.match(home.body, /data-testid="active-role"[^>]*>viewer</)
  assert.equal((await postSignIn(w, 'carol', PASSWORD)).statusCode, 303, 'the new password works')
})

test('a revoked link is dead; a non-owner cannot make one', async () => {
  const link = linkOf((await alice.post(`/workspaces/${w.workspaceId}/invitations`, { role: 'owner' })).body)!
  const id = (await w.h.db.selectFrom('workspace_invitations').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id
  assert.equal((await alice.post(`/workspaces/${w.workspaceId}/invitations/${id}/revoke`)).statusCode, 303)
  assert.equal((await w.app.inject({ method: 'GET', url: link })).statusCode, 404)
  const bob = await signIn(w, 'bob')
  assert.equal((await bob.post(`/workspaces/${w.workspaceId}/invitations`, { role: 'owner' })).statusCode, 403)
})

test('sign-ins, keys and page actions leave one entry each; none holds a password or token', async () => {
  const before = (await actions()).length
  assert.equal((await postSignIn(w, 'alice', 'wrong password')).statusCode, 401)
  assert.equal((await postSignIn(w, 'alice', PASSWORD)).statusCode, 303)
  assert.equal((await alice.post('/profile/keys')).statusCode, 303) // redirect after post: the key waits once in a sealed cookie
  assert.equal((await alice.post('/targets', { name: 'web-audit.example' })).statusCode, 303)
  assert.deepEqual((await actions()).slice(before), ['sign_in.failed', 'sign_in.succeeded', 'key.created', 'target.created'])
  const all = JSON.stringify(await w.h.db.selectFrom('audit_log').selectAll().execute())
  for (const secret of [PASSWORD, 'wrong password', 'ward_session']) assert.ok(!all.includes(secret), secret)
  const used = await w.h.db.selectFrom('audit_log').selectAll().where('action', '=', 'invitation.used').execute()
  assert.deepEqual(
    used.map((e) => [e.actor, e.workspace_id]),
    [
      ['bob', w.workspaceId],
      ['carol', w.workspaceId],
    ],
  )
})

test('the Audit page lists the entries of the owned workspaces, escaped; a viewer of them sees none', async () => {
  await alice.post('/targets', { name: 'audit-page.example' })
  await w.h.db
    .insertInto('audit_log')
    .values({
      at: new Date().toISOString(),
      workspace_id: w.workspaceId,
      actor_user_id: null,
      actor: '<script>x()</script>',
      client: null,
      action: 'target.created',
      object_type: 'target',
      object_id: null,
      details: '{}',
    })
    .execute()
  const p = await alice.get('/audit?action=target.created')
  assert.equal(p.statusCode, 200)
  assert.match(p.body, /audit-page\.example/)
  assert.ok(!p.body.includes('<script>x()'), 'actor text is escaped')
  assert.match(p.body, /&lt;script&gt;x\(\)/)
  const carol = await signIn(w, 'carol')
  const carolPage = (await carol.get('/audit')).body
  assert.ok(!carolPage.includes('audit-page.example'), "carol (a viewer) does not see the owner's log")
  assert.match(carolPage, /data-testid="audit-intro">[^<]*in the workspaces you own/)
  // alice, the first user, is the instance admin: the intro tells her she reads every entry.
  assert.match(p.body, /data-testid="audit-intro">As an instance admin you see every entry of this Ward: all workspaces/)
})

test('every audited form of the web interface leaves exactly one entry; refused ones leave none', async () => {
  const ws = w.workspaceId
  const done = new Set<string>()
  const all = async () => w.h.db.selectFrom('audit_log').selectAll().orderBy('id').execute()
  const newest = async (table: 'targets' | 'scans' | 'schedules' | 'scan_settings' | 'workspaces') =>
    (await w.h.db.selectFrom(table).select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id
  const step = async (action: string, url: string, form: Record<string, string> = {}) => {
    const before = (await all()).length
    const r = await alice.post(url, form)
    assert.ok([200, 303].includes(r.statusCode), `${url}: ${r.statusCode} ${r.body.slice(0, 200)}`)
    const after = await all()
    assert.equal(after.length, before + 1, `${url} left ${after.length - before} entries`)
    assert.equal(after.at(-1)!.action, action, url)
    assert.equal(after.at(-1)!.actor, 'alice')
    done.add(`POST ${url}`)
    return after.at(-1)!
  }
  const refused = async (url: string, form: Record<string, string>, status: number) => {
    const before = (await all()).length
    assert.equal((await alice.post(url, form)).statusCode, status, url)
    assert.equal((await all()).length, before, `${url} refused, no entry`)
  }
  const made = await step('target.created', '/targets', { name: 'every-form.example' })
  const target = await newest('targets')
  assert.deepEqual([made.object_id, made.workspace_id], [String(target), ws])
  await refused('/targets', { name: 'every-form.example' }, 409)
  const started = await step('scan.started', '/scans/new', { tool_id: '9001', target_id: String(target), 'p.9001.steps': '1' })
  const scan = await newest('scans')
  assert.equal(started.object_id, String(scan))
  await waitForScan(w, scan, isTerminal)
  await step('scan.stopped', `/scans/${scan}/stop`)
  const finding = (await w.h.db.selectFrom('findings').select('id').where('scan_id', '=', scan).executeTakeFirstOrThrow()).id
  await step('finding.triaged', `/findings/${finding}/triage`, { status: 'accepted', reason: 'known' })
  // Bulk triage: one entry per finding it changed, naming the finding.
  const bulk = await step('finding.triaged', '/findings/bulk', { ids: String(finding), status: 'open', reason: 'again' })
  assert.equal(bulk.object_id, String(finding))
  await step('scan_settings.created', '/scan-settings', { from_scan_id: String(scan), name: 'Every form' })
  const settings = await newest('scan_settings')
  await step('scan_settings.changed', `/scan-settings/${settings}/rename`, { name: 'Every form 2' })
  await step('scan_settings.deleted', `/scan-settings/${settings}/delete`)
  await step('schedule.created', '/schedules', { from_scan_id: String(scan), timing: 'interval', interval_minutes: '60' })
  const schedule = await newest('schedules')
  await step('schedule.paused', `/schedules/${schedule}/pause`)
  await step('schedule.resumed', `/schedules/${schedule}/resume`)
  await step('schedule.run', `/schedules/${schedule}/run`)
  for (const s of await w.h.db.selectFrom('scans').select('id').where('id', '>', scan).execute()) await waitForScan(w, s.id, isTerminal)
  await step('schedule.deleted', `/schedules/${schedule}/delete`)
  await step('scan.deleted', `/scans/${scan}/delete`)
  await step('target.deleted', `/targets/${target}/delete`)
  await step('workspace.created', '/workspaces', { name: 'Every form' })
  const other = await newest('workspaces')
  await refused('/workspaces', { name: 'Every form' }, 409)
  await step('workspace.renamed', `/workspaces/${other}/rename`, { name: 'Every form 2' })
  await step('vpn_profile.created', '/vpn-profiles', {
    name: 'office',
    type: 'socks5',
    host: '127.0.121.9',
    port: '1080',
    username: 'u',
    password: 'proxy-pass-9',
  })
  const vpn = (await w.h.db.selectFrom('vpn_profiles').select('uuid').where('name', '=', 'office').executeTakeFirstOrThrow()).uuid
  await step('workspace.vpn_profile_set', `/workspaces/${other}/vpn`, { vpn_profile_uuid: vpn })
  await step('workspace.vpn_profile_set', `/workspaces/${other}/vpn`, { vpn_profile_uuid: '' })
  await step('vpn_profile.deleted', `/vpn-profiles/${vpn}/delete`)
  await step('member.added', `/workspaces/${other}/members`, { user_name: 'bob', role: 'viewer' })
  await refused(`/workspaces/${other}/members`, { user_name: 'nobody', role: 'viewer' }, 404)
  await step('member.changed', `/workspaces/${other}/members/${bobId}/role`, { role: 'member' })
  await step('member.removed', `/workspaces/${other}/members/${bobId}/remove`)
  await refused(`/workspaces/${other}/members/${w.userId}/remove`, {}, 409)
  await step('invitation.created', `/workspaces/${other}/invitations`, { role: 'viewer' })
  const invitation = (await w.h.db.selectFrom('workspace_invitations').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id
  await step('invitation.revoked', `/workspaces/${other}/invitations/${invitation}/revoke`)
  await step('key.created', '/profile/keys')
  const key = (
    await w.h.db.selectFrom('api_keys').select('id').where('user_id', '=', w.userId).orderBy('id', 'desc').executeTakeFirstOrThrow()
  ).id
  await step('key.revoked', `/profile/keys/${key}/revoke`)
  await refused(`/profile/keys/${key}/revoke`, {}, 404)
  const forms = Object.keys(AUDITED).filter((k) => !k.includes(' /api/') && k !== 'POST /sign-in')
  const tried = [...done].map((u) => u.replace(/\/[0-9a-f-]{36}(?=\/|$)/, '/:uuid').replace(/\/\d+/g, '/:n'))
  assert.deepEqual(
    forms.filter((f) => !tried.includes(f.replace(/:[a-zA-Z]+/g, (m) => (m === ':uuid' ? m : ':n')))),
    [],
    'every audited web form is tried here (sign-in above)',
  )
  assert.ok(!JSON.stringify(await all()).includes('proxy-pass-9'), 'no secret in the log')
})
