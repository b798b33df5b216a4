// The audit log: appended to, never changed. Reads are for owners (the workspaces they own, and
// their own entries without a workspace: sign-ins, keys) and for instance admins (everything) —
// tenancy inside the query, as elsewhere.
import { inTransaction, type Db } from './db.js'
import type { AuditLogTable, Database } from './schema.js'
import { sql, type Selectable, type SqlBool, type Transaction } from 'kysely'
import { memberWorkspaces, OWNER_ROLES } from './members.js'
import { nowIso } from './time.js'
import { newestPage, whereGiven, within } from './paging.js'

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

/** The tables whose rows carry the workspace of an audited object. */
export type ObjectTable = 'targets' | 'scans' | 'findings' | 'schedules' | 'scan_settings'

/**
 * What a change will record if it is done, known before it runs (the API builds it from the request,
 * api/audited-routes.ts): who, the action, the object (its id when the request names it) and where
 * its workspace comes from — a known id, none, or the object's row in a table.
 */
export interface AuditIntent extends AuditActor {
  action: string
  objectType: string
  objectId: string | null
  workspace: number | null | { table: ObjectTable }
  details: Record<string, unknown>
  /** Set once its entry is written (the API checks that a done request wrote one). */
  written?: boolean
}

/** How a change came out, for its entry: not done (no entry), done, or done with the id it created. */
export type AuditOutcome = boolean | { objectId: string | number }

async function workspaceOfObject(db: Db, table: ObjectTable, id: string | null): Promise<number | null> {
  const n = Number(id)
  if (!Number.isSafeInteger(n) || n < 1) return null
  return (await db.selectFrom(table).select('workspace_id').where('id', '=', n).executeTakeFirst())?.workspace_id ?? null
}

/**
 * Runs a change and writes its audit entry in one transaction: a change is never done without its
 * entry, and a refused change (`outcome` false) or a failed one (it throws: rolled back) leaves none.
 * The object's workspace is read before the change (a deleted row is gone after) or, for a created
 * object, after it. Without an intent (a caller that is not audited) the change just runs.
 */
export async function audited<T>(
  db: Db,
  intent: AuditIntent | undefined,
  change: (trx: Db) => Promise<T>,
  outcome: (r: T) => AuditOutcome,
): Promise<T> {
  if (!intent) return change(db)
  return inTransaction(db, async (trx) => {
    const ws = intent.workspace
    const before =
      ws !== null && typeof ws === 'object' && intent.objectId !== null ? await workspaceOfObject(trx, ws.table, intent.objectId) : null
    const r = await change(trx)
    const o = outcome(r)
    if (!o) return r
    const objectId = typeof o === 'object' ? String(o.objectId) : intent.objectId
    const workspaceId =
      ws === null || typeof ws === 'number' ? ws : (before ?? (objectId === null ? null : await workspaceOfObject(trx, ws.table, objectId)))
    await appendAudit(trx, { ...intent, workspaceId, objectId })
    intent.written = true
    return r
  })
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
    ...within('at', f.from, f.to),
  ])
  return newestPage(given, f)
}

/** Every entry since a time, oldest first (the instance-wide export for a SIEM). */
export const auditSince = (db: Db, since: string) => db.selectFrom('audit_log').selectAll().where('at', '>=', since).orderBy('id').execute()
