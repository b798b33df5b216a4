// The integrations' outbox, beside the report callbacks' (store/callbacks.ts) and run the same way:
// an event's deliveries are written in the transaction that makes the event true (a scan's terminal
// state, a schedule slot that queued nothing), one per integration, and the unique
// (integration_id, event_key) makes a second one impossible; senders claim due rows with a lease,
// one UPDATE each; each attempt is recorded (the delivery log people read).
import { randomUUID } from 'node:crypto'
import type { Transaction } from 'kysely'
import type { Db } from './db.js'
import type { Database, IntegrationAttemptRow, IntegrationDeliveryRow } from './schema.js'
import { nowIso } from './time.js'
import type { IntegrationEvent } from './integration-kinds.js'
import { claimDue, type OutboxAttempt, pendingColumns, recordOutboxAttempt, releaseLease, renewLeases, withAttempts } from './outbox.js'

type Tx = Transaction<Database>

/** Events a delivery of this kind can carry: an integration that wants none of them gets none. */
const KIND_EVENTS: Record<'scan' | 'schedule' | 'triage', readonly IntegrationEvent[]> = {
  scan: ['finding.new', 'finding.regression', 'finding.fixed', 'scan.finished', 'scan.failed'],
  schedule: ['schedule.missed'],
  triage: ['finding.new'],
}

const TICKET_TYPES = ['jira', 'github', 'gitlab']
const MESSAGE_TYPES = ['slack', 'teams', 'email', 'webhook']

async function enqueue(
  trx: Tx | Db,
  workspaceId: number,
  kind: keyof typeof KIND_EVENTS,
  eventKey: string,
  scanId: number | null,
  ref: unknown,
): Promise<number> {
  const integrations = await trx
    .selectFrom('integrations')
    .select(['id', 'events', 'type'])
    .where('workspace_id', '=', workspaceId)
    .where('enabled', '=', 1)
    .execute()
  const wanted = integrations.filter((i) => {
    const events = JSON.parse(i.events) as string[]
    // Triage of a false positive concerns the ticket systems only; a missed slot, the message channels only.
    if (kind === 'triage') return TICKET_TYPES.includes(i.type)
    if (kind === 'schedule' && !MESSAGE_TYPES.includes(i.type)) return false
    return KIND_EVENTS[kind].some((e) => events.includes(e))
  })
  if (!wanted.length) return 0
  const now = nowIso()
  await trx
    .insertInto('integration_deliveries')
    .values(
      wanted.map((i) => ({
        integration_id: i.id,
        event_key: eventKey,
        event_id: randomUUID(),
        kind,
        scan_id: scanId,
        ref: ref === null ? null : JSON.stringify(ref),
        payload: null,
        ...pendingColumns(now),
      })),
    )
    .onConflict((oc) => oc.columns(['integration_id', 'event_key']).doNothing())
    .execute()
  return wanted.length
}

/** The scan's deliveries to its workspace's integrations. Call inside the terminal transaction. */
export async function enqueueScanEvents(trx: Tx | Db, scanId: number): Promise<number> {
  const s = await trx.selectFrom('scans').select(['workspace_id']).where('id', '=', scanId).executeTakeFirst()
  return s ? enqueue(trx, s.workspace_id, 'scan', `scan:${scanId}`, scanId, null) : 0
}

/** A schedule slot that queued no scan. Call inside the transaction that records the run. */
export async function enqueueScheduleMissed(
  trx: Tx,
  s: { id: number; workspace_id: number; name: string },
  slotAt: string,
  message: string | null,
): Promise<number> {
  return enqueue(trx, s.workspace_id, 'schedule', `schedule:${s.id}:${slotAt}`, null, {
    schedule_id: s.id,
    name: s.name,
    slot_at: slotAt,
    message,
  })
}

/** A finding triaged as a false positive: its tickets say so. Call inside the triage transaction. */
export async function enqueueTriage(
  trx: Tx,
  workspaceId: number,
  eventKey: string,
  dedupKey: string,
  reason: string | null,
): Promise<number> {
  return enqueue(trx, workspaceId, 'triage', `triage:${eventKey}`, null, { dedup_key: dedupKey, reason })
}

/** A test message for one integration ("Send a test"); returns the delivery's id. */
export async function enqueueTest(db: Db, integrationId: number): Promise<number> {
  const now = nowIso()
  const id = randomUUID()
  const row = await db
    .insertInto('integration_deliveries')
    .values({
      integration_id: integrationId,
      event_key: `test:${id}`,
      event_id: id,
      kind: 'test',
      scan_id: null,
      ref: null,
      payload: null,
      ...pendingColumns(now),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Claims one due delivery for `owner` until `leaseMs` from now (store/outbox.ts claimDue). */
export const claimIntegrationDelivery = (db: Db, owner: string, leaseMs: number): Promise<IntegrationDeliveryRow | null> =>
  claimDue(db, 'integration_deliveries', owner, leaseMs)

/** Renews the lease while a long delivery (many tickets) is still working. */
export async function renewIntegrationLease(db: Db, owner: string, id: number, leaseMs: number): Promise<boolean> {
  return (await renewLeases(db, 'integration_deliveries', owner, [id], 'pending', leaseMs)) === 1
}

export type DeliveryStatus = 'delivered' | 'skipped' | 'failed' | 'refused'
export interface IntegrationAttempt extends OutboxAttempt {
  answer: string | null
  next: { status: DeliveryStatus } | { status: 'pending'; at: string }
}

/** Records an attempt and releases the lease; only the lease holder may do so. */
export function recordIntegrationAttempt(db: Db, owner: string, id: number, r: IntegrationAttempt): Promise<boolean> {
  const tables = { deliveries: 'integration_deliveries', attempts: 'integration_attempts' } as const
  return recordOutboxAttempt(db, tables, owner, id, r, { answer: r.answer })
}

/** Releases a lease without recording an attempt (the sender stopped before sending). */
export const releaseIntegrationDelivery = (db: Db, owner: string, id: number): Promise<void> =>
  releaseLease(db, 'integration_deliveries', owner, id)

/**
 * The delivery's payload: the one stored at its first attempt, or `build()`'s, stored now (the first
 * writer wins when two senders race on an expired lease). Every retry sends the same content.
 */
export async function deliveryPayload<T>(db: Db, id: number, build: () => Promise<T>): Promise<T> {
  const stored = await db.selectFrom('integration_deliveries').select('payload').where('id', '=', id).executeTakeFirst()
  if (stored?.payload) return JSON.parse(stored.payload) as T
  const built = await build()
  await db
    .updateTable('integration_deliveries')
    .set({ payload: JSON.stringify(built) })
    .where('id', '=', id)
    .where('payload', 'is', null)
    .execute()
  const kept = await db.selectFrom('integration_deliveries').select('payload').where('id', '=', id).executeTakeFirstOrThrow()
  return JSON.parse(kept.payload!) as T
}

export const deliveryById = (db: Db, id: number) =>
  db.selectFrom('integration_deliveries').selectAll().where('id', '=', id).executeTakeFirst()

/** The delivery log of one integration (tenancy checked by the caller's read of the integration), newest first. */
export async function integrationDeliveries(
  db: Db,
  integrationId: number,
  o: { limit: number; page: number },
): Promise<Array<IntegrationDeliveryRow & { attempt_list: IntegrationAttemptRow[] }>> {
  const rows = await db
    .selectFrom('integration_deliveries')
    .selectAll()
    .where('integration_id', '=', integrationId)
    .orderBy('id', 'desc')
    .limit(o.limit)
    .offset((o.page - 1) * o.limit)
    .execute()
  return withAttempts(db, 'integration_attempts', rows)
}

/** The issue that belongs to a duplicate group in this integration's system, if known. */
export const ticketOf = (db: Db, integrationId: number, dedupKey: string) =>
  db
    .selectFrom('integration_tickets')
    .selectAll()
    .where('integration_id', '=', integrationId)
    .where('dedup_key', '=', dedupKey)
    .executeTakeFirst()

export async function saveTicket(
  db: Db,
  integrationId: number,
  dedupKey: string,
  t: { external_id: string; external_url: string | null; state: string },
): Promise<void> {
  const now = nowIso()
  await db
    .insertInto('integration_tickets')
    .values({ integration_id: integrationId, dedup_key: dedupKey, ...t, updated_at: now })
    .onConflict((oc) =>
      oc
        .columns(['integration_id', 'dedup_key'])
        .doUpdateSet({ external_id: t.external_id, external_url: t.external_url, state: t.state, updated_at: now }),
    )
    .execute()
}
