// Reads only the web interface needs (search, counts for the dashboard). Every one takes the user id:
// tenancy lives in the query, as in the API's repositories.
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely'
import type { Db } from './db.js'
import type { Database, ScanRow, TargetRow } from './schema.js'
import { memberWorkspaces } from './members.js'
import { newestPage } from './paging.js'

const isMember = (db: Db, userId: number, workspaceId: number) => memberWorkspaces(db, userId).where('wm.workspace_id', '=', workspaceId)

/** Targets of a workspace, optionally of one type and whose name contains `search` (case-insensitive). */
export async function searchTargets(
  db: Db,
  userId: number,
  f: { workspaceId: number; type?: string; search?: string; limit: number; page: number },
): Promise<TargetRow[]> {
  let q = db
    .selectFrom('targets')
    .selectAll()
    .where('workspace_id', '=', f.workspaceId)
    .where((eb) => eb.exists(isMember(db, userId, f.workspaceId)))
  if (f.type) q = q.where('type', '=', f.type)
  // "%", "_" and the escape character in a search are plain characters.
  if (f.search)
    q = q.where(sql<boolean>`lower(name) like ${'%' + f.search.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c) + '%'} escape '\\'`)
  return newestPage(q, f)
}

/** Which findings a chart counts: those of one target, or of a workspace the user belongs to. */
export type FindingScope = (eb: ExpressionBuilder<Database, 'findings'>) => Expression<SqlBool>

const inWorkspace =
  (db: Db, userId: number, workspaceId: number): FindingScope =>
  (eb) =>
    eb.and([eb('workspace_id', '=', workspaceId), eb.exists(isMember(db, userId, workspaceId))])

/** Open findings per risk level (0..4) among those `where` keeps, counting each duplicate group once. */
export async function openByRisk(db: Db, where: FindingScope): Promise<number[]> {
  // The distinct (risk, group) pairs first, then a count per risk: the same numbers as
  // count(DISTINCT dedup_key) per risk (dedup_key is never null), but PostgreSQL hashes the pairs
  // where its count(DISTINCT) sorts every open finding (50 → 30 ms with 69k of them). A workspace's
  // are read from the index findings_open (migration 029).
  const pairs = db.selectFrom('findings').select(['risk_level', 'dedup_key']).distinct().where(where).where('status', '=', 'open')
  const rows = await db
    .selectFrom(pairs.as('g'))
    .select(['g.risk_level', (e) => e.fn.countAll<number>().as('n')])
    .groupBy('g.risk_level')
    .execute()
  const out = [0, 0, 0, 0, 0]
  for (const r of rows) if (r.risk_level >= 0 && r.risk_level <= 4) out[r.risk_level] = Number(r.n)
  return out
}

/** Open findings of a workspace per risk level (0..4), counting each duplicate group once. */
export const openFindingsByRisk = (db: Db, userId: number, workspaceId: number): Promise<number[]> =>
  openByRisk(db, inWorkspace(db, userId, workspaceId))

/** Findings recorded per day and risk level since `sinceIso`, among those `where` keeps (the charts). */
export async function perDayByRisk(
  db: Db,
  where: FindingScope,
  sinceIso: string,
): Promise<Array<{ day: string; risk_level: number; n: number }>> {
  const day = sql<string>`substr(created_at, 1, 10)`
  const rows = await db
    .selectFrom('findings')
    .select([day.as('day'), 'risk_level', (e) => e.fn.countAll<number>().as('n')])
    .where(where)
    .where('created_at', '>=', sinceIso)
    .groupBy([day, 'risk_level'])
    .execute()
  return rows.map((r) => ({ day: r.day, risk_level: r.risk_level, n: Number(r.n) }))
}

/** Findings recorded per day and risk level since `sinceIso` (for the dashboard chart). */
export const findingsPerDay = (db: Db, userId: number, workspaceId: number, sinceIso: string) =>
  perDayByRisk(db, inWorkspace(db, userId, workspaceId), sinceIso)

/** Scans of a workspace in some states, newest first. */
export const scansInStates = (db: Db, userId: number, workspaceId: number, states: readonly string[], limit: number): Promise<ScanRow[]> =>
  db
    .selectFrom('scans')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.exists(isMember(db, userId, workspaceId)))
    .where('status', 'in', [...states])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()

/** Target names by id, for lists that show scans or findings (targets of the user's workspaces only). */
export async function targetNames(db: Db, userId: number, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map()
  const rows = await db
    .selectFrom('targets')
    .select(['id', 'name'])
    .where('workspace_id', 'in', memberWorkspaces(db, userId))
    .where('id', 'in', [...new Set(ids)])
    .execute()
  return new Map(rows.map((r) => [r.id, r.name]))
}
