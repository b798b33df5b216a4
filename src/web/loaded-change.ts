// An audited change on an item the page has loaded, so the caller may read it: a change it could not
// make means the caller's role refused it (403).
import { viewerRefused } from '../domain/access.js'
import { audited, type AuditIntent, type AuditOutcome } from '../store/audit.js'
import type { Db } from '../store/db.js'

/**
 * Runs `change` with its audit entry when `outcome` says it was done; refused (403) when it gives
 * `missing` or, without it, was not done.
 */
export async function changeLoaded<T>(
  db: Db,
  audit: AuditIntent | undefined,
  change: (trx: Db) => Promise<T>,
  outcome: (r: T) => AuditOutcome,
  missing?: T,
): Promise<T> {
  const r = await audited(db, audit, change, outcome)
  if (missing === undefined ? !outcome(r) : r === missing) throw viewerRefused()
  return r
}
