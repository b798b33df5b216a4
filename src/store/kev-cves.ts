// CVE ids imported from the official CISA KEV feed (`ward admin kev import FILE`). Ward's KEV set is
// the shipped snapshot plus these; the import also flags findings created before it.
import type { Db } from './db.js'
import { nowIso } from './time.js'
import { insertRows } from './bulk-insert.js'
import { parseCves } from './finding-rows.js'
import { markCveFindings } from './cve-findings.js'

export async function importedKevCves(db: Db): Promise<string[]> {
  return (await db.selectFrom('kev_cves').select('cve').execute()).map((r) => r.cve)
}

/** Replaces the imported set with `cves` (the feed is the whole catalogue); returns how many were new. */
export async function replaceKevCves(db: Db, cves: readonly string[]): Promise<{ total: number; added: number }> {
  return db.transaction().execute(async (trx) => {
    const before = new Set((await trx.selectFrom('kev_cves').select('cve').execute()).map((r) => r.cve))
    await trx.deleteFrom('kev_cves').execute()
    const now = nowIso()
    await insertRows(
      trx,
      'kev_cves',
      cves.map((cve) => ({ cve, imported_at: now })),
    )
    return { total: cves.length, added: cves.filter((c) => !before.has(c)).length }
  })
}

/** Sets in_cisa_catalog on findings not yet flagged whose CVEs `listed` accepts; returns how many. */
export function flagKevFindings(db: Db, listed: (cves: string[]) => boolean): Promise<number> {
  const unflagged = db.selectFrom('findings').select(['id', 'cve']).where('in_cisa_catalog', '=', 0)
  return markCveFindings(unflagged, async (rows) => {
    const ids = rows.filter((r) => listed(parseCves(r.cve))).map((r) => r.id)
    if (ids.length) await db.updateTable('findings').set({ in_cisa_catalog: 1 }).where('id', 'in', ids).execute()
    return ids.length
  })
}
