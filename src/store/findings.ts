// Findings reads. Tenancy: a finding is visible when the caller belongs to its workspace.
import { selectPreparedArrays, type Arg, type Db } from './db.js'
import { memberOf, memberWorkspaces, type Role } from './members.js'
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely'
import type { Database, FindingGroupColumns, FindingRow } from './schema.js'

/**
 * The columns of the Finding resource, in the resource's field order: rows read with
 * `listFindingArrays` / `getFindingArray` are arrays in this order (see api/finding-json.ts).
 */
export const FINDING_RESOURCE_COLUMNS = [
  'id',
  'name',
  'test_description',
  'test_finished',
  'confirmed',
  'in_cisa_catalog',
  'cve',
  'vuln_description',
  'vuln_evidence',
  'risk_description',
  'risk_level',
  'status',
  'recommendation',
  'refs',
  'verified',
  'vuln_id',
  'owasp',
  'cwe',
  'port',
  'protocol',
  'service',
  'url',
  'scan_id',
  'target_id',
  'created_at',
  'cvss_score',
  'cvss_vector',
  'epss_score',
  'epss_date',
] as const satisfies ReadonlyArray<keyof FindingRow>

/**
 * The life cycle of a finding's duplicate group (store/finding-lifecycle.ts) as four more columns,
 * after the others: null for a finding stored before groups were kept.
 */
export function groupColumns(eb: ExpressionBuilder<Database, 'findings'>) {
  const g = () =>
    eb
      .selectFrom('finding_groups as fg')
      .whereRef('fg.workspace_id', '=', 'findings.workspace_id')
      .whereRef('fg.dedup_key', '=', 'findings.dedup_key')
  return [
    g().select('fg.first_seen').as('group_first_seen'),
    g().select('fg.last_seen').as('group_last_seen'),
    g().select('fg.state').as('group_state'),
    g().select('fg.regression').as('group_regression'),
  ]
}

/**
 * groupColumns' four columns by one probe of the group per finding (a left join on its unique key)
 * instead of four subqueries: for the API's hot reads, where they are a quarter of a list's database
 * time. Use with `joinGroup`.
 */
const GROUP_JOIN_COLUMNS = [
  'grp.first_seen as group_first_seen',
  'grp.last_seen as group_last_seen',
  'grp.state as group_state',
  'grp.regression as group_regression',
] as const

const joinGroup = <O>(q: SelectQueryBuilder<Database, 'findings', O>) =>
  q.leftJoin('finding_groups as grp', (j) =>
    j.onRef('grp.workspace_id', '=', 'findings.workspace_id').onRef('grp.dedup_key', '=', 'findings.dedup_key'),
  )

const RESOURCE_COLUMNS = FINDING_RESOURCE_COLUMNS.map((c) => `findings.${c}` as const)

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

const ownWorkspaces = (db: Db, userId: number, roles?: readonly Role[]) => memberWorkspaces(db, userId, roles)

export async function listFindings(db: Db, userId: number, f: FindingFilter): Promise<Array<FindingRow & FindingGroupColumns>> {
  return findingsQuery(db, userId, f).selectAll('findings').select(groupColumns).execute()
}

/** listFindings as arrays of FINDING_RESOURCE_COLUMNS: the API's findings list reads these. */
export function listFindingArrays(db: Db, userId: number, f: FindingFilter): Promise<unknown[][]> {
  // The query is compiled once per shape (which filters are present); the values are its arguments.
  const values = [userId, f.workspaceId, f.targetId, f.scanId, f.riskLevel, f.status, f.vulnId, f.afterId, f.limit, (f.page - 1) * f.limit]
  const shape = `listFindings:${values
    .slice(1, 8)
    .map((v) => (v === undefined ? '-' : '+'))
    .join('')}:${f.groupDuplicates ? 'g' : ''}:${f.lifecycle ?? ''}:${f.regression ?? ''}`
  return selectPreparedArrays(
    db,
    shape,
    (arg) =>
      joinGroup(findingsQuery(db, arg<number>(0), shapeOf(f, arg), arg<number>(8), arg<number>(9)))
        .select(RESOURCE_COLUMNS)
        .select(GROUP_JOIN_COLUMNS),
    values,
  )
}

/** The filter with each value present replaced by its argument placeholder (the order of listFindingArrays' values). */
function shapeOf(f: FindingFilter, arg: Arg): FindingFilter {
  const a = <K extends keyof FindingFilter>(k: K, i: number) => (f[k] === undefined ? undefined : arg<FindingFilter[K]>(i))
  return {
    ...f,
    workspaceId: a('workspaceId', 1),
    targetId: a('targetId', 2),
    scanId: a('scanId', 3),
    riskLevel: a('riskLevel', 4),
    status: a('status', 5),
    vulnId: a('vulnId', 6),
    afterId: a('afterId', 7),
  }
}

export async function getFindingArray(db: Db, userId: number, id: number): Promise<unknown[] | null> {
  const build = (arg: Arg) =>
    joinGroup(db.selectFrom('findings'))
      .select(RESOURCE_COLUMNS)
      .select(GROUP_JOIN_COLUMNS)
      .where('findings.id', '=', arg<number>(0))
      .where(memberOf('findings.workspace_id', arg<number>(1)))
  return (await selectPreparedArrays(db, 'getFindingArray', build, [id, userId], { hot: true }))[0] ?? null
}

function findingsQuery(db: Db, userId: number, f: FindingFilter, limit = f.limit, offset = (f.page - 1) * f.limit) {
  const filtered = (alias: 'findings' | 'g') => {
    let q = db.selectFrom(`findings as ${alias}` as 'findings')
    // A dedup_key names its target (hence its workspace): inside a group these filters always hold.
    if (alias === 'findings') {
      // With a workspace_id, tenancy is a constant EXISTS, not an IN on the column: the IN would make
      // SQLite read (workspace_id, id) as several ranges and sort them instead of walking newest first.
      if (f.workspaceId === undefined) q = q.where(`${alias}.workspace_id` as 'workspace_id', 'in', ownWorkspaces(db, userId))
      else
        q = q
          .where(`${alias}.workspace_id` as 'workspace_id', '=', f.workspaceId)
          .where((eb) => eb.exists(ownWorkspaces(db, userId).where('wm.workspace_id', '=', f.workspaceId!)))
      if (f.targetId !== undefined) q = q.where(`${alias}.target_id` as 'target_id', '=', f.targetId)
      // Keyset: the index walk starts at after_id instead of skipping (page - 1) × limit rows. Not in
      // the duplicate probe: a group whose latest finding was on an earlier page stays out.
      if (f.afterId !== undefined) q = q.where(`${alias}.id` as 'id', '<', f.afterId)
      // Life cycle: a property of the duplicate group, the same for each of its findings.
      const group = (eb: ExpressionBuilder<Database, 'findings'>) =>
        eb
          .selectFrom('finding_groups as fg')
          .select('fg.id')
          .whereRef('fg.workspace_id', '=', 'findings.workspace_id')
          .whereRef('fg.dedup_key', '=', 'findings.dedup_key')
      if (f.lifecycle !== undefined)
        q = q.where((eb) =>
          f.lifecycle === 'fixed'
            ? eb.exists(group(eb).where('fg.state', '=', 'fixed'))
            : eb.not(eb.exists(group(eb).where('fg.state', '=', 'fixed'))),
        )
      if (f.regression !== undefined)
        q = q.where((eb) =>
          f.regression ? eb.exists(group(eb).where('fg.regression', '=', 1)) : eb.not(eb.exists(group(eb).where('fg.regression', '=', 1))),
        )
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
    q = q.where((eb) =>
      eb.not(
        eb.exists(
          filtered('g')
            .select('g.id' as 'id')
            .whereRef('g.dedup_key' as 'dedup_key', '=', 'findings.dedup_key')
            .whereRef('g.id' as 'id', '>', 'findings.id'),
        ),
      ),
    )
  }
  return q.orderBy('findings.id', 'desc').limit(limit).offset(offset)
}

/** A finding of a workspace the user belongs to (with one of `roles` when given). */
export const getFinding = (db: Db, userId: number, id: number, roles?: readonly Role[]) =>
  db
    .selectFrom('findings')
    .selectAll()
    .select(groupColumns)
    .where('id', '=', id)
    .where(memberOf('findings.workspace_id', userId, roles))
    .executeTakeFirst()
