// Imported vulnerability knowledge: NVD CVEs with the product ranges they affect, and EPSS scores.
// Re-importing a CVE replaces it (its ranges included); an EPSS import replaces the whole table.
import type { Db } from './db.js'
import { nowIso } from './time.js'
import { insertRows } from './bulk-insert.js'
import type { CveProductsTable, CvesTable } from './schema.js'
import { parseCves } from './finding-rows.js'
import { markCveFindings } from './cve-findings.js'
import { countRows } from './paging.js'

/** What a CVE says about itself, as the imported feed describes it. */
export interface CveFacts {
  id: string
  description: string
  /** CVSS v3.1 (or v3.0) base metrics, when NVD or the CNA scored it. */
  cvss3: { score: number; vector: string } | null
  /** CVSS v4.0 base metrics, when present. */
  cvss4: { score: number; vector: string } | null
  cwe: string[]
  references: string[]
}

export interface CveImport extends CveFacts {
  lastModified: string | null
  /** Vulnerable product ranges: the CPE's own version, or null when the bounds give the range. */
  products: Array<{
    vendor: string
    product: string
    version: string | null
    startIncluding: string | null
    startExcluding: string | null
    endIncluding: string | null
    endExcluding: string | null
  }>
}

/** Writes one batch of CVEs (replacing those already imported, with their ranges) in one transaction. */
export async function upsertCves(db: Db, batch: readonly CveImport[]): Promise<void> {
  if (!batch.length) return
  const now = nowIso()
  await db.transaction().execute(async (trx) => {
    const ids = batch.map((c) => c.id)
    await trx.deleteFrom('cve_products').where('cve', 'in', ids).execute()
    for (const c of batch) {
      const row = {
        description: c.description,
        cvss3_score: c.cvss3?.score ?? null,
        cvss3_vector: c.cvss3?.vector ?? null,
        cvss4_score: c.cvss4?.score ?? null,
        cvss4_vector: c.cvss4?.vector ?? null,
        cwe: JSON.stringify(c.cwe),
        refs: JSON.stringify(c.references),
        last_modified: c.lastModified,
        imported_at: now,
      }
      await trx
        .insertInto('cves')
        .values({ cve: c.id, ...row })
        .onConflict((oc) => oc.column('cve').doUpdateSet(row))
        .execute()
    }
    const ranges = batch.flatMap((c) =>
      c.products.map((p) => ({
        cve: c.id,
        vendor: p.vendor,
        product: p.product,
        version: p.version,
        start_including: p.startIncluding,
        start_excluding: p.startExcluding,
        end_including: p.endIncluding,
        end_excluding: p.endExcluding,
      })),
    )
    await insertRows(trx, 'cve_products', ranges)
  })
}

export const countCves = (db: Db): Promise<number> => countRows(db.selectFrom('cves'))

/** A vulnerable range of a product with its CVE, as the lookup reads them. */
export type CveRangeRow = Pick<
  CveProductsTable,
  'cve' | 'version' | 'start_including' | 'start_excluding' | 'end_including' | 'end_excluding'
> &
  Pick<CvesTable, 'description' | 'cvss3_score' | 'cvss3_vector' | 'cvss4_score' | 'cvss4_vector' | 'cwe' | 'refs'>

/** Every imported range of vendor:product, with its CVE. */
export function cveRangesOf(db: Db, vendor: string, product: string): Promise<CveRangeRow[]> {
  return db
    .selectFrom('cve_products as p')
    .innerJoin('cves as c', 'c.cve', 'p.cve')
    .select([
      'p.cve',
      'p.version',
      'p.start_including',
      'p.start_excluding',
      'p.end_including',
      'p.end_excluding',
      'c.description',
      'c.cvss3_score',
      'c.cvss3_vector',
      'c.cvss4_score',
      'c.cvss4_vector',
      'c.cwe',
      'c.refs',
    ])
    .where('p.vendor', '=', vendor)
    .where('p.product', '=', product)
    .orderBy('p.id')
    .execute()
}

/** Replaces the EPSS table with the scores `fill` writes through `write` (one transaction: a bad file changes nothing). */
export async function replaceEpss(
  db: Db,
  fill: (
    write: (date: string, scores: ReadonlyArray<{ cve: string; score: number; percentile: number }>) => Promise<void>,
  ) => Promise<void>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('epss_scores').execute()
    await fill(async (date, scores) => {
      const rows = scores.map((s) => ({ cve: s.cve, score: s.score, percentile: s.percentile, score_date: date }))
      await insertRows(trx, 'epss_scores', rows, (q) => q.onConflict((oc) => oc.column('cve').doNothing()))
    })
  })
}

/** The EPSS scores of these CVEs (those FIRST scored). */
export async function epssOf(db: Db, cves: readonly string[]): Promise<Array<{ cve: string; score: number; score_date: string }>> {
  if (!cves.length) return []
  return db
    .selectFrom('epss_scores')
    .select(['cve', 'score', 'score_date'])
    .where('cve', 'in', [...cves])
    .execute()
}

/** The highest imported CVSS base score (v3.x, else v4.0) among these CVEs, with its vector; null when none is scored. */
export async function nvdCvssOf(db: Db, cves: readonly string[]): Promise<{ score: number; vector: string } | null> {
  if (!cves.length) return null
  const rows = await db
    .selectFrom('cves')
    .select(['cvss3_score', 'cvss3_vector', 'cvss4_score', 'cvss4_vector'])
    .where('cve', 'in', [...cves])
    .execute()
  let best: { score: number; vector: string } | null = null
  for (const r of rows) {
    const s =
      r.cvss3_score !== null && r.cvss3_vector
        ? { score: r.cvss3_score, vector: r.cvss3_vector }
        : r.cvss4_score !== null && r.cvss4_vector
          ? { score: r.cvss4_score, vector: r.cvss4_vector }
          : null
    if (s && (!best || s.score > best.score)) best = s
  }
  return best
}

/**
 * Gives stored findings the EPSS score of an import (the highest of their CVEs), so findings raised
 * before `ward admin epss import` are enriched like new ones; returns how many changed.
 */
export function markEpssFindings(db: Db): Promise<number> {
  const withScores = db.selectFrom('findings').select(['id', 'cve', 'epss_score', 'epss_date'])
  return markCveFindings(withScores, async (rows) => {
    let marked = 0
    const cves = rows.map((r) => parseCves(r.cve))
    const scores = new Map((await epssOf(db, [...new Set(cves.flat())])).map((e) => [e.cve, e]))
    for (const [i, r] of rows.entries()) {
      const best = cves[i]!.map((c) => scores.get(c)).reduce<{ score: number; score_date: string } | undefined>(
        (a, e) => (e && (!a || e.score > a.score) ? e : a),
        undefined,
      )
      if (!best || (r.epss_score === best.score && r.epss_date === best.score_date)) continue
      await db.updateTable('findings').set({ epss_score: best.score, epss_date: best.score_date }).where('id', '=', r.id).execute()
      marked++
    }
    return marked
  })
}
