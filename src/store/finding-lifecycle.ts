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
import { lookedAt, parseCoverage, type ScanLook } from './coverage.js'
import { keysOfCappedChecks } from './capped-findings.js'

type Tx = Transaction<Database>

/** Records that the group of `f` was seen by its scan. Inside the finding's insert transaction. */
export async function touchGroup(trx: Tx, f: NewFinding): Promise<void> {
  const seen = f.created_at ?? nowIso()
  const scan = await trx.selectFrom('scans').select('tool_id').where('id', '=', f.scan_id).executeTakeFirstOrThrow()
  await trx
    .insertInto('finding_groups')
    .values({
      workspace_id: f.workspace_id,
      dedup_key: f.dedup_key,
      target_id: f.target_id,
      tool_id: scan.tool_id,
      first_seen: seen,
      last_seen: seen,
      first_scan_id: f.scan_id,
      last_scan_id: f.scan_id,
      state: 'open',
      regression: 0,
      fixed_at: null,
      fixed_scan_id: null,
    })
    .onConflict((oc) => oc.columns(['workspace_id', 'dedup_key']).doNothing())
    .execute()
  const g = await trx
    .selectFrom('finding_groups')
    .select(['state', 'last_scan_id'])
    .where('workspace_id', '=', f.workspace_id)
    .where('dedup_key', '=', f.dedup_key)
    .executeTakeFirstOrThrow()
  if (g.last_scan_id > f.scan_id) return
  await trx
    .updateTable('finding_groups')
    .set({
      last_seen: seen,
      last_scan_id: f.scan_id,
      ...(g.state === 'fixed' ? { state: 'open', regression: 1, fixed_at: null, fixed_scan_id: null } : {}),
    })
    .where('workspace_id', '=', f.workspace_id)
    .where('dedup_key', '=', f.dedup_key)
    .execute()
}

/**
 * After a scan reached its terminal state (same transaction): when it is complete, every open group
 * of its target and tool that it did not find — at a location it covered — is fixed. What the scan
 * did not look at stays as it was (store/coverage.ts); a partial scan changes nothing, and neither
 * does a complete one for the checks it capped (store/capped-findings.ts).
 */
export async function settleGroups(trx: Tx, scanId: number): Promise<number> {
  const s = await trx
    .selectFrom('scans')
    .select(['id', 'status', 'status_message', 'coverage', 'target_id', 'tool_id', 'workspace_id'])
    .where('id', '=', scanId)
    .executeTakeFirst()
  if (!s || !scanIsComplete(s)) return 0
  const undecided = await keysOfCappedChecks(trx, s)
  const missing = await trx
    .selectFrom('finding_groups as g')
    .select(['g.dedup_key'])
    .where('g.workspace_id', '=', s.workspace_id)
    .where('g.target_id', '=', s.target_id)
    .where('g.tool_id', '=', s.tool_id)
    .where('g.state', '=', 'open')
    .where('g.last_scan_id', '<', s.id)
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('findings as f').select('f.id').where('f.scan_id', '=', s.id).whereRef('f.dedup_key', '=', 'g.dedup_key')),
      ),
    )
    .execute()
  const gone = await coveredByScan(
    trx,
    s,
    missing.map((m) => m.dedup_key).filter((k) => !undecided.has(k)),
  )
  if (!gone.length) return 0
  const now = nowIso()
  const keys = gone
  for (let i = 0; i < keys.length; i += 500) {
    const part = keys.slice(i, i + 500)
    await trx
      .updateTable('finding_groups')
      .set({ state: 'fixed', fixed_at: now, fixed_scan_id: s.id })
      .where('workspace_id', '=', s.workspace_id)
      .where('dedup_key', 'in', part)
      .execute()
    const open = await trx
      .selectFrom('findings')
      .select(['dedup_key', (e) => e.fn.max('id').as('id')])
      .where('workspace_id', '=', s.workspace_id)
      .where('dedup_key', 'in', part)
      .where('status', '=', 'open')
      .groupBy('dedup_key')
      .execute()
    if (!open.length) continue
    const groups = open.map((o) => ({ dedup_key: o.dedup_key, finding_id: Number(o.id) }))
    await moveGroupStatus(trx, s.workspace_id, groups, ['open', 'fixed'], `fixed: not found by complete scan ${s.id}`, now)
  }
  return gone.length
}

/**
 * A status move Ward makes itself (no user) on duplicate groups: their findings in status `from` move
 * to `to`, and each group's history records it against `finding_id`.
 */
export async function moveGroupStatus(
  trx: Tx,
  workspaceId: number,
  groups: readonly { dedup_key: string; finding_id: number }[],
  [from, to]: readonly [from: string, to: string],
  reason: string,
  at: string,
): Promise<void> {
  await trx
    .updateTable('findings')
    .set({ status: to })
    .where('workspace_id', '=', workspaceId)
    .where(
      'dedup_key',
      'in',
      groups.map((g) => g.dedup_key),
    )
    .where('status', '=', from)
    .execute()
  await trx
    .insertInto('finding_history')
    .values(
      groups.map((g) => ({
        ...g,
        workspace_id: workspaceId,
        field: 'status',
        old_value: from,
        new_value: to,
        reason,
        user_id: null,
        created_at: at,
      })),
    )
    .execute()
}

/** Of these groups' keys, those whose latest finding sat where the scan looked (store/coverage.ts). */
async function coveredByScan(trx: Tx, s: { id: number; workspace_id: number; coverage: string | null }, keys: string[]): Promise<string[]> {
  if (!keys.length) return []
  const look = await scanLook(trx, s)
  if (!look.coverage) return keys
  const out: string[] = []
  for (let i = 0; i < keys.length; i += 500) {
    const latest = trx
      .selectFrom('findings')
      .select((e) => e.fn.max('id').as('id'))
      .where('workspace_id', '=', s.workspace_id)
      .where('dedup_key', 'in', keys.slice(i, i + 500))
      .groupBy('dedup_key')
    const spots = await trx
      .selectFrom('findings as f')
      .leftJoin('tests as t', 't.id', 'f.test_id')
      .select(['f.dedup_key', 'f.port', 'f.protocol', 'f.url', 't.name as test_name'])
      .where('f.id', 'in', latest)
      .execute()
    for (const f of spots)
      if (lookedAt(look, { port: f.port, protocol: f.protocol, url: f.url, test_name: f.test_name ?? null })) out.push(f.dedup_key)
  }
  return out
}

/** What a complete scan looked at: its stored coverage and the names of its tests that ran to a result. */
export async function scanLook(db: Db | Tx, s: { id: number; coverage: string | null }): Promise<ScanLook> {
  const coverage = parseCoverage(s.coverage)
  if (!coverage) return { coverage: null, testsRan: new Set() }
  const ran = await db.selectFrom('tests').select('name').where('scan_id', '=', s.id).where('status', '=', 'finished').execute()
  return { coverage, testsRan: new Set(ran.map((t) => t.name)) }
}

/** The life cycle of the group of a finding the caller may read (tenancy checked by the caller's read). */
export const groupOf = (db: Db, workspaceId: number, dedupKey: string): Promise<FindingGroupRow | undefined> =>
  db.selectFrom('finding_groups').selectAll().where('workspace_id', '=', workspaceId).where('dedup_key', '=', dedupKey).executeTakeFirst()

/** Names of the tests behind these findings, by test id (one query per 1,000). */
export async function testNamesOf(db: Db, findings: ReadonlyArray<{ test_id: number | null }>): Promise<Map<number, string>> {
  const ids = [...new Set(findings.map((f) => f.test_id).filter((id): id is number => id !== null))]
  const out = new Map<number, string>()
  for (let i = 0; i < ids.length; i += 1000) {
    for (const t of await db
      .selectFrom('tests')
      .select(['id', 'name'])
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute())
      out.set(t.id, t.name)
  }
  return out
}

/** Dedup keys of these findings whose group was first seen by a scan before `scan`. */
export async function seenBefore(
  db: Db,
  scan: { id: number; workspace_id: number },
  findings: ReadonlyArray<{ dedup_key: string }>,
): Promise<Set<string>> {
  const keys = [...new Set(findings.map((f) => f.dedup_key))]
  const out = new Set<string>()
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db
      .selectFrom('finding_groups')
      .select('dedup_key')
      .where('workspace_id', '=', scan.workspace_id)
      .where('dedup_key', 'in', keys.slice(i, i + 500))
      .where('first_scan_id', '<', scan.id)
      .execute()
    for (const r of rows) out.add(r.dedup_key)
  }
  return out
}
