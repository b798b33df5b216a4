// Tests, findings and raw log lines of scans: written by the engine, read by the API.
import { sql, type ExpressionBuilder, type SelectQueryBuilder, type Transaction } from 'kysely'
import type { Db } from './db.js'
import type { Database, FindingRow, TestRow } from './schema.js'
import { encodeFinding, type FindingRecord } from './finding-rows.js'
import { nowIso } from './time.js'
import { insertRows } from './bulk-insert.js'
import { joinGroup } from './finding-history.js'
import { touchGroup } from './finding-lifecycle.js'
import { groupColumns } from './findings.js'

/**
 * Deletes what scans left (findings, tests, raw log lines, kept secrets), before the scans themselves
 * go: `scanIds` lists them or selects them.
 */
export async function deleteScanResults(trx: Db, scanIds: readonly number[] | SelectQueryBuilder<Database, 'scans', { id: number }>) {
  for (const table of ['findings', 'tests', 'scan_logs', 'scan_secrets'] as const)
    await trx.deleteFrom(table).where('scan_id', 'in', scanIds).execute()
}

const RISK_COLUMNS = ['count_info', 'count_low', 'count_medium', 'count_high', 'count_critical'] as const

export async function insertTest(db: Db, scanId: number, name: string, description: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('tests')
      .values({ scan_id: scanId, name, description, status: 'running', result: null, message: null, start_time: nowIso(), end_time: null })
      .returning('id')
      .executeTakeFirstOrThrow()
    await trx.updateTable('scans').set({ num_tests: sql`num_tests + 1` }).where('id', '=', scanId).execute()
    return row.id
  })
}

/** Ends a running test; counts it as finished once (the WHERE guards against double counting). */
export async function endTest(
  db: Db,
  scanId: number,
  testId: number,
  status: 'finished' | 'skipped' | 'error',
  result: 'passed' | 'failed' | 'error' | null,
  message: string | null,
) {
  await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('tests')
      .set({ status, result, message, end_time: nowIso() })
      .where('id', '=', testId)
      .where('status', '=', 'running')
      .executeTakeFirst()
    if (!Number(r.numUpdatedRows)) return
    await trx.updateTable('scans').set({ num_finished_tests: sql`num_finished_tests + 1` }).where('id', '=', scanId).execute()
    if (status === 'finished') await trx.updateTable('findings').set({ test_finished: 1 }).where('test_id', '=', testId).execute()
  })
}

/** Ends every test still running (scan ended): `skipped` when it was cut short by a stop/time limit. */
export async function endOpenTests(db: Db, scanId: number, status: 'skipped' | 'error', message: string) {
  await db.transaction().execute((trx) => endOpenTestsIn(trx, scanId, status, message))
}

/** endOpenTests inside the caller's transaction. */
export async function endOpenTestsIn(trx: Transaction<Database>, scanId: number, status: 'skipped' | 'error', message: string) {
  const r = await trx
    .updateTable('tests')
    .set({ status, result: status === 'error' ? 'error' : null, message, end_time: nowIso() })
    .where('scan_id', '=', scanId)
    .where('status', '=', 'running')
    .executeTakeFirst()
  const n = Number(r.numUpdatedRows)
  if (n)
    await trx
      .updateTable('scans')
      .set({ num_finished_tests: sql`num_finished_tests + ${n}` })
      .where('id', '=', scanId)
      .execute()
}

/**
 * Writes a finding at once, in one transaction with its duplicate group's triage and the scan's risk
 * counter. A finding with the same identity (dedup key) already in this scan is updated instead of
 * repeated: a tool may report a fact as soon as it sees it and again once it knows more (an open
 * port, then its service), and a restarted scan reports again what its earlier attempt kept.
 */
export async function insertFinding(db: Db, record: FindingRecord): Promise<number> {
  const f = encodeFinding(record)
  return db.transaction().execute(async (trx) => {
    const same = await trx
      .selectFrom('findings')
      .select(['id', 'risk_level', 'test_id'])
      .where('dedup_key', '=', f.dedup_key)
      .where('scan_id', '=', f.scan_id)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst()
    if (same) {
      // Triage (status, verified) and the finding's id and creation time stay; so does test_finished
      // when the test is the same one (it may have ended since).
      const {
        id: _id,
        status: _s,
        verified: _v,
        created_at: _c,
        workspace_id: _w,
        scan_id: _sc,
        target_id: _t,
        dedup_key: _d,
        test_finished,
        ...facts
      } = f as typeof f & { id?: number }
      await trx
        .updateTable('findings')
        .set(same.test_id === f.test_id ? facts : { ...facts, test_finished })
        .where('id', '=', same.id)
        .execute()
      if (same.risk_level !== f.risk_level) {
        const from = RISK_COLUMNS[same.risk_level] ?? 'count_info'
        const to = RISK_COLUMNS[f.risk_level] ?? 'count_info'
        await trx
          .updateTable('scans')
          .set({ [from]: sql`${sql.ref(from)} - 1`, [to]: sql`${sql.ref(to)} + 1` })
          .where('id', '=', f.scan_id)
          .execute()
      }
      return same.id
    }
    // The duplicate group's triage carries over (accepted/false positive) or re-opens (fixed).
    const group = await joinGroup(trx, f)
    const row = await trx.insertInto('findings').values(group.finding).returning('id').executeTakeFirstOrThrow()
    await group.after(row.id)
    await touchGroup(trx, group.finding)
    const col = RISK_COLUMNS[f.risk_level] ?? 'count_info'
    await trx
      .updateTable('scans')
      .set({ [col]: sql`${sql.ref(col)} + 1` })
      .where('id', '=', f.scan_id)
      .execute()
    return row.id
  })
}

/** Findings of a scan so far (its risk counters), for status messages that say what was kept. */
export async function findingsKept(db: Db | Transaction<Database>, scanId: number): Promise<number> {
  const r = await db
    .selectFrom('scans')
    .select(['count_info', 'count_low', 'count_medium', 'count_high', 'count_critical'])
    .where('id', '=', scanId)
    .executeTakeFirst()
  return r ? r.count_info + r.count_low + r.count_medium + r.count_high + r.count_critical : 0
}

/** What a status message says was kept: "3 findings found until then are kept" / "no findings had been found". */
export function keptWords(n: number): string {
  if (n === 0) return 'no findings had been found'
  return `${n === 1 ? '1 finding' : `${n} findings`} found until then ${n === 1 ? 'is' : 'are'} kept`
}

export async function appendLogs(db: Db, scanId: number, lines: string[]) {
  if (!lines.length) return
  const now = nowIso()
  await insertRows(
    db,
    'scan_logs',
    lines.map((line) => ({ scan_id: scanId, line, created_at: now })),
  )
}

export const scanLogs = async (db: Db, scanId: number) =>
  (await db.selectFrom('scan_logs').select('line').where('scan_id', '=', scanId).orderBy('id').execute()).map((r) => r.line)

export const scanFindings = (db: Db, scanId: number): Promise<FindingRow[]> =>
  db
    .selectFrom('findings')
    .selectAll()
    .select(groupColumns)
    .where('scan_id', '=', scanId)
    .orderBy('risk_level', 'desc')
    .orderBy('id')
    .execute()

export async function scanTests(
  db: Db,
  scanId: number,
  only?: 'with-findings' | 'without-findings',
  findingId?: number,
): Promise<Array<TestRow & { finding_ids: number[] }>> {
  let q = db.selectFrom('tests').selectAll('tests').where('tests.scan_id', '=', scanId)
  const hasFinding = (eb: ExpressionBuilder<Database, 'tests'>) =>
    eb.exists(eb.selectFrom('findings').select('findings.id').whereRef('findings.test_id', '=', 'tests.id'))
  if (only === 'with-findings') q = q.where(hasFinding)
  if (only === 'without-findings') q = q.where((eb) => eb.not(hasFinding(eb)))
  if (findingId !== undefined)
    q = q.where('tests.id', '=', (eb) =>
      eb.selectFrom('findings').select('findings.test_id').where('findings.id', '=', findingId).where('findings.scan_id', '=', scanId),
    )
  const tests = await q.orderBy('tests.id').execute()
  return attachFindingIds(db, tests)
}

/** One query for all finding ids of these tests (no query per test). */
export async function attachFindingIds(db: Db, tests: TestRow[]): Promise<Array<TestRow & { finding_ids: number[] }>> {
  if (!tests.length) return []
  const byTest = new Map<number, number[]>()
  const ids = tests.map((t) => t.id)
  for (let i = 0; i < ids.length; i += 5000) {
    const rows = await db
      .selectFrom('findings')
      .select(['id', 'test_id'])
      .where('test_id', 'in', ids.slice(i, i + 5000))
      .orderBy('id')
      .execute()
    for (const r of rows) byTest.set(r.test_id!, [...(byTest.get(r.test_id!) ?? []), r.id])
  }
  return tests.map((t) => ({ ...t, finding_ids: byTest.get(t.id) ?? [] }))
}

export async function setScanOutput(db: Db, scanId: number, output: Record<string, unknown>) {
  await db
    .updateTable('scans')
    .set({ output_data: JSON.stringify(output) })
    .where('id', '=', scanId)
    .execute()
}

/** The running scan's progress, and when given its expected end (`etaAt`, null: cannot tell). */
export async function setScanProgress(db: Db, scanId: number, progress: number, etaAt?: string | null) {
  await db
    .updateTable('scans')
    .set(etaAt === undefined ? { progress } : { progress, eta_at: etaAt })
    .where('id', '=', scanId)
    .where('status', '=', 'running')
    .execute()
}

/** One test with its finding ids (the test behind a finding). */
export async function testWithFindings(db: Db, testId: number) {
  return attachFindingIds(db, await db.selectFrom('tests').selectAll().where('id', '=', testId).execute())
}
