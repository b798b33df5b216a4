// How a scan's tests ended, for honest end states (decisions.md, "Scan states"): a scan none of
// whose tests ran to a result is not "finished", and one in which some could not run says so.
import type { Db } from './db.js'

export interface TestNote {
  name: string
  status: 'error' | 'skipped'
  message: string
}

export interface TestTally {
  total: number
  /** Tests that ran to a result (status `finished`: passed or failed). */
  ran: number
  /** Tests that errored, were skipped, or were still running when the tool returned. */
  notRun: number
  /** Up to `keep` of those, errors first, in the order they started. */
  notes: TestNote[]
}

export async function testTally(db: Db, scanId: number, keep = 5): Promise<TestTally> {
  const counts = await db
    .selectFrom('tests')
    .select(['status', (e) => e.fn.countAll<number>().as('n')])
    .where('scan_id', '=', scanId)
    .groupBy('status')
    .execute()
  let total = 0
  let ran = 0
  for (const c of counts) {
    total += Number(c.n)
    if (c.status === 'finished') ran += Number(c.n)
  }
  const rows =
    total === ran
      ? []
      : await db
          .selectFrom('tests')
          .select(['name', 'status', 'message'])
          .where('scan_id', '=', scanId)
          .where('status', '!=', 'finished')
          .orderBy('id')
          .limit(200)
          .execute()
  const rank = (s: string) => (s === 'error' ? 0 : 1)
  const notes = rows
    .map((r) => ({
      name: r.name,
      status: r.status === 'error' ? ('error' as const) : ('skipped' as const),
      message: r.message ?? (r.status === 'running' ? 'the tool returned before this test ended' : 'no reason given'),
    }))
    .sort((a, b) => rank(a.status) - rank(b.status))
    .slice(0, keep)
  return { total, ran, notRun: total - ran, notes }
}
