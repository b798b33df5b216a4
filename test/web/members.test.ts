// The web interface with a shared workspace, through inject: the Members page (owners add by user
// name, change roles, remove; the last owner stays), the role beside the active workspace, the
// controls a viewer may not use left out of every page, and the same refusals when a viewer sends
// those forms by hand (403, nothing changed). A non-member gets 404 on the workspace's pages.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, type TestWard } from '../helpers/ward.js'
import { setPassword, signIn, type WebSession } from '../helpers/web.js'

let w: TestWard
let alice: WebSession
let carol: WebSession
let dave: WebSession
let carolId: number
let ids: { target: number; scan: number; finding: number }

const state = async () =>
  JSON.stringify(
    await Promise.all([
      w.h.db.selectFrom('targets').selectAll().orderBy('id').execute(),
      w.h.db.selectFrom('scans').select(['id', 'status', 'stop_requested']).orderBy('id').execute(),
      w.h.db.selectFrom('findings').select(['id', 'status', 'risk_level', 'verified']).orderBy('id').execute(),
      w.h.db.selectFrom('workspaces').selectAll().orderBy('id').execute(),
      w.h.db.selectFrom('workspace_members').selectAll().orderBy('workspace_id').orderBy('user_id').execute(),
    ]),
  )

before(async () => {
  w = await startWard({ env: { WARD_SIGNIN_LIMIT: '50' } })
  await setPassword(w, w.userId)
  const c = await w.user('carol')
  const d = await w.user('dave')
  carolId = c.userId
  await setPassword(w, c.userId)
  await setPassword(w, d.userId)
  ;[alice, carol, dave] = [await signIn(w, 'alice'), await signIn(w, 'carol'), await signIn(w, 'dave')]
  const target = (await w.req('POST', '/api/v2/targets', { form: { name: 'shared.example' } })).json().data.created_id
  const scan = (
    await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: target, tool_params: { steps: 1, step_ms: 1 } } })
  ).json().data.created_id
  await waitForScan(w, scan, (s) => s.status_name === 'finished')
  ids = { target, scan, finding: (await w.req('GET', `/api/v2/findings?task_id=${scan}`)).json().data[0].id }
})
after(() => w.close())

test('an owner adds a member by user name on the Members page, changes the role and cannot remove the last owner', async () => {
  const page = await alice.get(`/workspaces/${w.workspaceId}/members`)
  assert.equal(page.statusCode, 200)
  assert.match(page.body, /data-member="alice"/)
  assert.match(page.body, /Add member/)
  const added = await alice.post(`/workspaces/${w.workspaceId}/members`, { user_name: 'carol', role: 'member' })
  assert.equal(added.statusCode, 303, added.body)
  assert.equal(added.headers.location, `/workspaces/${w.workspaceId}/members?ok=member-added`)
  const changed = await alice.post(`/workspaces/${w.workspaceId}/members/${carolId}/role`, { role: 'viewer' })
  assert.equal(changed.statusCode, 303)
  const roles = await w.h.db
    .selectFrom('workspace_members')
    .select(['user_id', 'role'])
    .where('workspace_id', '=', w.workspaceId)
    .orderBy('user_id')
    .execute()
  assert.deepEqual(roles, [
    { user_id: w.userId, role: 'owner' },
    { user_id: carolId, role: 'viewer' },
  ])
  const last = await alice.post(`/workspaces/${w.workspaceId}/members/${w.userId}/remove`)
  assert.equal(last.statusCode, 409)
  assert.match(last.body, /always keeps an owner/)
  const unknown = await alice.post(`/workspaces/${w.workspaceId}/members`, { user_name: '<b>nobody</b>', role: 'viewer' })
  assert.equal(unknown.statusCode, 404)
  assert.ok(!unknown.body.includes('<b>nobody</b>'), 'what was typed is never shown unescaped')
})

test('a viewer sees the role beside the workspace and no control they may not use', async () => {
  await carol.post(`/workspaces/${w.workspaceId}/activate`)
  const pages = {
    targets: await carol.get('/targets'),
    scans: await carol.get('/scans'),
    scan: await carol.get(`/scans/${ids.scan}`),
    finding: await carol.get(`/findings/${ids.finding}`),
    members: await carol.get(`/workspaces/${w.workspaceId}/members`),
    dashboard: await carol.get('/'),
  }
  for (const [name, p] of Object.entries(pages)) {
    assert.equal(p.statusCode, 200, name)
    assert.match(p.body, /data-testid="active-role"[^>]*>viewer</, `${name}: the role beside the workspace`)
    for (const control of [
      'method="post" action="/targets"',
      '/delete"',
      '/stop"',
      '/triage"',
      'href="/scans/new',
      'Add member',
      '/role"',
      '/remove"',
    ])
      assert.ok(!p.body.includes(control), `${name} shows ${control} to a viewer`)
  }
  assert.match(pages.scan.body, /Download PDF report/, 'downloads stay')
  const own = await alice.get('/targets')
  assert.match(own.body, /data-testid="active-role"[^>]*>owner</)
  for (const control of ['method="post" action="/targets"', '/delete"']) assert.ok(own.body.includes(control), `the owner sees ${control}`)
})

test("a viewer's hand-made forms are refused with 403 and change nothing; a non-member gets 404", async () => {
  const before = await state()
  const forms: Array<[string, Record<string, string>]> = [
    ['/targets', { name: 'carol.example' }],
    [`/targets/${ids.target}/delete`, {}],
    [`/scans/${ids.scan}/delete`, {}],
    [`/scans/${ids.scan}/stop`, {}],
    [`/findings/${ids.finding}/triage`, { status: 'accepted' }],
    ['/scans/new', { tool_id: '9001', target_id: String(ids.target) }],
    [`/workspaces/${w.workspaceId}/vpn`, { vpn_profile_uuid: '' }],
    [`/workspaces/${w.workspaceId}/rename`, { name: 'mine now' }],
    [`/workspaces/${w.workspaceId}/members`, { user_name: 'dave', role: 'owner' }],
    [`/workspaces/${w.workspaceId}/members/${carolId}/role`, { role: 'owner' }],
    [`/workspaces/${w.workspaceId}/members/${w.userId}/remove`, {}],
  ]
  for (const [url, form] of forms) {
    const r = await carol.post(url, form)
    assert.equal(r.statusCode, 403, `${url} → ${r.statusCode}`)
  }
  for (const url of [`/workspaces/${w.workspaceId}/members`, `/scans/${ids.scan}`, `/findings/${ids.finding}`])
    assert.equal((await dave.get(url)).statusCode, 404, url)
  for (const [url, form] of forms.slice(1)) assert.equal((await dave.post(url, form)).statusCode, 404, url)
  assert.equal(await state(), before)
})
