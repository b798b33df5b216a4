// Saved scan settings repository, tenancy in every query: members of the workspace read them,
// writers (owner, member) create, rename, change and delete them. tool_params arrive sealed
// (domain/scan-settings.ts seals credentials before they reach here).
import type { Db } from './db.js'
import type { ScanSettingsRow } from './schema.js'
import { memberWorkspaces, type Role } from './members.js'
import { deleteOwned, getOwned, insertOwned, updateOwned } from './workspace-rows.js'

export type NewScanSettings = Omit<ScanSettingsRow, 'id' | 'created_at' | 'updated_at'>
export type ScanSettingsChanges = Partial<Pick<ScanSettingsRow, 'name' | 'tool_params' | 'max_scan_time'>>

export const insertScanSettings = (db: Db, s: NewScanSettings): Promise<number> => insertOwned(db, 'scan_settings', s)

/** Saved settings of a workspace the user belongs to (with one of `roles` when given). */
export const getScanSettings = (db: Db, userId: number, id: number, roles?: readonly Role[]) =>
  getOwned(db, 'scan_settings', userId, id, roles)

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

export const updateScanSettings = (db: Db, userId: number, id: number, set: ScanSettingsChanges): Promise<boolean> =>
  updateOwned(db, 'scan_settings', userId, id, set)

export const deleteScanSettings = (db: Db, userId: number, id: number): Promise<boolean> => deleteOwned(db, 'scan_settings', userId, id)
