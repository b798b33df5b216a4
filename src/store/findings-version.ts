// The change count of a findings list's workspace (migration 031: counted by triggers in the
// transaction of every write to findings or finding_groups), for caches of list answers.
import { sql } from 'kysely'
import { inTransaction, selectPreparedArrays, type Arg, type Db } from './db.js'
import { memberOf } from './members.js'
import type { FindingFilter } from './findings.js'

export interface FindingsVersion {
  workspaceId: number
  /** Compared for equality only (PostgreSQL returns the sum as text). */
  version: string
}

/** Rows of `findings_changes` a workspace may gather before they are folded into one (PostgreSQL appends one per write). */
const COMPACT_AT = 64

/**
 * The workspace whose findings alone make up the list of `f`, and its change count, when the user
 * belongs to it; null when the list has no single workspace (no workspace_id or target_id) or the
 * user is not a member. With only a target_id, that is the target's workspace: a finding's workspace
 * is its scan's, which is its target's, and a target never changes workspace.
 *
 * Read it BEFORE the list it validates: a write committed in between then shows as a larger count on
 * the next read, so a list is never kept under a count newer than its rows.
 */
export async function findingsVersion(db: Db, userId: number, f: FindingFilter): Promise<FindingsVersion | null> {
  if (f.workspaceId === undefined && f.targetId === undefined) return null
  const byWorkspace = f.workspaceId !== undefined
  const build = (arg: Arg) =>
    db
      .selectFrom('workspaces as w')
      .select((eb) => [
        'w.id',
        eb
          .selectFrom('findings_changes as c')
          .whereRef('c.workspace_id', '=', 'w.id')
          .select(sql<string>`coalesce(sum(c.weight), 0)`.as('s'))
          .as('version'),
      ])
      .where(
        'w.id',
        '=',
        byWorkspace
          ? arg<number>(0)
          : (eb) => eb.selectFrom('targets').select('targets.workspace_id').where('targets.id', '=', arg<number>(0)),
      )
      .where(memberOf('w.id', arg<number>(1)))
  const rows = await selectPreparedArrays(
    db,
    byWorkspace ? 'findingsVersion:w' : 'findingsVersion:t',
    build,
    [byWorkspace ? f.workspaceId : f.targetId, userId],
    { hot: true },
  )
  const r = rows[0]
  if (!r) return null
  return { workspaceId: Number(r[0]), version: String(r[1]) }
}

/**
 * Folds the rows of every workspace that has gathered more than COMPACT_AT (PostgreSQL: the worker's
 * scheduler calls it each tick, so a read stays one query); the number of workspaces folded.
 */
export async function foldFindingsChanges(db: Db): Promise<number> {
  const piled = await db
    .selectFrom('findings_changes')
    .select('workspace_id')
    .groupBy('workspace_id')
    .having(sql<number>`count(*)`, '>', COMPACT_AT)
    .execute()
  let folded = 0
  for (const { workspace_id } of piled) if (await compactFindingsChanges(db, Number(workspace_id))) folded++
  return folded
}

/**
 * Replaces a workspace's rows of `findings_changes` with one row of their sum, in one statement: a
 * reader sees the same sum before and after, and writers appending meanwhile are not waited for (their
 * rows are not yet visible to the DELETE, so they stay). One folder at a time per workspace across
 * processes (advisory lock; another holds it: skip). PostgreSQL only: SQLite's triggers keep one row.
 */
export async function compactFindingsChanges(db: Db, workspaceId: number): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const lock = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(${LOCK_SPACE}, ${workspaceId}::int) AS ok`.execute(trx)
    if (!lock.rows[0]?.ok) return false
    await sql`WITH gone AS (DELETE FROM findings_changes WHERE workspace_id = ${workspaceId} RETURNING weight)
      INSERT INTO findings_changes (workspace_id, weight) SELECT ${workspaceId}, sum(weight) FROM gone HAVING count(*) > 0`.execute(trx)
    return true
  })
}

/** The first key of the advisory lock pair: Ward's fold of findings changes. */
const LOCK_SPACE = 0x5741_5244 // "WARD"
