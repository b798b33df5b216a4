// Multi-row INSERTs stay under the engine's parameter limit: chunk sizes come from the column count
// (bench/seed.ts failed on SQLite with "too many SQL variables": 1,000 findings × 33 columns).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { startWard, TEST_BACKEND, type TestWard } from '../helpers/ward.js'
import { PG_MAX_PARAMETERS, SQLITE_MAX_VARIABLES, chunkRows, columnCount, insertRows, maxParameters } from '../../src/store/bulk-insert.js'
import { insertTarget } from '../../src/store/targets.js'
import { insertScan } from '../../src/store/scans.js'
import { encodeFinding } from '../../src/store/finding-rows.js'
import { buildFinding } from '../../src/domain/findings.js'
import { openPort } from '../../src/tools/port-scanner/checks.js'
import type { NewFinding, NewScan } from '../../src/store/schema.js'

test('chunkRows: every chunk binds at most the limit, rows kept in order', () => {
  const rows = Array.from({ length: 2000 }, (_, i) => i)
  for (const [cols, limit] of [
    [33, SQLITE_MAX_VARIABLES],
    [33, PG_MAX_PARAMETERS],
    [1, SQLITE_MAX_VARIABLES],
    [7, 100],
    [32_766, SQLITE_MAX_VARIABLES],
  ] as const) {
    const chunks = chunkRows(rows, cols, limit)
    for (const c of chunks) assert.ok(c.length * cols <= limit, `${c.length} rows × ${cols} columns > ${limit}`)
    assert.deepEqual(chunks.flat(), rows)
  }
  assert.deepEqual(
    chunkRows(rows, 33).map((c) => c.length),
    [992, 992, 16],
  )
  assert.deepEqual(
    chunkRows(rows, 33, PG_MAX_PARAMETERS).map((c) => c.length),
    [1985, 15],
  )
  assert.deepEqual(chunkRows([], 5), [])
  assert.throws(() => chunkRows(rows, 0), RangeError)
  assert.throws(() => chunkRows(rows, 101, 100), /exceeds the limit/)
})

test("columnCount: the union of the rows' keys (what Kysely binds)", () => {
  assert.equal(columnCount([{ a: 1 }, { b: 2, c: 3 }]), 3)
})

test('no multi-row INSERT in src/ chunks by a fixed row count', () => {
  const walk = (d: string): string[] =>
    fs
      .readdirSync(d, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith('.ts') ? [path.join(d, e.name)] : []))
  const offenders = walk('src').filter((f) => /insertInto\([^\n]*\.values\([^\n]*\.slice\(/.test(fs.readFileSync(f, 'utf8')))
  assert.deepEqual(offenders, [], 'use insertRows (src/store/bulk-insert.ts)')
})

let w: TestWard
before(async () => {
  w = await startWard({ worker: false })
})
after(() => w.close())

test(`2,100 findings in one insertRows call (${TEST_BACKEND}), where one statement would exceed the limit`, async () => {
  const db = w.h.db
  const targetId = await insertTarget(db, {
    workspaceId: w.workspaceId,
    userId: w.userId,
    name: '10.9.0.1',
    nameKey: '10.9.0.1',
    type: 'ip_address',
    description: '',
  })
  const now = new Date().toISOString()
  const scan = {
    workspace_id: w.workspaceId,
    target_id: targetId,
    user_id: w.userId,
    tool_id: 70,
    status: 'finished',
    status_message: null,
    vpn_profile_uuid: null,
    vpn_scan: 0,
    progress: 100,
    num_tests: 0,
    num_finished_tests: 0,
    max_scan_time: 60,
    scan_original_url: 0,
    redirect_level: 'same_domain',
    report_callback: null,
    tool_params: '{}',
    output_data: '{}',
    count_critical: 0,
    count_high: 0,
    count_medium: 0,
    count_low: 0,
    count_info: 0,
    created_at: now,
    start_time: now,
    end_time: now,
    lease_owner: null,
    lease_expires_at: null,
    stop_requested: 0,
    attempts: 1,
  } satisfies NewScan
  const scanId = await insertScan(db, scan)
  const rows = Array.from(
    { length: 2100 },
    (_, i) =>
      encodeFinding(
        buildFinding(
          { check: openPort, port: 1 + i, protocol: 'tcp', service: 'x' },
          { scanId, targetId, workspaceId: w.workspaceId, testId: null, testDescription: '', now },
          new Set(),
        ),
      ) as NewFinding,
  )
  const cols = columnCount(rows)
  assert.ok(
    cols * rows.length > maxParameters(db),
    `${cols} × ${rows.length} must exceed ${maxParameters(db)} for this test to mean anything`,
  )
  // The engine really refuses the single statement...
  await assert.rejects(db.insertInto('findings').values(rows).execute())
  // ...and insertRows writes all of them.
  await insertRows(db, 'findings', rows)
  const n = await db
    .selectFrom('findings')
    .select((e) => e.fn.countAll().as('n'))
    .where('scan_id', '=', scanId)
    .executeTakeFirstOrThrow()
  assert.equal(Number(n.n), 2100)
  const ports = (await db.selectFrom('findings').select('port').where('scan_id', '=', scanId).orderBy('port').execute()).map((r) => r.port)
  assert.deepEqual(
    ports,
    rows.map((r) => r.port),
  )
})
