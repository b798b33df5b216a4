// A report of a scan with tens of thousands of findings draws only the first few thousand: it reads
// a few columns of every finding (to order and count them) and whole rows of the ones it draws, in
// batches, so neither memory nor a synchronous SQLite read grows with the scan.
import type { Db } from './db.js'
import { selectArrays } from './db.js'
import type { FindingRow } from './schema.js'

/** What a report needs of every finding: its place in the order and what it counts. */
export interface FindingHead {
  id: number
  risk_level: number
  name: string
  in_cisa_catalog: boolean
  confirmed: boolean
}

const BATCH = 500

/** The heads of every finding of a scan (arrays, not row objects: there may be many). */
export async function findingHeads(db: Db, scanId: number): Promise<FindingHead[]> {
  const rows = await selectArrays(
    db,
    db.selectFrom('findings').select(['id', 'risk_level', 'name', 'in_cisa_catalog', 'confirmed']).where('scan_id', '=', scanId),
  )
  return rows.map((r) => ({
    id: Number(r[0]),
    risk_level: Number(r[1]),
    name: String(r[2]),
    in_cisa_catalog: Number(r[3]) === 1,
    confirmed: Number(r[4]) === 1,
  }))
}

/** Whole rows of these findings of the scan, in the order of `ids`; read BATCH at a time, yielding between. */
export async function findingsOfScan(db: Db, scanId: number, ids: readonly number[]): Promise<FindingRow[]> {
  const byId = new Map<number, FindingRow>()
  for (let i = 0; i < ids.length; i += BATCH) {
    for (const r of await db
      .selectFrom('findings')
      .selectAll()
      .where('scan_id', '=', scanId)
      .where('id', 'in', ids.slice(i, i + BATCH))
      .execute())
      byId.set(r.id, r)
    await new Promise<void>((r) => setImmediate(r))
  }
  return ids.flatMap((id) => byId.get(id) ?? [])
}
