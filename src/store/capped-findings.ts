// Findings beyond a check's cap per scan are not stored one by one: one summarising finding of the
// same check stands for them (engine/finding-cap.ts writes it). These are the store's side of it.
import type { Transaction } from 'kysely'
import type { Db } from './db.js'
import type { Database } from './schema.js'

/**
 * The summarising finding's location: with the target and vuln_id it makes the finding's identity, so
 * the summary of a check lands in the same duplicate group scan after scan, whatever the count.
 */
export const MORE_FINDINGS_LOCATION = '(more findings of this check)'

/** Identities of the findings of one check this scan already stored one by one (a restarted scan keeps counting from them). */
export async function storedKeysOfCheck(db: Db, scanId: number, vulnId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('findings')
    .select('dedup_key')
    .where('scan_id', '=', scanId)
    .where('vuln_id', '=', vulnId)
    .where((eb) => eb.or([eb('location', 'is', null), eb('location', '!=', MORE_FINDINGS_LOCATION)]))
    .orderBy('id')
    .limit(limit)
    .execute()
  return rows.map((r) => r.dedup_key)
}

/**
 * Duplicate groups this scan cannot call gone: those of the checks it capped. It found more of them
 * than it stored, so a finding it did not store one by one may well be among the ones it counted.
 */
export async function keysOfCappedChecks(
  trx: Transaction<Database>,
  scan: { id: number; target_id: number; workspace_id: number },
): Promise<Set<string>> {
  const capped = await trx
    .selectFrom('findings')
    .select('vuln_id')
    .where('scan_id', '=', scan.id)
    .where('location', '=', MORE_FINDINGS_LOCATION)
    .execute()
  if (!capped.length) return new Set()
  const rows = await trx
    .selectFrom('findings')
    .select('dedup_key')
    .distinct()
    .where('target_id', '=', scan.target_id)
    .where('workspace_id', '=', scan.workspace_id)
    .where(
      'vuln_id',
      'in',
      capped.map((c) => c.vuln_id),
    )
    .execute()
  return new Set(rows.map((r) => r.dedup_key))
}
