// Findings reads. Tenancy: a finding is visible when its workspace belongs to the caller.
import { selectArrays, type Db } from './db.js'
import type { ExpressionBuilder } from 'kysely'
import type { Database, FindingGroupColumns, FindingRow } from './schema.js'

/**
 * The columns of the Finding resource, in the resource's field order: rows read with
 * `listFindingArrays` / `getFindingArray` are arrays in this order (see api/finding-json.ts).
 */
export const FINDING_RESOURCE_COLUMNS = [
  'id', 'name', 'test_description', 'test_finished', 'confirmed', 'in_cisa_catalog', 'cve', 'vuln_description', 'vuln_evidence',
  'risk_description', 'risk_level', 'status', 'recommendation', 'refs', 'verified', 'vuln_id', 'owasp', 'cwe', 'port', 'protocol',
  'service', 'url', 'scan_id', 'target_id', 'created_at', 'cvss_score', 'cvss_vector', 'epss_score', 'epss_date',
] as const satisfies ReadonlyArray<keyof FindingRow>

/**
 * The life cycle of a finding's duplicate group (store/finding-lifecycle.ts) as four more columns,
 * after the others: null for a finding stored before groups were kept.
 */
export function groupColumns(eb: ExpressionBuilder<Database, 'findings'>) {
  const g = () => eb.selectFrom('finding_groups as fg').whereRef('fg.workspace_id', '=', 'findings.workspace_id').whereRef('fg.dedup_key', '=', 'findings.dedup_key')
  return [
    g().select('fg.first_seen').as('group_first_seen'),
    g().select('fg.last_seen').as('group_last_seen'),
    g().select('fg.state').as('group_state'),
    g().select('fg.regression').as('group_regression'),
  ]
}

export interface FindingFilter {
  workspaceId?: number
  targetId?: number
  scanId?: number
  groupDuplicates?: boolean
  riskLevel?: number
  status?: string
  vulnId?: string
  /** The duplicate group's life cycle: `fixed` by a later complete scan, or `open` (never fixed, or back). */
  lifecycle?: 'open' | 'fixed'
  /** Groups found again after being fixed (true) or not (false). */
  regression?: boolean
  /** Keyset paging: only findings older than this id (the list is newest first). */
  afterId?: number
  limit: number
  page: number
}

const ownWorkspaces = (db: Db, userId: number) => db.selectFrom('workspaces').select('id').where('user_id', '=', userId)

export async function listFindings(db: Db, userId: number, f: FindingFilter): Promise<Array<FindingRow & FindingGroupColumns>> {
  return findingsQuery(db, userId, f).selectAll('findings').select(groupColumns).execute()
}

/** listFindings as arrays of FINDING_RESOURCE_COLUMNS: the API's findings list reads these. */
export function listFindingArrays(db: Db, userId: number, f: FindingFilter): Promise<unknown[][]> {
  return selectArrays(db, findingsQuery(db, userId, f).select(FINDING_RESOURCE_COLUMNS.map((c) => `findings.${c}` as const)).select(groupColumns))
}

export async function getFindingArray(db: Db, userId: number, id: number): Promise<unknown[] | null> {
  const q = db.selectFrom('findings').select([...FINDING_RESOURCE_COLUMNS]).select(groupColumns).where('id', '=', id).where('workspace_id', 'in', ownWorkspaces(db, userId))
  return (await selectArrays(db, q))[0] ?? null
}

function findingsQuery(db: Db, userId: number, f: FindingFilter) {
  const filtered = (alias: 'findings' | 'g') => {
    let q = db.selectFrom(`findings as ${alias}` as 'findings')
    // A dedup_key names its target (hence its workspace): inside a group these filters always hold.
    if (alias === 'findings') {
      // With a workspace_id, tenancy is a constant EXISTS, not an IN on the column: the IN would make
      // SQLite read (workspace_id, id) as several ranges and sort them instead of walking newest first.
      if (f.workspaceId === undefined) q = q.where(`${alias}.workspace_id` as 'workspace_id', 'in', ownWorkspaces(db, userId))
      else q = q.where(`${alias}.workspace_id` as 'workspace_id', '=', f.workspaceId).where((eb) => eb.exists(ownWorkspaces(db, userId).where('id', '=', f.workspaceId!)))
      if (f.targetId !== undefined) q = q.where(`${alias}.target_id` as 'target_id', '=', f.targetId)
      // Keyset: the index walk starts at after_id instead of skipping (page - 1) × limit rows. Not in
      // the duplicate probe: a group whose latest finding was on an earlier page stays out.
      if (f.afterId !== undefined) q = q.where(`${alias}.id` as 'id', '<', f.afterId)
      // Life cycle: a property of the duplicate group, the same for each of its findings.
      const group = (eb: ExpressionBuilder<Database, 'findings'>) =>
        eb.selectFrom('finding_groups as fg').select('fg.id').whereRef('fg.workspace_id', '=', 'findings.workspace_id').whereRef('fg.dedup_key', '=', 'findings.dedup_key')
      if (f.lifecycle !== undefined) q = q.where((eb) => (f.lifecycle === 'fixed' ? eb.exists(group(eb).where('fg.state', '=', 'fixed')) : eb.not(eb.exists(group(eb).where('fg.state', '=', 'fixed')))))
      if (f.regression !== undefined) q = q.where((eb) => (f.regression ? eb.exists(group(eb).where('fg.regression', '=', 1)) : eb.not(eb.exists(group(eb).where('fg.regression', '=', 1)))))
    }
    if (f.scanId !== undefined) q = q.where(`${alias}.scan_id` as 'scan_id', '=', f.scanId)
    if (f.riskLevel !== undefined) q = q.where(`${alias}.risk_level` as 'risk_level', '=', f.riskLevel)
    if (f.status !== undefined) q = q.where(`${alias}.status` as 'status', '=', f.status)
    if (f.vulnId !== undefined) q = q.where(`${alias}.vuln_id` as 'vuln_id', '=', f.vulnId)
    return q
  }
  let q = filtered('findings')
  if (f.groupDuplicates) {
    // The latest finding of each duplicate group among the matching ones: no later matching finding
    // with the same dedup_key. Walking (workspace_id|target_id, id) newest first with one probe of
    // (dedup_key, id) per row stops after about `limit` groups, instead of grouping every finding.
    q = q.where((eb) => eb.not(eb.exists(filtered('g').select('g.id' as 'id').whereRef('g.dedup_key' as 'dedup_key', '=', 'findings.dedup_key').whereRef('g.id' as 'id', '>', 'findings.id'))))
  }
  return q.orderBy('findings.id', 'desc').limit(f.limit).offset((f.page - 1) * f.limit)
}

export const getFinding = (db: Db, userId: number, id: number) =>
  db.selectFrom('findings').selectAll().select(groupColumns).where('id', '=', id).where('workspace_id', 'in', ownWorkspaces(db, userId)).executeTakeFirst()
