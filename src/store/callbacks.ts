// Report-callback outbox. A delivery row is written in the same transaction as the scan's terminal
// state (so no terminal scan with a callback is ever left without one, and the unique scan_id
// makes a second one impossible); senders claim due rows with a lease, one UPDATE each.
import { randomUUID } from 'node:crypto'
import type { Transaction } from 'kysely'
import { inTransaction, type Db } from './db.js'
import type { CallbackAttemptRow, CallbackDeliveryRow, Database } from './schema.js'
import { nowIso } from './time.js'
import { claimDue, type OutboxAttempt, pendingColumns, recordOutboxAttempt, releaseLease, withAttempts } from './outbox.js'
import { secretsOf } from './secrets.js'
import { ensureSealed } from './secret-box.js'
import { settleGroups } from './finding-lifecycle.js'
import { enqueueScanEvents } from './integration-outbox.js'

type Tx = Transaction<Database>

/** Inserts the scan's delivery when it has a report_callback. Call inside the terminal transaction. */
export async function enqueueCallback(trx: Tx | Db, scanId: number): Promise<boolean> {
  const s = await trx.selectFrom('scans').select('report_callback').where('id', '=', scanId).executeTakeFirst()
  if (!s?.report_callback) return false
  const cb = JSON.parse(s.report_callback) as { url: string; format?: string; secret?: string }
  await trx
    .insertInto('callback_deliveries')
    .values({
      scan_id: scanId,
      event_id: randomUUID(),
      url: cb.url,
      format: cb.format === 'pdf' ? 'pdf' : 'json',
      // Copied sealed (a row an older Ward wrote in plain text is sealed here).
      secret: cb.secret ? ensureSealed(secretsOf(trx), cb.secret) : null,
      ...pendingColumns(nowIso()),
    })
    .execute()
  return true
}

/**
 * Runs a terminal transition (`move`, which returns whether the scan moved) and, when it moved,
 * settles the life cycle of the findings (a complete scan fixes what it no longer finds) and
 * enqueues the scan's callback and its integrations' deliveries — all in one transaction.
 */
export function endScanWithCallback(db: Db, scanId: number, move: (trx: Tx) => Promise<boolean>): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const moved = await move(trx)
    if (moved) await settleGroups(trx, scanId)
    if (moved) await enqueueCallback(trx, scanId)
    if (moved) await enqueueScanEvents(trx, scanId)
    return moved
  })
}

/**
 * Claims one due delivery for `owner` until `leaseMs` from now (store/outbox.ts claimDue).
 * The claimed row's `secret` is opened: the sender signs with it.
 */
export async function claimDueDelivery(db: Db, owner: string, leaseMs: number): Promise<CallbackDeliveryRow | null> {
  const row = await claimDue(db, 'callback_deliveries', owner, leaseMs)
  if (!row) return null
  return row.secret === null ? row : { ...row, secret: secretsOf(db).open(row.secret) }
}

export interface AttemptResult extends OutboxAttempt {
  /** The delivery's next state. */
  next: { status: 'delivered' } | { status: 'failed' } | { status: 'pending'; at: string }
}

/** Records an attempt and releases the lease; only the lease holder may do so. */
export function recordAttempt(db: Db, owner: string, deliveryId: number, r: AttemptResult): Promise<boolean> {
  return recordOutboxAttempt(db, { deliveries: 'callback_deliveries', attempts: 'callback_attempts' }, owner, deliveryId, r)
}

/**
 * Ends a delivery without sending it (`skipped`): its scan asked for a callback only on change, and
 * nothing changed. Only the lease holder may do so.
 */
export async function skipDelivery(db: Db, owner: string, deliveryId: number, reason: string): Promise<boolean> {
  const r = await db
    .updateTable('callback_deliveries')
    .set({ status: 'skipped', lease_owner: null, lease_expires_at: null, last_error: reason })
    .where('id', '=', deliveryId)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'pending')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('callback_bodies').select('delivery_id').where('delivery_id', '=', deliveryId))))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Releases a lease without recording an attempt (the sender stopped before sending). */
export const releaseDelivery = (db: Db, owner: string, deliveryId: number): Promise<void> =>
  releaseLease(db, 'callback_deliveries', owner, deliveryId)

export async function scanDeliveries(db: Db, scanId: number): Promise<Array<CallbackDeliveryRow & { attempt_list: CallbackAttemptRow[] }>> {
  const deliveries = await db.selectFrom('callback_deliveries').selectAll().where('scan_id', '=', scanId).orderBy('id', 'desc').execute()
  return withAttempts(db, 'callback_attempts', deliveries)
}

/**
 * The delivery's body: the one stored at its first attempt, or `build()`'s, stored now. Two senders
 * racing on one delivery (a lease that expired mid-build) keep the first body written.
 */
export async function deliveryBody(
  db: Db,
  deliveryId: number,
  build: () => Promise<{ body: Buffer; contentType: string } | null>,
): Promise<{ body: Buffer; contentType: string } | null> {
  const stored = await db
    .selectFrom('callback_bodies')
    .select(['body', 'content_type'])
    .where('delivery_id', '=', deliveryId)
    .executeTakeFirst()
  if (stored) return { body: Buffer.from(stored.body), contentType: stored.content_type }
  const built = await build()
  if (!built) return null
  await db
    .insertInto('callback_bodies')
    .values({ delivery_id: deliveryId, content_type: built.contentType, body: built.body })
    .onConflict((oc) => oc.column('delivery_id').doNothing())
    .execute()
  const kept = await db
    .selectFrom('callback_bodies')
    .select(['body', 'content_type'])
    .where('delivery_id', '=', deliveryId)
    .executeTakeFirstOrThrow()
  return { body: Buffer.from(kept.body), contentType: kept.content_type }
}
