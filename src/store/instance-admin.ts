// Instance administration: the admin flag and disabling users. A disabled user's API keys and web
// sessions are refused by the queries that authenticate them (accounts.ts callerByKeyHash,
// web-sessions.ts sessionUser); disabling also ends their sessions. Every change writes its audit
// entry in its own transaction, so a change that fails leaves none.
import type { Transaction } from 'kysely'
import type { Db } from './db.js'
import type { Database } from './schema.js'
import { appendAudit, instanceAdmin, type AuditActor } from './audit.js'
import { nowIso } from './time.js'
import { countRows } from './paging.js'

export interface AdminUserRow {
  id: number
  name: string
  is_admin: boolean
  disabled_at: string | null
  created_at: string
  active_keys: number
  workspaces: number
}

/** Whether an admin disabled the user (their keys, sessions and sign-ins are refused). */
export async function isDisabledUser(db: Db, userId: number): Promise<boolean> {
  const r = await db.selectFrom('users').select('disabled_at').where('id', '=', userId).executeTakeFirst()
  return !!r?.disabled_at
}

/** Whether the user is an enabled instance admin, read now. */
export async function isInstanceAdmin(db: Db, userId: number): Promise<boolean> {
  const r = await db.selectFrom('users').select('id').where('id', '=', userId).where(instanceAdmin(userId)).executeTakeFirst()
  return !!r
}

/** Every user with their admin flag, state, active keys and memberships, oldest first. */
export async function listUsersForAdmin(db: Db): Promise<AdminUserRow[]> {
  const rows = await db
    .selectFrom('users')
    .select((eb) => [
      'users.id',
      'users.name',
      'users.is_admin',
      'users.disabled_at',
      'users.created_at',
      eb
        .selectFrom('api_keys')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('api_keys.user_id', '=', 'users.id')
        .where('api_keys.revoked_at', 'is', null)
        .as('active_keys'),
      eb
        .selectFrom('workspace_members')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('workspace_members.user_id', '=', 'users.id')
        .as('workspaces'),
    ])
    .orderBy('users.id')
    .execute()
  return rows.map((r) => ({ ...r, is_admin: r.is_admin === 1, active_keys: Number(r.active_keys), workspaces: Number(r.workspaces) }))
}

/** What a change of a user's state came to. */
export type UserChange = 'done' | 'unchanged' | 'missing' | 'self' | 'last-admin'

export interface UserChangeOptions {
  /** The admin who asks (null: `ward admin` at the console, which may do anything). */
  by: number | null
  actor: AuditActor
}

const enabledAdmins = (trx: Transaction<Database>) =>
  countRows(trx.selectFrom('users').where('is_admin', '=', 1).where('disabled_at', 'is', null))

/**
 * Runs a change of one user's row for an admin (or the console): the caller must still be an enabled
 * admin when it runs (checked in the transaction), and the instance must keep an enabled admin when
 * an admin changes it (the console is always the way back in, so it is not held to that).
 */
async function asAdmin(
  db: Db,
  userId: number,
  o: UserChangeOptions,
  change: (trx: Transaction<Database>) => Promise<{ changed: boolean; action: string; details: Record<string, unknown> }>,
): Promise<UserChange> {
  // Thrown inside so the transaction rolls back, then turned into the answer.
  const refused = new Error('refused')
  let answer: UserChange = 'done'
  try {
    return await db.transaction().execute(async (trx) => {
      if (
        o.by !== null &&
        !(await trx.selectFrom('users').select('id').where('id', '=', o.by).where(instanceAdmin(o.by)).executeTakeFirst())
      )
        return 'missing'
      if (!(await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst())) return 'missing'
      const r = await change(trx)
      if (!r.changed) return 'unchanged'
      if (o.by !== null && (await enabledAdmins(trx)) === 0) {
        answer = 'last-admin'
        throw refused
      }
      await appendAudit(trx, { ...o.actor, workspaceId: null, action: r.action, objectType: 'user', objectId: userId, details: r.details })
      return 'done'
    })
  } catch (e) {
    if (e === refused) return answer
    throw e
  }
}

/** Disables (their keys and sessions stop at once) or re-enables a user. An admin cannot disable themselves. */
export function setUserDisabled(db: Db, userId: number, disabled: boolean, o: UserChangeOptions): Promise<UserChange> {
  if (disabled && o.by === userId) return Promise.resolve('self')
  return asAdmin(db, userId, o, async (trx) => {
    const r = await trx
      .updateTable('users')
      .set({ disabled_at: disabled ? nowIso() : null })
      .where('id', '=', userId)
      .where('disabled_at', disabled ? 'is' : 'is not', null)
      .executeTakeFirst()
    if (disabled) await trx.deleteFrom('web_sessions').where('user_id', '=', userId).execute()
    return { changed: Number(r.numUpdatedRows) > 0, action: disabled ? 'user.disabled' : 'user.enabled', details: {} }
  })
}

/** Grants or withdraws the instance admin role. */
export function setUserAdmin(db: Db, userId: number, admin: boolean, o: UserChangeOptions): Promise<UserChange> {
  return asAdmin(db, userId, o, async (trx) => {
    const r = await trx
      .updateTable('users')
      .set({ is_admin: admin ? 1 : 0 })
      .where('id', '=', userId)
      .where('is_admin', '=', admin ? 0 : 1)
      .executeTakeFirst()
    return { changed: Number(r.numUpdatedRows) > 0, action: admin ? 'admin.granted' : 'admin.revoked', details: {} }
  })
}
