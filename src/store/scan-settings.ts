// Saved scan settings repository, tenancy in every query: members of the workspace read them,
// writers (owner, member) create, rename, change and delete them. tool_params arrive sealed
// (domain/scan-settings.ts seals credentials before they reach here).
import type { Db } from './db.js'
import type { ScanSettingsRow } from './schema.js'
import { nowIso } from './time.js'
import { memberWorkspaces, writableWorkspaces, type Role } from './members.js'

export type NewScanSettings = Omit<ScanSettingsRow, 'id' | 'created_at' | 'updated_at'>
export type ScanSettingsChanges = Partial<Pick<ScanSettingsRow, 'name' | 'tool_params' | 'max_scan_time'>>

export async function insertScanSettings(db: Db, s: NewScanSettings): Promise<number> {
  const now = nowIso()
  const row = await db
    .insertInto('scan_settings')
    .values({ ...s, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Saved settings of a workspace the user belongs to (with one of `roles` when given). */
export const getScanSettings = (db: Db, userId: number, id: number, roles?: readonly Role[]) =>
  db
    .selectFrom('scan_settings')
    .selectAll()
    .where('id', '=', id)
    .where('workspace_id', 'in', memberWorkspaces(db, userId, roles))
    .executeTakeFirst()

/** The user's saved settings (one workspace, or every workspace they belong to), by name. */
export function listScanSettings(db: Db, userId: number, f: { workspaceId?: number; toolId?: number; limit: number; page: number }) {
  let q = db.selectFrom('scan_settings').selectAll().where('workspace_id', 'in', memberWorkspaces(db, userId))
  if (f.workspaceId !== undefined) q = q.where('workspace_id', '=', f.workspaceId)
  if (f.toolId !== undefined) q = q.where('tool_id', '=', f.toolId)
  return q
    .orderBy('name')
    .orderBy('id')
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute()
}

export async function updateScanSettings(db: Db, userId: number, id: number, set: ScanSettingsChanges): Promise<boolean> {
  const r = await db
    .updateTable('scan_settings')
    .set({ ...set, updated_at: nowIso() })
    .where('id', '=', id)
    .where('workspace_id', 'in', writableWorkspaces(db, userId))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function deleteScanSettings(db: Db, userId: number, id: number): Promise<boolean> {
  const r = await db
    .deleteFrom('scan_settings')
    .where('id', '=', id)
    .where('workspace_id', 'in', writableWorkspaces(db, userId))
    .executeTakeFirst()
  return Number(r.numDeletedRows) === 1
}
