// The lease mechanics both outboxes share (report callbacks in store/callbacks.ts, integrations in
// store/integration-outbox.ts): a fresh row's bookkeeping columns, the claim of one due row with a
// lease (one UPDATE that re-checks the row is free), its renewal (the scans queue renews the same way),
// the attempt that releases the lease, and the release without an attempt. The two tables have these columns alike; what differs stays with them.
import type { ExpressionBuilder, Selectable, Transaction } from 'kysely'
import type { Db } from './db.js'
import type { Database } from './schema.js'
import { isoAfter, nowIso } from './time.js'

export type OutboxTable = 'callback_deliveries' | 'integration_deliveries'
type AttemptTable = 'callback_attempts' | 'integration_attempts'
// Kysely types a query by one table name; the columns used here exist alike in both tables.
type AsOne = 'callback_deliveries'

/** The bookkeeping columns of a delivery written now: pending, due now, unleased, never tried. */
export function pendingColumns(now: string) {
  return {
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    lease_owner: null,
    lease_expires_at: null,
    last_status_code: null,
    last_error: null,
    created_at: now,
    delivered_at: null,
  } as const
}

/**
 * Claims one due delivery of `table` for `owner` until `leaseMs` from now: the UPDATE re-checks that
 * the row is still pending, due and unleased (or its lease expired), so two senders never hold it at once.
 */
export async function claimDue<T extends OutboxTable>(
  db: Db,
  table: T,
  owner: string,
  leaseMs: number,
): Promise<Selectable<Database[T]> | null> {
  const t = table as AsOne
  const now = nowIso()
  const free = (eb: ExpressionBuilder<Database, AsOne>) =>
    eb.and([
      eb('status', '=', 'pending'),
      eb('next_attempt_at', '<=', now),
      eb.or([eb('lease_owner', 'is', null), eb('lease_expires_at', '<', now)]),
    ])
  const pick = db.selectFrom(t).select('id').where(free).orderBy('next_attempt_at').orderBy('id').limit(1)
  const row = await db
    .updateTable(t)
    .set({ lease_owner: owner, lease_expires_at: isoAfter(leaseMs) })
    .where('id', '=', (eb) => eb.selectFrom(pick.as('p')).select('p.id'))
    .where(free)
    .returningAll()
    .executeTakeFirst()
  return (row ?? null) as Selectable<Database[T]> | null
}

/** One attempt as a sender saw it, and the delivery's next state. */
export interface OutboxAttempt {
  attempt: number
  startedAt: string
  statusCode: number | null
  error: string | null
  durationMs: number
  next: { status: string } | { status: 'pending'; at: string }
}

/**
 * Records an attempt (the row of `attempts`, with `extra` columns) and releases the lease, in one
 * transaction; only the lease holder of a pending delivery may do so.
 */
export function recordOutboxAttempt(
  db: Db,
  tables: { deliveries: OutboxTable; attempts: AttemptTable },
  owner: string,
  id: number,
  r: OutboxAttempt,
  extra: { answer?: string | null } = {},
): Promise<boolean> {
  return db.transaction().execute(async (trx: Transaction<Database>) => {
    const upd = await trx
      .updateTable(tables.deliveries as AsOne)
      .set({
        status: r.next.status,
        attempts: r.attempt,
        next_attempt_at: 'at' in r.next ? r.next.at : nowIso(),
        lease_owner: null,
        lease_expires_at: null,
        last_status_code: r.statusCode,
        last_error: r.error,
        delivered_at: r.next.status === 'delivered' ? nowIso() : null,
      })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (!Number(upd.numUpdatedRows)) return false
    const row = {
      delivery_id: id,
      attempt: r.attempt,
      started_at: r.startedAt,
      status_code: r.statusCode,
      ...extra,
      error: r.error,
      duration_ms: r.durationMs,
    }
    await trx
      .insertInto(tables.attempts as 'callback_attempts')
      .values(row)
      .execute()
    return true
  })
}

/** Releases a lease without recording an attempt (the sender stopped before sending). */
export async function releaseLease(db: Db, table: OutboxTable, owner: string, id: number): Promise<void> {
  await db
    .updateTable(table as AsOne)
    .set({ lease_owner: null, lease_expires_at: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute()
}

/**
 * Moves `owner`'s leases on rows `ids` still in `status` to `leaseMs` from now, while the work goes on
 * (outbox deliveries, and the scans queue's running scans alike); how many it still held.
 */
export async function renewLeases(
  db: Db,
  table: OutboxTable | 'scans',
  owner: string,
  ids: readonly number[],
  status: string,
  leaseMs: number,
): Promise<number> {
  const r = await db
    .updateTable(table as 'scans')
    .set({ lease_expires_at: isoAfter(leaseMs) })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .where('status', '=', status)
    .executeTakeFirst()
  return Number(r.numUpdatedRows)
}

/** Each delivery with its attempts (the delivery log people read), attempts in order. */
export async function withAttempts<D extends { id: number }, T extends AttemptTable>(
  db: Db,
  table: T,
  deliveries: D[],
): Promise<Array<D & { attempt_list: Array<Selectable<Database[T]>> }>> {
  if (!deliveries.length) return []
  const ids = deliveries.map((d) => d.id)
  const attempts = (await db
    .selectFrom(table as 'callback_attempts')
    .selectAll()
    .where('delivery_id', 'in', ids)
    .orderBy('attempt')
    .orderBy('id')
    .execute()) as Array<Selectable<Database[T]> & { delivery_id: number }>
  return deliveries.map((d) => ({ ...d, attempt_list: attempts.filter((a) => a.delivery_id === d.id) }))
}
