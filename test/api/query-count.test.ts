// No N+1: a list request makes the same number of SQL queries whether it returns 1 item or 50.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../helpers/ward.js'
import { insertTarget } from '../../src/store/targets.js'
import { insertScan } from '../../src/store/scans.js'
import { insertFinding, insertTest } from '../../src/store/results.js'
import { buildFinding } from '../../src/domain/findings.js'
import { openPort } from '../../src/tools/port-scanner/checks.js'
import type { NewScan } from '../../src/store/schema.js'
import { insertSchedule } from '../../src/store/schedules.js'

let w: TestWard
let counting = false
let queries: string[] = []

interface Tenant {
  key: string
  workspaceId: number
  targetIds: number[]
  scanId: number
}

const scanRow = (workspaceId: number, targetId: number, userId: number): NewScan => ({
  workspace_id: workspaceId,
  target_id: targetId,
  user_id: userId,
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
  created_at: new Date().toISOString(),
  start_time: new Date().toISOString(),
  end_time: new Date().toISOString(),
  lease_owner: null,
  lease_expires_at: null,
  stop_requested: 0,
  attempts: 1,
})

/** A user with `n` targets, `n` scans, and one scan holding `n` tests with one finding each (plus a duplicate of each in a later scan). */
async function tenant(name: string, n: number): Promise<Tenant> {
  const u = await w.user(name)
  const db = w.h.db
  const targetIds: number[] = []
  for (let i = 0; i < n; i++)
    targetIds.push(
      await insertTarget(db, {
        workspaceId: u.workspaceId,
        userId: u.userId,
        name: `10.0.${i >> 8}.${i & 255}`,
        nameKey: `10.0.${i >> 8}.${i & 255}`,
        type: 'ip_address',
        description: '',
      }),
    )
  const scanIds: number[] = []
  for (let i = 0; i < n; i++) scanIds.push(await insertScan(db, scanRow(u.workspaceId, targetIds[0]!, u.userId)))
  // Two scans of the same target with the same findings: group_duplicates folds them.
  for (const scanId of new Set([scanIds[0]!, scanIds[n - 1]!])) {
    for (let i = 0; i < n; i++) {
      const testId = await insertTest(db, scanId, `Port ${1000 + i}`, 'Port check')
      await insertFinding(
        db,
        buildFinding(
          { check: openPort, port: 1000 + i, protocol: 'tcp', service: 'x' },
          {
            scanId,
            targetId: targetIds[0]!,
            workspaceId: u.workspaceId,
            testId,
            testDescription: 'Port check',
            now: new Date().toISOString(),
          },
          new Set(),
        ),
      )
    }
  }
  for (let i = 0; i < n; i++)
    await insertSchedule(db, {
      workspace_id: u.workspaceId,
      user_id: u.userId,
      name: `s${i}`,
      target_id: targetIds[i]!,
      target_type: null,
      tool_id: 70,
      tool_params: '{}',
      max_scan_time: 60,
      vpn_profile_uuid: null,
      report_callback: null,
      cron: '0 3 * * *',
      timezone: 'UTC',
      interval_minutes: null,
      paused: 0,
      next_run_at: new Date(Date.now() + 3600_000).toISOString(),
    })
  return { key: u.key, workspaceId: u.workspaceId, targetIds, scanId: scanIds[n - 1]! }
}

async function countQueries(t: Tenant, url: string, expectItems: number): Promise<number> {
  queries = []
  counting = true
  const r = await w.req('GET', url, { key: t.key })
  counting = false
  assert.equal(r.statusCode, 200, `${url}: ${r.body}`)
  const data = r.json().data
  const items = Array.isArray(data) ? data.length : data.output_data.findings.length
  assert.equal(items, expectItems, `${url} returned ${items} items`)
  return queries.length
}

let one: Tenant
let fifty: Tenant

before(async () => {
  w = await startWard({ worker: false, env: { WARD_AUTH_CACHE_MS: '60000' }, onQuery: (sql) => counting && queries.push(sql) })
  one = await tenant('one', 1)
  fifty = await tenant('fifty', 50)
})
after(() => w.close())

const routes: Array<[string, (t: Tenant) => string, (n: number) => number]> = [
  ['GET /targets', () => '/api/v2/targets?limit=100', (n) => n],
  ['GET /scans', (t) => `/api/v2/scans?workspace_id=${t.workspaceId}&limit=100`, (n) => n],
  ['GET /findings', (t) => `/api/v2/findings?workspace_id=${t.workspaceId}&limit=100`, (n) => (n === 1 ? 1 : 2 * n)],
  [
    'GET /findings?group_duplicates=true',
    (t) => `/api/v2/findings?workspace_id=${t.workspaceId}&group_duplicates=true&limit=100`,
    (n) => n,
  ],
  ['GET /findings?target_id', (t) => `/api/v2/findings?target_id=${t.targetIds[0]}&limit=100`, (n) => (n === 1 ? 1 : 2 * n)],
  ['GET /scans/{id}/tests', (t) => `/api/v2/scans/${t.scanId}/tests`, (n) => n],
  ['GET /scans/{id}/output', (t) => `/api/v2/scans/${t.scanId}/output`, (n) => n],
  ['GET /schedules', () => '/api/v2/schedules?limit=100', (n) => n],
]

for (const [name, url, items] of routes) {
  test(`${name}: the query count does not grow with the number of items`, async () => {
    const q1 = await countQueries(one, url(one), items(1))
    const q50 = await countQueries(fifty, url(fifty), items(50))
    assert.equal(q50, q1, `${name}: ${q1} queries for 1 item, ${q50} for 50:\n${queries.join('\n')}`)
    assert.ok(q1 <= 4, `${name}: ${q1} queries (auth + a few reads expected):\n${queries.join('\n')}`)
  })
}
