// The group mapping's memberships on the real database (both backends): added, changed and removed
// with the groups; memberships added by hand never touched; the last owner kept; the highest role wins;
// a provider account is one user, whose name is made unique.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../helpers/ward.js'
import { syncGroupMemberships, userForIdentity } from '../../src/store/sso.js'
import { addMember } from '../../src/store/members.js'

let w: TestWard
before(async () => {
  w = await startWard({ worker: false })
})
after(() => w?.close())

const roleOf = async (userId: number, workspaceId: number) =>
  (
    await w.h.db
      .selectFrom('workspace_members')
      .select('role')
      .where('user_id', '=', userId)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst()
  )?.role ?? null
const ws = async (name: string) => (await w.req('POST', '/api/v2/workspaces', { body: { name } })).json().data.created_id as number

test('a provider account is one user, created once, with a name no one has yet', async () => {
  const a = await userForIdentity(w.h.db, 'https://idp', 'sub-1', { name: 'ALICE', maxTargets: 10 })
  assert.deepEqual([a.name, a.created], ['ALICE-2', true])
  const again = await userForIdentity(w.h.db, 'https://idp', 'sub-1', { name: 'other', maxTargets: 10 })
  assert.deepEqual([again.userId, again.name, again.created], [a.userId, 'ALICE-2', false])
  const elsewhere = await userForIdentity(w.h.db, 'https://other-idp', 'sub-1', { name: 'alice', maxTargets: 10 })
  assert.notEqual(elsewhere.userId, a.userId, 'same subject at another issuer: another person')
  assert.equal(elsewhere.name, 'alice-3')
})

test('memberships follow the groups; manual ones stay; the last owner stays', async () => {
  const prod = await ws('Production')
  const lab = await ws('Lab')
  const u = await userForIdentity(w.h.db, 'https://idp', 'sub-2', { name: 'dana', maxTargets: 10 })
  assert.equal(await addMember(w.h.db, w.userId, lab, u.userId, 'viewer'), 'done')

  let c = await syncGroupMemberships(w.h.db, u.userId, [
    { workspace: 'Production', role: 'viewer' },
    { workspace: 'Production', role: 'member' },
    { workspace: 'Lab', role: 'owner' },
  ])
  assert.deepEqual(c, [{ workspaceId: prod, action: 'member.added', role: 'member' }], 'highest role wins; Lab was added by hand')
  assert.equal(await roleOf(u.userId, lab), 'viewer')

  c = await syncGroupMemberships(w.h.db, u.userId, [{ workspace: 'Production', role: 'owner' }])
  assert.deepEqual(c, [{ workspaceId: prod, action: 'member.changed', role: 'owner' }])
  // alice leaves Production: dana, through the mapping, is its last owner.
  assert.equal(
    await w.h.db
      .deleteFrom('workspace_members')
      .where('workspace_id', '=', prod)
      .where('user_id', '=', w.userId)
      .execute()
      .then(() => 'ok'),
    'ok',
  )
  c = await syncGroupMemberships(w.h.db, u.userId, [])
  assert.deepEqual(c, [], 'the last owner is neither demoted nor removed')
  assert.equal(await roleOf(u.userId, prod), 'owner')
  assert.equal(await roleOf(u.userId, lab), 'viewer', 'the manual membership stays')

  await addMember(w.h.db, u.userId, prod, w.userId, 'owner')
  c = await syncGroupMemberships(w.h.db, u.userId, [])
  assert.deepEqual(c, [{ workspaceId: prod, action: 'member.removed', role: null }])
  assert.equal(await roleOf(u.userId, prod), null)
  const sso = await w.h.db.selectFrom('sso_memberships').selectAll().where('user_id', '=', u.userId).execute()
  assert.deepEqual(sso, [])
})

test("`*` is every workspace; a membership removed by hand is the mapping's to add again", async () => {
  const u = await userForIdentity(w.h.db, 'https://idp', 'sub-3', { name: 'erin', maxTargets: 10 })
  const all = await w.h.db.selectFrom('workspaces').select('id').execute()
  const c = await syncGroupMemberships(w.h.db, u.userId, [{ workspace: '*', role: 'viewer' }])
  // Every workspace but her own Default, where she is owner by hand.
  assert.equal(c.length, all.length - 1)
  assert.ok(c.every((x) => x.action === 'member.added' && x.role === 'viewer'))
  const own = (await w.h.db.selectFrom('users').select('active_workspace_id').where('id', '=', u.userId).executeTakeFirstOrThrow())
    .active_workspace_id!
  assert.equal(await roleOf(u.userId, own), 'owner')
  await w.h.db.deleteFrom('workspace_members').where('workspace_id', '=', w.workspaceId).where('user_id', '=', u.userId).execute()
  const again = await syncGroupMemberships(w.h.db, u.userId, [{ workspace: '*', role: 'viewer' }])
  assert.deepEqual(again, [{ workspaceId: w.workspaceId, action: 'member.added', role: 'viewer' }])
})
