// Targets repository. Every read takes the caller's user id: tenancy (workspace membership) lives in the query.
import { sql } from 'kysely'
import { inTransaction, type Db } from './db.js'
import { memberWorkspaces, WRITER_ROLES, type Role } from './members.js'
import type { TargetRow } from './schema.js'
import { nowIso } from './time.js'
import { newestPage } from './paging.js'
import { hasRunningScan } from './running-scans.js'
import { deleteScanResults } from './results.js'
import { getMemberRow, getOwned } from './workspace-rows.js'

export interface TargetFilter {
  workspaceId?: number
  type?: string
  limit: number
  page: number
}

export async function listTargets(db: Db, userId: number, f: TargetFilter): Promise<TargetRow[]> {
  let q = db.selectFrom('targets').selectAll().where('workspace_id', 'in', memberWorkspaces(db, userId))
  if (f.workspaceId !== undefined) q = q.where('workspace_id', '=', f.workspaceId)
  if (f.type !== undefined) q = q.where('type', '=', f.type)
  return newestPage(q, f)
}

/** A target of a workspace the user belongs to (with one of `roles` when given). */
export const getTarget = (db: Db, userId: number, id: number, roles?: readonly Role[]): Promise<TargetRow | undefined> =>
  getMemberRow(db, 'targets', userId, id, roles)

export const findTargetByKey = (db: Db, workspaceId: number, nameKey: string) =>
  db.selectFrom('targets').selectAll().where('workspace_id', '=', workspaceId).where('name_key', '=', nameKey).executeTakeFirst()

/** The user's number of targets: a counter on the user's row (migration 015), not a COUNT that grows with the table. */
export const countUserTargets = async (db: Db, userId: number) =>
  Number((await db.selectFrom('users').select('target_count').where('id', '=', userId).executeTakeFirst())?.target_count ?? 0)

type NewTarget = { workspaceId: number; userId: number; name: string; nameKey: string; type: string; description: string }

export async function insertTarget(db: Db, t: NewTarget): Promise<number> {
  return (await insertCounted(db, t, null))!
}

/** insertTarget unless the user already has `maxTargets` targets (null then): the check and the insert are one transaction. */
export const insertTargetWithinLimit = (db: Db, t: NewTarget, maxTargets: number) => insertCounted(db, t, maxTargets)

function insertCounted(db: Db, t: NewTarget, maxTargets: number | null): Promise<number | null> {
  return inTransaction(db, async (trx) => {
    let counted = trx.updateTable('users').set({ target_count: sql`target_count + 1` }).where('id', '=', t.userId)
    if (maxTargets !== null) counted = counted.where('target_count', '<', maxTargets)
    if (!Number((await counted.executeTakeFirst()).numUpdatedRows)) return null
    const row = await trx
      .insertInto('targets')
      .values({
        workspace_id: t.workspaceId,
        user_id: t.userId,
        name: t.name,
        name_key: t.nameKey,
        type: t.type,
        description: t.description,
        created_at: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  })
}

/** Deletes the target with its scans, tests, findings and logs in one transaction, unless a scan runs; 'missing' unless the user may change its workspace. */
export async function deleteTarget(db: Db, userId: number, id: number): Promise<'deleted' | 'missing' | 'running'> {
  return inTransaction(db, async (trx) => {
    const t = await getOwned(trx, 'targets', userId, id, WRITER_ROLES)
    if (!t) return 'missing'
    if (await hasRunningScan(trx, 'target_id', id)) return 'running'
    await deleteScanResults(trx, trx.selectFrom('scans').select('id').where('target_id', '=', id))
    await trx.deleteFrom('scans').where('target_id', '=', id).execute()
    await trx.deleteFrom('targets').where('id', '=', id).execute()
    // The count is the creator's (their limit), whoever deletes the target.
    await trx.updateTable('users').set({ target_count: sql`target_count - 1` }).where('id', '=', t.user_id).execute()
    return 'deleted'
  })
}

/** A target by id regardless of owner: for the engine and reports, which act for the scan's owner. */
export const getTargetById = (db: Db, id: number) => db.selectFrom('targets').selectAll().where('id', '=', id).executeTakeFirst()
