// VPN profiles: per-user egress settings. Every query is scoped by user_id; another user's uuid reads
// exactly like an unknown one. A workspace's default profile serves every member's scans in it. The
// password is stored sealed (secret-box.ts) and leaves this module in plain text only for the
// worker's egress (getVpnProfileForEgress).
import { inTransaction, type Db } from './db.js'
import type { VpnProfileRow } from './schema.js'
import { secretsOf } from './secrets.js'
import { memberWorkspaces, writableWorkspaces } from './members.js'
import { hasRunningScan } from './running-scans.js'

export type NewVpnProfile = Omit<VpnProfileRow, 'created_at'> & { created_at: string }

/** Stores a profile given with its password in plain text; the row holds it sealed. */
export async function insertVpnProfile(db: Db, p: NewVpnProfile): Promise<string> {
  await db
    .insertInto('vpn_profiles')
    .values({ ...p, password: p.password === null ? null : secretsOf(db).seal(p.password) })
    .execute()
  return p.uuid
}

export const listVpnProfiles = (db: Db, userId: number) =>
  db.selectFrom('vpn_profiles').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('uuid').execute()

/** A profile as stored: `password` is sealed (null when there is none). */
export const getVpnProfile = (db: Db, userId: number, uuid: string) =>
  db.selectFrom('vpn_profiles').selectAll().where('uuid', '=', uuid).where('user_id', '=', userId).executeTakeFirst()

/** Whether a profile exists, whoever made it: a workspace's default serves all its members. */
export const vpnProfileExists = async (db: Db, uuid: string) =>
  !!(await db.selectFrom('vpn_profiles').select('uuid').where('uuid', '=', uuid).executeTakeFirst())

/**
 * A profile with its password opened, for the egress that connects through it (workers only). By uuid
 * alone: the scan's creation checked that its user could use it (their own, or their workspace's default).
 */
export async function getVpnProfileForEgress(db: Db, uuid: string): Promise<VpnProfileRow | undefined> {
  const p = await db.selectFrom('vpn_profiles').selectAll().where('uuid', '=', uuid).executeTakeFirst()
  return p && p.password !== null ? { ...p, password: secretsOf(db).open(p.password) } : p
}

/** Ids of the workspaces the caller belongs to whose default profile this is, per profile uuid. */
export async function workspacesByProfile(db: Db, userId: number): Promise<Map<string, number[]>> {
  const rows = await db
    .selectFrom('workspaces')
    .select(['id', 'vpn_profile_uuid'])
    .where('id', 'in', memberWorkspaces(db, userId))
    .where('vpn_profile_uuid', 'is not', null)
    .orderBy('id')
    .execute()
  const out = new Map<string, number[]>()
  for (const r of rows) out.set(r.vpn_profile_uuid!, [...(out.get(r.vpn_profile_uuid!) ?? []), r.id])
  return out
}

/**
 * Deletes a profile unless a running scan uses it, and detaches it from the workspaces that default to it.
 * Waiting scans that named it end `VPN connection error` when a worker picks them up.
 */
export async function deleteVpnProfile(db: Db, userId: number, uuid: string): Promise<'deleted' | 'missing' | 'running'> {
  return inTransaction(db, async (trx) => {
    const p = await trx.selectFrom('vpn_profiles').select('uuid').where('uuid', '=', uuid).where('user_id', '=', userId).executeTakeFirst()
    if (!p) return 'missing'
    if (await hasRunningScan(trx, 'vpn_profile_uuid', uuid)) return 'running'
    await trx.updateTable('workspaces').set({ vpn_profile_uuid: null }).where('vpn_profile_uuid', '=', uuid).execute()
    await trx.deleteFrom('vpn_profiles').where('uuid', '=', uuid).where('user_id', '=', userId).execute()
    return 'deleted'
  })
}

/** Sets (or clears) a workspace's default profile. False unless the user may change the workspace. */
export async function setWorkspaceVpnProfile(db: Db, userId: number, workspaceId: number, uuid: string | null): Promise<boolean> {
  const r = await db
    .updateTable('workspaces')
    .set({ vpn_profile_uuid: uuid })
    .where('id', '=', workspaceId)
    .where('id', 'in', writableWorkspaces(db, userId))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}
