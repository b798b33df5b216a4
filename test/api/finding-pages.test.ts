// GET /findings serves finished pages from memory while their workspace's findings change count is
// unchanged (api/finding-pages.ts, migration 031). After every kind of write a list shows (a scan's
// new findings, a rescan moving a group's last sighting, triage, a complete scan fixing a group,
// SQL written outside Ward, deletes) each list must equal the answer built from the database, and a
// repeated read must be served from memory. A write path that was not counted fails here. On PostgreSQL, writers of
// one workspace's findings must not wait for one another on the count, and folding its rows keeps it.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { startWard, waitForScan, TEST_BACKEND, type TestWard } from '../helpers/ward.js'
import { listFindingArrays, type FindingFilter } from '../../src/store/findings.js'
import { findingsPageJson } from '../../src/reports/finding-json.js'
import { addMember, removeMember } from '../../src/store/members.js'
import { compactFindingsChanges, findingsVersion } from '../../src/store/findings-version.js'
import { FindingPages } from '../../src/api/finding-pages.js'

let w: TestWard
let findingReads = 0
before(async () => {
  w = await startWard({ onQuery: (q) => void (/from "findings"/i.test(q) && findingReads++) })
})
after(() => w.close())

const finished = (s: { status_name: string }) => s.status_name === 'finished'

async function runNow(scheduleId: number): Promise<number> {
  const r = await w.req('POST', `/api/v2/schedules/${scheduleId}/run`)
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_ids[0] as number
  await waitForScan(w, id, finished)
  return id
}

const query = (f: FindingFilter) =>
  new URLSearchParams(
    Object.entries({
      workspace_id: f.workspaceId,
      target_id: f.targetId,
      group_duplicates: f.groupDuplicates,
      lifecycle: f.lifecycle,
      limit: f.limit,
      page: f.page,
    }).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  ).toString()

async function body(f: FindingFilter, key?: string): Promise<string> {
  const r = await w.req('GET', `/api/v2/findings?${query(f)}`, { key })
  assert.equal(r.statusCode, 200, r.body)
  return r.body
}

describe(`findings pages kept in memory (${TEST_BACKEND})`, () => {
  test('every write a list shows is seen at once; a repeated read does not read findings', async () => {
    const target = (await w.req('POST', '/api/v2/targets', { form: { name: 'pages.example' } })).json().data.created_id as number
    const sched = await w.req('POST', '/api/v2/schedules', {
      body: { tool_id: 9001, target_id: target, interval_minutes: 1440, tool_params: { steps: 5, step_ms: 1 } },
    })
    assert.equal(sched.statusCode, 201, sched.body)
    const sid = sched.json().data.created_id as number
    const lists: FindingFilter[] = [
      { targetId: target, limit: 100, page: 1 },
      { workspaceId: w.workspaceId, groupDuplicates: true, limit: 100, page: 1 },
      { workspaceId: w.workspaceId, limit: 2, page: 2 },
      { targetId: target, lifecycle: 'fixed', limit: 100, page: 1 },
    ]
    let last: string[] = lists.map(() => '')

    /** Each list equals the database's answer, is then served from memory, and the first list changed. */
    const check = async (what: string) => {
      const now: string[] = []
      for (const f of lists) {
        const truth = findingsPageJson(await listFindingArrays(w.h.db, w.userId, f))
        assert.equal(await body(f), truth, `${what}: ${query(f)}`)
        const reads = findingReads
        assert.equal(await body(f), truth, `${what}, again: ${query(f)}`)
        assert.equal(findingReads, reads, `${what}: the repeated read of ${query(f)} came from memory`)
        now.push(truth)
      }
      assert.notEqual(now[0], last[0], `${what} changed the list (or this step tests nothing)`)
      last = now
    }

    const s1 = await runNow(sid)
    await check('first scan')
    await runNow(sid)
    await check('rescan: new findings, groups seen again')
    const [first] = JSON.parse(last[0]!).data as Array<{ id: number }>
    assert.equal((await w.req('PATCH', `/api/v2/findings/${first!.id}`, { body: { status: 'accepted' } })).statusCode, 200)
    await check('triage of a group')
    await w.req('PATCH', `/api/v2/schedules/${sid}`, { body: { tool_params: { steps: 5, step_ms: 1, quiet_steps: [5] } } })
    const s3 = await runNow(sid)
    await check('a complete scan fixes a group')
    assert.match(last[3]!, /"lifecycle":"fixed"/)
    // Writes made outside Ward's code (another process, an operator's SQL) are counted too.
    await sql`UPDATE findings SET name = 'renamed by hand' WHERE id = ${first!.id}`.execute(w.h.db)
    await check('UPDATE findings by hand')
    await sql`UPDATE finding_groups SET regression = 1`.execute(w.h.db)
    await check('UPDATE finding_groups by hand')
    assert.equal((await w.req('DELETE', `/api/v2/scans/${s3}`)).statusCode, 204)
    await check('a scan deleted')
    assert.equal((await w.req('DELETE', `/api/v2/scans/${s1}`)).statusCode, 204)
    await check('another scan deleted')
  })

  test('membership is checked at every read, never kept with a page', async () => {
    const target = (await w.req('POST', '/api/v2/targets', { form: { name: 'members.example' } })).json().data.created_id as number
    const scan = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: target, tool_params: { steps: 3, step_ms: 1 } } })
    assert.equal(scan.statusCode, 201, scan.body)
    await waitForScan(w, scan.json().data.created_id, finished)
    const mallory = await w.user('mallory-pages')
    const f: FindingFilter = { targetId: target, limit: 100, page: 1 }
    const mine = await body(f)
    assert.ok(JSON.parse(mine).data.length > 0)
    assert.equal(await body(f, mallory.key), '{"data":[]}', 'not a member')
    assert.equal(await addMember(w.h.db, w.userId, w.workspaceId, mallory.userId, 'viewer'), 'done')
    assert.equal(await body(f, mallory.key), mine, 'a member sees the same page')
    assert.equal(await removeMember(w.h.db, w.userId, w.workspaceId, mallory.userId), 'done')
    assert.equal(await body(f, mallory.key), '{"data":[]}', 'access ends at once')
    assert.equal(await body({ workspaceId: w.workspaceId, limit: 100, page: 1 }, mallory.key), '{"data":[]}')
  })

  test('the memory budget: least recently used pages go first; 0 keeps none and reads every time', async () => {
    const target = (await w.req('POST', '/api/v2/targets', { form: { name: 'budget.example' } })).json().data.created_id as number
    const scan = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: target, tool_params: { steps: 5, step_ms: 1 } } })
    assert.equal(scan.statusCode, 201, scan.body)
    await waitForScan(w, scan.json().data.created_id, finished)
    const a: FindingFilter = { targetId: target, limit: 1, page: 1 }
    const b: FindingFilter = { targetId: target, limit: 1, page: 2 }
    const c: FindingFilter = { targetId: target, limit: 1, page: 3 }
    const [sa, sb, sc] = await Promise.all([a, b, c].map(async (f) => (await new FindingPages(w.h.db).json(w.userId, f)).length))
    assert.ok(Math.min(sa!, sb!, sc!) > '{"data":[]}'.length, 'three pages of one finding each')
    // Room for any two of the three pages, not for all three.
    const pages = new FindingPages(w.h.db, Math.max(sa! + sb!, sa! + sc!, sb! + sc!))
    for (const f of [a, b, a, c]) await pages.json(w.userId, f)
    assert.deepEqual([pages.hits, pages.misses], [1, 3])
    await pages.json(w.userId, a)
    assert.deepEqual([pages.hits, pages.misses], [2, 3], 'a, used last before c came, stayed')
    await pages.json(w.userId, b)
    assert.deepEqual([pages.hits, pages.misses], [2, 4], 'b, the least recently used, went')

    const none = new FindingPages(w.h.db, 0)
    const reads = findingReads
    assert.equal(await none.json(w.userId, a), await none.json(w.userId, a))
    assert.equal(findingReads, reads + 2, 'each read built from the database')
    assert.deepEqual([none.hits, none.misses], [0, 0])
  })

  test('the change-count triggers exist on both tables for every write', async () => {
    const names =
      TEST_BACKEND === 'postgres'
        ? (await sql<{ name: string }>`SELECT tgname AS name FROM pg_trigger WHERE NOT tgisinternal`.execute(w.h.db)).rows
        : (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'trigger'`.execute(w.h.db)).rows
    const have = new Set(names.map((r) => r.name))
    for (const table of ['findings', 'finding_groups'])
      for (const e of ['insert', 'update', 'delete', ...(TEST_BACKEND === 'postgres' ? ['truncate'] : [])])
        assert.ok(have.has(`${table}_changes_${e}`), `${table}_changes_${e}`)
  })

  if (TEST_BACKEND === 'postgres')
    test('writers do not wait for one another on the count; folding its rows keeps the sum', async () => {
      const target = (await w.req('POST', '/api/v2/targets', { form: { name: 'writers.example' } })).json().data.created_id as number
      const scan = await w.req('POST', '/api/v2/scans', {
        body: { tool_id: 9001, target_id: target, tool_params: { steps: 3, step_ms: 1 } },
      })
      assert.equal(scan.statusCode, 201, scan.body)
      await waitForScan(w, scan.json().data.created_id, finished)
      const ids = (
        await sql<{ id: number }>`SELECT id FROM findings WHERE target_id = ${target} ORDER BY id LIMIT 2`.execute(w.h.db)
      ).rows.map((r) => r.id)
      assert.equal(ids.length, 2)
      const touch = (db: typeof w.h.db, id: number) => sql`UPDATE findings SET name = name WHERE id = ${id}`.execute(db)
      // Read here without findingsVersion, which would start a fold of its own once the rows pile up.
      const version = async () =>
        String(
          (
            await sql<{
              s: string
            }>`SELECT coalesce(sum(weight), 0) AS s FROM findings_changes WHERE workspace_id = ${w.workspaceId}`.execute(w.h.db)
          ).rows[0]!.s,
        )
      const before = await version()
      assert.equal((await findingsVersion(w.h.db, w.userId, { targetId: target, limit: 1, page: 1 }))?.version, before)

      // Two transactions writing different findings of one workspace, each holding its rows: with one
      // counter row per workspace the second waited for the first (and opposite orders deadlocked).
      let release!: () => void
      let written!: () => void
      const firstWrote = new Promise<void>((r) => (written = r))
      const first = w.h.db.transaction().execute(async (trx) => {
        await touch(trx, ids[0]!)
        written()
        await new Promise<void>((r) => (release = r))
      })
      await firstWrote
      await w.h.db.transaction().execute(async (trx) => {
        await sql`SET LOCAL lock_timeout = '3s'`.execute(trx)
        await touch(trx, ids[1]!)
      })
      // The fold runs while the first writer's appended row is uncommitted: it neither waits nor loses it.
      for (let i = 0; i < 70; i++) await touch(w.h.db, ids[1]!)
      const mid = await version()
      assert.equal(BigInt(mid), BigInt(before) + 71n, 'each committed statement counts once')
      const rowsOf = async () =>
        Number(
          (await sql<{ n: string }>`SELECT count(*) AS n FROM findings_changes WHERE workspace_id = ${w.workspaceId}`.execute(w.h.db))
            .rows[0]!.n,
        )
      // The worker's scheduler may be folding too (then this fold waits its turn: it skips, and tries again).
      let folded = false
      for (let i = 0; i < 100 && !folded; i++) folded = await compactFindingsChanges(w.h.db, w.workspaceId)
      assert.ok(folded)
      assert.equal(await rowsOf(), 1, "one row of the sum (the open writer's row is not visible yet)")
      assert.equal(await version(), mid, 'folding keeps the sum')
      release()
      await first
      assert.equal(await rowsOf(), 2, 'the folded row and the late writer')
      assert.equal(BigInt(await version()), BigInt(mid) + 1n, 'the late commit counts')
      // The worker's scheduler folds rows that piled up; a read stays one query.
      for (let i = 0; i < 70; i++) await touch(w.h.db, ids[0]!)
      const piled = await version()
      assert.equal((await findingsVersion(w.h.db, w.userId, { targetId: target, limit: 1, page: 1 }))?.version, piled)
      // Past 64 rows the worker folds them into one (its tick may come while the loop above still
      // writes: then the rows written after it stay, fewer than 64); unfolded they would be over 70.
      for (let i = 0; i < 200 && (await rowsOf()) > 64; i++) await new Promise((r) => setTimeout(r, 50))
      assert.ok((await rowsOf()) <= 64, 'folded by the worker')
      assert.equal(await version(), piled)
    })
})
