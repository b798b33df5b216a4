// The audit log: appended to, never changed. Reads are for owners (the workspaces they own, and
// their own entries without a workspace: sign-ins, keys) and for instance admins (everything) —
// tenancy inside the query, as elsewhere.
import type { Db } from './db.js'
import type { AuditLogTable, Database } from './schema.js'
import { sql, type Selectable, type SqlBool, type Transaction } from 'kysely'
import { memberWorkspaces, OWNER_ROLES } from './members.js'
import { nowIso } from './time.js'
import { newestPage, whereGiven } from './paging.js'

export interface AuditEntry {
  workspaceId: number | null
  actorUserId: number | null
  /** The user's name, with "(key <prefix>)" when an API key acted, or "system". */
  actor: string
  client: string | null
  action: string
  objectType: string | null
  objectId: string | number | null
  details: Record<string, unknown>
}

/** Who acted, as the audit log names them (see AuditEntry). */
export type AuditActor = Pick<AuditEntry, 'actorUserId' | 'actor' | 'client'>
export const SYSTEM_ACTOR: AuditActor = { actorUserId: null, actor: 'system', client: null }

/** Appends one entry; given a transaction, the entry commits or rolls back with the change it records. */
export async function appendAudit(db: Db | Transaction<Database>, e: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at: nowIso(),
      workspace_id: e.workspaceId,
      actor_user_id: e.actorUserId,
      actor: e.actor,
      client: e.client,
      action: e.action,
      object_type: e.objectType,
      object_id: e.objectId === null ? null : String(e.objectId),
      details: JSON.stringify(e.details),
    })
    .execute()
}

export interface AuditFilter {
  workspaceId?: number
  actor?: string
  action?: string
  from?: string
  to?: string
  limit: number
  page: number
}

export type AuditRow = Selectable<AuditLogTable>

/** The user is an enabled instance admin, as a condition inside a query (never a cached flag). */
export const instanceAdmin = (userId: number) =>
  sql<SqlBool>`exists (select 1 from users adm where adm.id = ${userId} and adm.is_admin = 1 and adm.disabled_at is null)`

/** Entries the user may read (see above; an instance admin reads every entry), newest first. */
export function listAudit(db: Db, userId: number, f: AuditFilter): Promise<AuditRow[]> {
  const q = db
    .selectFrom('audit_log')
    .selectAll()
    .where((eb) =>
      eb.or([
        instanceAdmin(userId),
        eb('workspace_id', 'in', memberWorkspaces(db, userId, OWNER_ROLES)),
        eb.and([eb('workspace_id', 'is', null), eb('actor_user_id', '=', userId)]),
      ]),
    )
  const given = whereGiven(q, [
    ['workspace_id', '=', f.workspaceId],
    ['actor', '=', f.actor],
    ['action', '=', f.action],
    ['at', '>=', f.from],
    ['at', '<=', f.to],
  ])
  return newestPage(given, f)
}

/** Every entry since a time, oldest first (the instance-wide export for a SIEM). */
export const auditSince = (db: Db, since: string) => db.selectFrom('audit_log').selectAll().where('at', '>=', since).orderBy('id').execute()
