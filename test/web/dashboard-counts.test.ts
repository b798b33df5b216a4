// The dashboard's numbers against a count made here from the findings rows themselves: the
// open-findings tiles (each duplicate group once, open findings only, per risk level, other
// workspaces left out) on / and /dashboard/live, the chart's findings per day and risk (the last 30
// days only), and a target page's tiles. Migration 029 changed how the database reads them (indexes);
// the numbers must be the same whatever the plan. Both backends: the counting is the database's.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../helpers/ward.js'
import { setPassword, signIn, type WebSession } from '../helpers/web.js'
import { insertFinding } from '../../src/store/results.js'
import { buildFinding } from '../../src/domain/findings.js'
import { openPort } from '../../src/tools/port-scanner/checks.js'
import type { Risk } from '../../src/toolkit/check.js'
import { chartSeries, DAYS } from '../../src/web/pages/dashboard.js'

const RISKS: Risk[] = ['info', 'low', 'medium', 'high', 'critical']
const DAY = 86400000

let w: TestWard
let alice: WebSession
let targetA: number

/** A queued scan (no worker runs it) of `target` under `key`, to hang findings on. */
async function scanOf(target: string, key?: string) {
  const r = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: target }, key })
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_id as number
  const s = (await w.req('GET', `/api/v2/scans/${id}`, { key })).json().data
  return { id, targetId: s.target_id as number, workspaceId: s.workspace_id as number }
}

/** Open ports as findings of a scan, made `daysAgo` days ago; a port's risk is its number mod 5 unless `risk` says. */
async function findings(scan: Awaited<ReturnType<typeof scanOf>>, ports: number[], daysAgo: number, risk: (port: number) => Risk) {
  const now = new Date(Date.now() - daysAgo * DAY).toISOString()
  for (const port of ports)
    await insertFinding(
      w.h.db,
      buildFinding(
        { check: openPort, port, protocol: 'tcp', service: 'x', risk: risk(port) },
        { scanId: scan.id, targetId: scan.targetId, workspaceId: scan.workspaceId, testId: null, testDescription: '', now },
        new Set(),
      ),
    )
}

const byPort = (port: number) => RISKS[port % 5]!

before(async () => {
  w = await startWard({ worker: false })
  await setPassword(w, w.userId)
  alice = await signIn(w, 'alice')
  const bob = await w.user('bob')
  // Target a: seen 40 days ago (outside the chart), again today with most ports repeated (duplicate
  // groups), port 3 now critical (one group at two risk levels); target b three days ago.
  const a1 = await scanOf('dash-a.example')
  targetA = a1.targetId
  await findings(a1, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 40, byPort)
  await findings(await scanOf('dash-a.example'), [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], 0, (p) => (p === 3 ? 'critical' : byPort(p)))
  await findings(await scanOf('dash-b.example'), [1, 2, 3, 4, 5, 21, 22, 23, 24], 3, byPort)
  // Another workspace's findings, at every risk: none may count.
  await findings(await scanOf('dash-bob.example', bob.key), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 1, byPort)
  // Triage through the page: a group accepted, one a false positive, one fixed (each whole group).
  const rows = await w.h.db
    .selectFrom('findings')
    .select(['id', 'port', 'target_id'])
    .where('workspace_id', '=', w.workspaceId)
    .orderBy('id')
    .execute()
  for (const [port, status] of [
    [5, 'accepted'],
    [6, 'false_positive'],
    [7, 'fixed'],
    [24, 'fixed'],
  ] as const) {
    const row = rows.find((r) => r.port === port)!
    const r = await alice.post(`/findings/${row.id}/triage`, { status })
    assert.equal(r.statusCode, 303, r.body.slice(0, 300))
  }
})
after(() => w.close())

/** The numbers in a tile row of a page, by risk level. */
function tiles(body: string, testid: string): number[] {
  const section = new RegExp(`data-testid="${testid}">(.*?)</div>`, 's').exec(body)?.[1]
  assert.ok(section, `no ${testid} on the page`)
  const out = [-1, -1, -1, -1, -1]
  for (const m of section.matchAll(/class="tile r(\d)"[^>]*><b>(\d+)<\/b>/g)) out[Number(m[1])] = Number(m[2])
  return out
}

const unescapeHtml = (s: string) =>
  s.replace(/&(quot|amp|lt|gt|#39|#96);/g, (_, e: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'", '#96': '`' })[e]!)

/** Open duplicate groups per risk level and findings per day and risk, counted here from every row. */
async function direct(where: { targetId?: number } = {}) {
  const all = await w.h.db
    .selectFrom('findings')
    .select(['workspace_id', 'target_id', 'dedup_key', 'risk_level', 'status', 'created_at'])
    .execute()
  const mine = all.filter((r) => r.workspace_id === w.workspaceId && (where.targetId === undefined || r.target_id === where.targetId))
  const groups = RISKS.map(() => new Set<string>())
  for (const r of mine) if (r.status === 'open') groups[r.risk_level]!.add(r.dedup_key)
  const since = new Date(Date.now() - DAYS * DAY).toISOString().slice(0, 10)
  const perDay = new Map<string, { day: string; risk_level: number; n: number }>()
  for (const r of mine) {
    if (r.created_at < since) continue
    const day = r.created_at.slice(0, 10)
    const k = `${day} ${r.risk_level}`
    const e = perDay.get(k) ?? { day, risk_level: r.risk_level, n: 0 }
    e.n++
    perDay.set(k, e)
  }
  return { open: groups.map((g) => g.size), rows: mine, others: all.length - mine.length, chart: chartSeries([...perDay.values()]).s }
}

test("the dashboard's open findings by severity and its chart equal a direct count of the findings", async () => {
  const want = await direct()
  // The data exercise what the count must get right, else the comparison proves little.
  assert.ok(want.others >= 10, "another workspace's findings exist")
  assert.ok(want.open.filter((n) => n > 0).length >= 4, `open groups at several risk levels: ${want.open}`)
  const openRows = want.rows.filter((r) => r.status === 'open').length
  const openGroups = want.open.reduce((a, b) => a + b, 0)
  assert.ok(openRows > openGroups, `duplicates folded: ${openRows} open findings, ${openGroups} open groups`)
  for (const s of ['accepted', 'false_positive', 'fixed'])
    assert.ok(
      want.rows.some((r) => r.status === s),
      `a finding ${s}`,
    )
  assert.ok(
    want.rows.some((r) => r.created_at < new Date(Date.now() - DAYS * DAY).toISOString()),
    'findings older than the chart',
  )
  // Port 3's group is open at two risk levels: counted in both tiles, as the count always has.
  assert.ok(want.open[4]! >= 1 && want.open[3]! >= 1)

  const home = await alice.get('/')
  assert.equal(home.statusCode, 200)
  assert.deepEqual(tiles(home.body, 'open-findings'), want.open)
  const live = await alice.get('/dashboard/live')
  assert.equal(live.statusCode, 200)
  assert.deepEqual(tiles(live.body, 'open-findings'), want.open)
  const series = JSON.parse(unescapeHtml(/id="findings-chart"[^>]*data-series="([^"]*)"/.exec(home.body)![1]!))
  assert.deepEqual(series.s, want.chart)
  assert.ok(
    series.s.flat().some((n: number) => n > 0),
    'the chart has findings',
  )

  // The target page counts the same way over one target.
  const wantA = await direct({ targetId: targetA })
  const page = await alice.get(`/targets/${targetA}`)
  assert.equal(page.statusCode, 200)
  assert.deepEqual(tiles(page.body, 'target-findings'), wantA.open)
  assert.notDeepEqual(wantA.open, want.open, 'the target page counts its own target only')
})
