// The life cycle of each duplicate group (workspace, dedup_key): first and last seen, and `fixed`
// once a later complete scan of the same target and tool no longer finds it. A group found again
// after being fixed is open again and flagged as a regression. Triage (accepted, false_positive)
// is kept by finding-history.ts; an automatic fix moves only `open` findings to `fixed`, with a
// history entry naming the scan.
import type { Transaction } from 'kysely'
import type { Database, FindingGroupRow, NewFinding } from './schema.js'
import type { Db } from './db.js'
import { nowIso } from './time.js'
import { scanIsComplete } from './scan-states.js'
import { keysOfCappedChecks } from './capped-findings.js'

type Tx = Transaction<Database>

/** Records that the group of `f` was seen by its scan. Inside the finding's insert transaction. */
export async function touchGroup(trx: Tx, f: NewFinding): Promise<void> {
  const seen = f.created_at ?? nowIso()
  const scan = await trx.selectFrom('scans').select('tool_id').where('id', '=', f.scan_id).executeTakeFirstOrThrow()
  await trx
    .insertInto('finding_groups')
    .values({ workspace_id: f.workspace_id, dedup_key: f.dedup_key, target_id: f.target_id, tool_id: scan.tool_id, first_seen: seen, last_seen: seen, first_scan_id: f.scan_id, last_scan_id: f.scan_id, state: 'open', regression: 0, fixed_at: null, fixed_scan_id: null })
    .onConflict((oc) => oc.columns(['workspace_id', 'dedup_key']).doNothing())
    .execute()
  const g = await trx.selectFrom('finding_groups').select(['state', 'last_scan_id']).where('workspace_id', '=', f.workspace_id).where('dedup_key', '=', f.dedup_key).executeTakeFirstOrThrow()
  if (g.last_scan_id > f.scan_id) return
  await trx
    .updateTable('finding_groups')
    .set({ last_seen: seen, last_scan_id: f.scan_id, ...(g.state === 'fixed' ? { state: 'open', regression: 1, fixed_at: null, fixed_scan_id: null } : {}) })
    .where('workspace_id', '=', f.workspace_id)
    .where('dedup_key', '=', f.dedup_key)
    .execute()
}

/**
 * After a scan reached its terminal state (same transaction): when it is complete, every open group
 * of its target and tool that it did not find is fixed. A partial scan changes nothing, and neither
 * does a complete one for the checks it capped (store/capped-findings.ts).
 */
export async function settleGroups(trx: Tx, scanId: number): Promise<number> {
  const s = await trx.selectFrom('scans').select(['id', 'status', 'status_message', 'target_id', 'tool_id', 'workspace_id']).where('id', '=', scanId).executeTakeFirst()
  if (!s || !scanIsComplete(s)) return 0
  const undecided = await keysOfCappedChecks(trx, s)
  const found = await trx
    .selectFrom('finding_groups as g')
    .select(['g.dedup_key'])
    .where('g.workspace_id', '=', s.workspace_id)
    .where('g.target_id', '=', s.target_id)
    .where('g.tool_id', '=', s.tool_id)
    .where('g.state', '=', 'open')
    .where('g.last_scan_id', '<', s.id)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('findings as f').select('f.id').where('f.scan_id', '=', s.id).whereRef('f.dedup_key', '=', 'g.dedup_key'))))
    .execute()
  const gone = found.filter((g) => !undecided.has(g.dedup_key))
  if (!gone.length) return 0
  const now = nowIso()
  const keys = gone.map((g) => g.dedup_key)
  for (let i = 0; i < keys.length; i += 500) {
    const part = keys.slice(i, i + 500)
    await trx.updateTable('finding_groups').set({ state: 'fixed', fixed_at: now, fixed_scan_id: s.id }).where('workspace_id', '=', s.workspace_id).where('dedup_key', 'in', part).execute()
    const open = await trx.selectFrom('findings').select(['dedup_key', (e) => e.fn.max('id').as('id')]).where('workspace_id', '=', s.workspace_id).where('dedup_key', 'in', part).where('status', '=', 'open').groupBy('dedup_key').execute()
    if (!open.length) continue
    await trx.updateTable('findings').set({ status: 'fixed' }).where('workspace_id', '=', s.workspace_id).where('dedup_key', 'in', open.map((o) => o.dedup_key)).where('status', '=', 'open').execute()
    await trx
      .insertInto('finding_history')
      .values(open.map((o) => ({ workspace_id: s.workspace_id, dedup_key: o.dedup_key, finding_id: Number(o.id), field: 'status', old_value: 'open', new_value: 'fixed', reason: `fixed: not found by complete scan ${s.id}`, user_id: null, created_at: now })))
      .execute()
  }
  return gone.length
}

/** The life cycle of the group of a finding the caller may read (tenancy checked by the caller's read). */
export const groupOf = (db: Db, workspaceId: number, dedupKey: string): Promise<FindingGroupRow | undefined> =>
  db.selectFrom('finding_groups').selectAll().where('workspace_id', '=', workspaceId).where('dedup_key', '=', dedupKey).executeTakeFirst()
