// Keyset paging of GET /findings (after_id): walking with the last id of each page gives exactly the
// pages page/limit gives, plain and with group_duplicates, and stays inside the caller's findings.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../helpers/ward.js'
import { insertTarget } from '../../src/store/targets.js'
import { insertScan } from '../../src/store/scans.js'
import { insertFinding } from '../../src/store/results.js'
import { buildFinding } from '../../src/domain/findings.js'
import { openPort } from '../../src/tools/port-scanner/checks.js'
import type { NewScan } from '../../src/store/schema.js'

let w: TestWard
let targetId: number
let other: { key: string }

const scanRow = (targetId: number): NewScan => ({
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
  created_at: new Date().toISOString(),
  start_time: new Date().toISOString(),
  end_time: new Date().toISOString(),
  lease_owner: null,
  lease_expires_at: null,
  stop_requested: 0,
  attempts: 1,
})

before(async () => {
  w = await startWard({ worker: false })
  const db = w.h.db
  targetId = await insertTarget(db, {
    workspaceId: w.workspaceId,
    userId: w.userId,
    name: '10.7.0.1',
    nameKey: '10.7.0.1',
    type: 'ip_address',
    description: '',
  })
  const second = await insertTarget(db, {
    workspaceId: w.workspaceId,
    userId: w.userId,
    name: '10.7.0.2',
    nameKey: '10.7.0.2',
    type: 'ip_address',
    description: '',
  })
  // Three scans of the target finding overlapping ports (duplicate groups), one of another target between them.
  for (const [t, ports] of [
    [targetId, [1, 2, 3, 4, 5, 6, 7, 8]],
    [second, [1, 2, 3]],
    [targetId, [2, 4, 6, 8, 10, 12]],
    [targetId, [1, 3, 5, 11, 13]],
  ] as const) {
    const scanId = await insertScan(db, scanRow(t))
    for (const port of ports)
      await insertFinding(
        db,
        buildFinding(
          { check: openPort, port, protocol: 'tcp', service: 'x' },
          { scanId, targetId: t, workspaceId: w.workspaceId, testId: null, testDescription: '', now: new Date().toISOString() },
          new Set(),
        ),
      )
  }
  other = await w.user('mallory')
})
after(() => w.close())

const ids = async (q: string, key?: string) => {
  const r = await w.req('GET', `/api/v2/findings?${q}`, { key })
  assert.equal(r.statusCode, 200, r.body)
  return (r.json().data as Array<{ id: number }>).map((f) => f.id)
}

for (const filter of ['', 'target_id=TARGET&', 'group_duplicates=true&', 'target_id=TARGET&group_duplicates=true&']) {
  test(`after_id walks the same pages as page/limit: ${filter || 'all findings'}`, async () => {
    const f = filter.replace('TARGET', String(targetId))
    const all = await ids(`${f}limit=1000`)
    assert.ok(all.length >= 5, `${all.length} findings`)
    const byPage: number[][] = []
    for (let page = 1; ; page++) {
      const p = await ids(`${f}limit=3&page=${page}`)
      if (!p.length) break
      byPage.push(p)
    }
    const byKey: number[][] = []
    for (let last: number | null = null; ; ) {
      const p = await ids(`${f}limit=3${last === null ? '' : `&after_id=${last}`}`)
      if (!p.length || byKey.length > all.length) break
      byKey.push(p)
      last = p.at(-1)!
    }
    assert.deepEqual(byKey, byPage)
    assert.deepEqual(byKey.flat(), all)
    // page applies on top of after_id: page 2 after the first page's last id is the third page.
    if (byPage.length >= 3) assert.deepEqual(await ids(`${f}limit=3&page=2&after_id=${byPage[0]!.at(-1)}`), byPage[2])
  })
}

test("after_id stays inside the caller's findings and is validated", async () => {
  const mine = await ids('limit=1000')
  assert.deepEqual(await ids(`after_id=${mine[0]! + 1}`, other.key), [])
  for (const bad of ['0', '-1', 'x', '1.5']) {
    const r = await w.req('GET', `/api/v2/findings?after_id=${bad}`)
    assert.equal(r.statusCode, 400, `${bad}: ${r.body}`)
    assert.match(r.json().message, /after_id/)
  }
})
