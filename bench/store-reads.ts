// `npm run bench -- store-reads [--db sqlite:./.tmp/bench.db] [--iterations 50]`
// The database's side of the API's reads and write checks, in process (no HTTP, no load generator):
// median time of each query over the seeded database. Steadier than req/s on a shared machine.
import os from 'node:os'
import { sql } from 'kysely'
import { openDatabase } from '../src/store/db.js'
import { listFindingArrays, getFindingArray } from '../src/store/findings.js'
import { countUserTargets } from '../src/store/targets.js'
import { BENCH_USER } from './seed.js'
import { DEFAULT_BENCH_DB, dbConfigOf, machine, parseArgs } from './_shared.js'

export async function run(args: string[]): Promise<void> {
  const a = parseArgs(args)
  const url = a.get('db') ?? DEFAULT_BENCH_DB
  const iterations = Number(a.get('iterations') ?? 50)
  const h = await openDatabase(dbConfigOf(url))
  const db = h.db
  const user = await db
    .selectFrom('users')
    .select(['id', 'active_workspace_id'])
    .where('name', '=', BENCH_USER)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  const ws = user.active_workspace_id!
  const t = (
    await db.selectFrom('scans').select('target_id').where('workspace_id', '=', ws).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()
  ).target_id
  const fid = (
    await db.selectFrom('findings').select('id').where('workspace_id', '=', ws).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()
  ).id
  const after500 = (
    await db
      .selectFrom('findings')
      .select('id')
      .where('workspace_id', '=', ws)
      .orderBy('id', 'desc')
      .limit(1)
      .offset(499 * 100 - 1)
      .executeTakeFirstOrThrow()
  ).id
  const page = { limit: 100, page: 1 }
  const cases: Array<[string, () => Promise<unknown>]> = [
    ['findings of a target, 100 rows', () => listFindingArrays(db, user.id, { targetId: t, ...page })],
    ['group_duplicates, 100 rows', () => listFindingArrays(db, user.id, { workspaceId: ws, groupDuplicates: true, ...page })],
    ['workspace list, page 1', () => listFindingArrays(db, user.id, { workspaceId: ws, ...page })],
    ['workspace list, page=500', () => listFindingArrays(db, user.id, { workspaceId: ws, limit: 100, page: 500 })],
    ['workspace list, after_id (page 500)', () => listFindingArrays(db, user.id, { workspaceId: ws, afterId: after500, ...page })],
    ['one finding', () => getFindingArray(db, user.id, fid)],
    [
      "target limit: COUNT(*) of the user's targets (before)",
      () => sql`SELECT COUNT(*) AS n FROM targets WHERE user_id = ${user.id}`.execute(db),
    ],
    ['target limit: users.target_count (after)', () => countUserTargets(db, user.id)],
  ]
  console.log(
    `store-reads: ${url.replace(/\/\/[^@/]*@/, '//***@')}; ${machine()}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  for (const [name, fn] of cases) {
    await fn()
    const ms: number[] = []
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now()
      await fn()
      ms.push(performance.now() - t0)
    }
    ms.sort((x, y) => x - y)
    console.log(
      `${name.padEnd(56)} median ${ms[Math.floor(ms.length / 2)]!.toFixed(2).padStart(7)} ms   p10 ${ms[Math.floor(ms.length / 10)]!.toFixed(2).padStart(7)} ms`,
    )
  }
  await h.close()
}
