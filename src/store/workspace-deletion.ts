// Deleting a workspace: an owner's change like a change of membership (store/members.ts asOwner),
// with its audit entry in the same transaction.
import { sql } from 'kysely'
import type { Db } from './db.js'
import { appendAudit, type AuditActor } from './audit.js'
import { asOwner, type MemberChange } from './members.js'
import { hasRunningScan } from './running-scans.js'

/**
 * Deletes a workspace (owners only) with everything in it: targets, scans (waiting ones never start),
 * findings, schedules, invitations, integrations (the foreign keys cascade). Refused while one of its
 * scans runs: stop them first, as for a target. Members whose active workspace it was fall back to
 * another; the audit entry is written in the same transaction, without a workspace (its log is no
 * longer anyone's to read): the deleting owner and instance admins read it. `members` receives the
 * ids of the people who lost access.
 */
export function deleteWorkspace(
  db: Db,
  callerId: number,
  workspaceId: number,
  actor: AuditActor,
  members: number[] = [],
): Promise<MemberChange> {
  return asOwner(db, callerId, workspaceId, async (trx) => {
    if (await hasRunningScan(trx, 'workspace_id', workspaceId)) return 'running'
    const ws = await trx.selectFrom('workspaces').select('name').where('id', '=', workspaceId).executeTakeFirstOrThrow()
    const counts = await trx
      .selectFrom('targets')
      .select(['user_id', (e) => e.fn.countAll<number>().as('n')])
      .where('workspace_id', '=', workspaceId)
      .groupBy('user_id')
      .execute()
    members.push(
      ...(await trx.selectFrom('workspace_members').select('user_id').where('workspace_id', '=', workspaceId).execute()).map(
        (m) => m.user_id,
      ),
    )
    await trx.deleteFrom('workspaces').where('id', '=', workspaceId).execute()
    // Target limits count the creator's targets, whoever deletes them.
    for (const c of counts)
      await trx
        .updateTable('users')
        .set({ target_count: sql`target_count - ${Number(c.n)}` })
        .where('id', '=', c.user_id)
        .execute()
    await trx
      .updateTable('users')
      .set({ active_workspace_id: sql`(select min(wm.workspace_id) from workspace_members wm where wm.user_id = users.id)` })
      .where('active_workspace_id', '=', workspaceId)
      .execute()
    await appendAudit(trx, {
      ...actor,
      workspaceId: null,
      action: 'workspace.deleted',
      objectType: 'workspace',
      objectId: workspaceId,
      details: { name: ws.name, targets: counts.reduce((a, c) => a + Number(c.n), 0) },
    })
    return 'done'
  })
}
