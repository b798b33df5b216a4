// An audited change on the one item a route's path id names, refused as the caller may see that item.
import type { Caller } from '../store/accounts.js'
import type { AuditIntent, AuditOutcome } from '../store/audit.js'
import type { Db } from '../store/db.js'
import { changeAs, refusal, type ItemChange } from '../domain/access.js'
import { conflict, notFound } from '../domain/errors.js'
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

/** A request on one item: the caller, its audit intent and the path id. */
type ItemRequest = { caller: Caller | null; audit?: AuditIntent; params: { id: number } }

/**
 * Runs `change` on the item `req.params.id` names, with its audit entry when `outcome` says it was
 * done. When `missing` says the caller could not change it, the answer is 404 if the caller cannot
 * read the item either and 403 if it can (a viewer), so a change never tells a stranger that an
 * item exists. The item is missing when the change gives `missing` or, without it, was not done.
 */
export async function changeItem<T>(
  db: Db,
  req: ItemRequest,
  kind: ItemKind,
  change: ItemChange<T>,
  outcome: (r: T) => AuditOutcome,
  missing?: T,
): Promise<T> {
  const { userId } = callerOf(req)
  const id = req.params.id
  return changeAs(db, req.audit, userId, id, change, outcome, () => refusal(kind.read(db, userId, id), kind.what), missing)
}

/**
 * Deletes the item `req.params.id` names (audited, refused as changeItem refuses) unless it is busy:
 * `del` gives neither 'deleted' nor 'missing' (a scan still runs), and the answer is 409 `busy`.
 */
export async function deleteItem<B extends string>(
  db: Db,
  req: ItemRequest,
  kind: ItemKind,
  del: ItemChange<'deleted' | 'missing' | B>,
  busy: string,
): Promise<void> {
  const r = await changeItem(db, req, kind, del, (r) => r === 'deleted', 'missing')
  if (r !== 'deleted') throw conflict(busy)
}
