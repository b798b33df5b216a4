// An audited change on the one item a route's path id names, refused as the caller may see that item.
import type { Caller } from '../store/accounts.js'
import { audited, type AuditIntent, type AuditOutcome } from '../store/audit.js'
import type { Db } from '../store/db.js'
import { refusal } from '../domain/access.js'
import { notFound } from '../domain/errors.js'
import { callerOf } from './context.js'

/** A kind of item named by a path id: its name in a 404 and how a caller reads one (none: not theirs). */
export interface ItemKind<R = unknown> {
  what: string
  read: (db: Db, userId: number, id: number) => Promise<R | null | undefined>
}

/** The item `req.params.id` names, as the caller may read it; 404 when they cannot. */
export async function readItem<R>(db: Db, req: { caller: Caller | null; params: { id: number } }, kind: ItemKind<R>): Promise<R> {
  const item = await kind.read(db, callerOf(req).userId, req.params.id)
  if (!item) throw notFound(kind.what)
  return item
}

/**
 * Runs `change` on the item `req.params.id` names, with its audit entry when `outcome` says it was
 * done. When `missing` says the caller could not change it, the answer is 404 if the caller cannot
 * read the item either and 403 if it can (a viewer), so a change never tells a stranger that an
 * item exists. The item is missing when the change gives `missing` or, without it, was not done.
 */
export async function changeItem<T>(
  db: Db,
  req: { caller: Caller | null; audit?: AuditIntent; params: { id: number } },
  kind: ItemKind,
  change: (trx: Db, userId: number, id: number) => Promise<T>,
  outcome: (r: T) => AuditOutcome,
  missing?: T,
): Promise<T> {
  const { userId } = callerOf(req)
  const id = req.params.id
  const r = await audited(db, req.audit, (trx) => change(trx, userId, id), outcome)
  if (missing === undefined ? !outcome(r) : r === missing) throw await refusal(kind.read(db, userId, id), kind.what)
  return r
}
