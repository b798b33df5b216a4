// Duplicate groups (same workspace and dedup_key) share their triage: a PATCH applies to every
// finding of the group, a new finding joins the group's state, and each change is kept in
// finding_history, keyed by the group so it outlives any single finding or scan.
import { enqueueTriage } from './integration-outbox.js'
import type { Transaction } from 'kysely'
import { inTransaction, type Db } from './db.js'
import type { Database, FindingHistoryRow, FindingRow, NewFinding } from './schema.js'
import { nowIso } from './time.js'
import { groupColumns } from './findings.js'
import { moveGroupStatus } from './finding-lifecycle.js'

type Tx = Transaction<Database>

export type FindingField = 'status' | 'risk_level' | 'verified'
export interface FindingChanges {
  status?: string
  risk_level?: number
  verified?: boolean
  /** With status `accepted`: its last day (YYYY-MM-DD). Any status change clears it. */
  accepted_until?: string | null
}

const RISK_COLUMNS = ['count_info', 'count_low', 'count_medium', 'count_high', 'count_critical'] as const

/** A field's stored value as history text ("accepted", "3", "true"). */
const asText = (field: FindingField, v: string | number | null): string | null =>
  v === null ? null : field === 'verified' ? String(v === 1 || v === '1') : String(v)

/**
 * Applies `changes` to the finding and all its duplicates in one transaction and records one
 * history entry per field that changed anywhere in the group (old = the addressed finding's
 * value). Scan result counts follow risk_level changes. Returns the updated finding.
 */
export async function updateFindingGroup(
  db: Db,
  f: FindingRow,
  changes: FindingChanges,
  reason: string | null,
  /** Null when Ward makes the change (an acceptance that expired). */
  userId: number | null,
): Promise<FindingRow> {
  return inTransaction(db, async (trx) => {
    const group = await trx
      .selectFrom('findings')
      .select(['id', 'scan_id', 'status', 'risk_level', 'verified'])
      .where('workspace_id', '=', f.workspace_id)
      .where('dedup_key', '=', f.dedup_key)
      .execute()
    const set: { status?: string; risk_level?: number; verified?: number } = {}
    // The expiry is part of an acceptance: set with it, cleared by any other status.
    const until = changes.status === undefined ? undefined : changes.status === 'accepted' ? (changes.accepted_until ?? null) : null
    if (changes.status !== undefined) set.status = changes.status
    if (changes.risk_level !== undefined) set.risk_level = changes.risk_level
    if (changes.verified !== undefined) set.verified = changes.verified ? 1 : 0
    const now = nowIso()
    const fields = Object.keys(set) as FindingField[]
    const changed = fields.filter((k) => group.some((g) => g[k] !== set[k]))
    if (changed.length || until !== undefined)
      await trx
        .updateTable('findings')
        .set(until === undefined ? set : { ...set, accepted_until: until })
        .where('workspace_id', '=', f.workspace_id)
        .where('dedup_key', '=', f.dedup_key)
        .execute()
    if (changed.length) {
      await trx
        .insertInto('finding_history')
        .values(
          changed.map((field) => ({
            workspace_id: f.workspace_id,
            dedup_key: f.dedup_key,
            finding_id: f.id,
            field,
            old_value: asText(field, f[field]),
            new_value: asText(field, set[field]!),
            reason,
            user_id: userId,
            created_at: now,
          })),
        )
        .execute()
      if (changed.includes('risk_level')) await recountScans(trx, [...new Set(group.map((g) => g.scan_id))])
      if (changed.includes('status') && set.status === 'false_positive')
        await enqueueTriage(trx, f.workspace_id, `${f.dedup_key}:${now}`, f.dedup_key, reason)
    }
    return trx.selectFrom('findings').selectAll().select(groupColumns).where('id', '=', f.id).executeTakeFirstOrThrow()
  })
}

/** Recomputes the per-risk counts of these scans from their findings. */
async function recountScans(trx: Tx, scanIds: number[]) {
  for (const scanId of scanIds) {
    const rows = await trx
      .selectFrom('findings')
      .select(['risk_level', (e) => e.fn.countAll().as('n')])
      .where('scan_id', '=', scanId)
      .groupBy('risk_level')
      .execute()
    const counts = Object.fromEntries(RISK_COLUMNS.map((c) => [c, 0])) as Record<(typeof RISK_COLUMNS)[number], number>
    for (const r of rows) counts[RISK_COLUMNS[r.risk_level] ?? 'count_info'] += Number(r.n)
    await trx.updateTable('scans').set(counts).where('id', '=', scanId).execute()
  }
}

/**
 * Before the engine inserts a finding: the group's latest finding decides its triage state.
 * `fixed` → the group is re-opened (the new finding stays `open`, the others follow, history says
 * by which scan); `accepted`/`false_positive` → the new finding inherits status, verified and the acceptance's expiry.
 * Call `after(newId)` once the finding is inserted, in the same transaction.
 */
export async function joinGroup(trx: Tx, f: NewFinding): Promise<{ finding: NewFinding; after(newId: number): Promise<void> }> {
  const latest = await trx
    .selectFrom('findings')
    .select(['status', 'verified', 'accepted_until'])
    .where('workspace_id', '=', f.workspace_id)
    .where('dedup_key', '=', f.dedup_key)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  const none = async () => {}
  if (!latest) return { finding: f, after: none }
  if (latest.status === 'accepted' || latest.status === 'false_positive')
    return { finding: { ...f, status: latest.status, verified: latest.verified, accepted_until: latest.accepted_until }, after: none }
  if (latest.status !== 'fixed') return { finding: f, after: none }
  return {
    finding: { ...f, status: 'open' },
    async after(newId) {
      const group = { dedup_key: f.dedup_key, finding_id: newId }
      const reason = `re-opened: found again by scan ${f.scan_id}`
      await moveGroupStatus(trx, f.workspace_id, [group], ['fixed', 'open'], reason, f.created_at ?? nowIso())
    },
  }
}

/** The history of a finding's duplicate group, newest first. */
export const groupHistory = (db: Db, f: Pick<FindingRow, 'workspace_id' | 'dedup_key'>): Promise<FindingHistoryRow[]> =>
  db
    .selectFrom('finding_history')
    .selectAll()
    .where('workspace_id', '=', f.workspace_id)
    .where('dedup_key', '=', f.dedup_key)
    .orderBy('id', 'desc')
    .execute()

/**
 * Re-opens the duplicate groups whose acceptance ended before `today` (YYYY-MM-DD), one history
 * entry each, made by Ward. Returns how many groups were re-opened. At most `limit` per call.
 */
export async function reopenExpiredAcceptances(db: Db, today: string, limit = 200): Promise<number> {
  const expired = await db
    .selectFrom('findings')
    .selectAll()
    .where('accepted_until', 'is not', null)
    .where('accepted_until', '<', today)
    .where('status', '=', 'accepted')
    .orderBy('id')
    .limit(limit)
    .execute()
  const done = new Set<string>()
  for (const f of expired) {
    const group = `${f.workspace_id}:${f.dedup_key}`
    if (done.has(group)) continue
    done.add(group)
    await updateFindingGroup(db, f, { status: 'open' }, `the accepted risk expired (accepted until ${f.accepted_until})`, null)
  }
  return done.size
}
