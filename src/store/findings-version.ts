// The change counter of a findings list's workspace (migration 028: bumped by triggers in the
// transaction of every write to findings or finding_groups), for caches of list answers.
import { selectPreparedArrays, type Arg, type Db } from './db.js'
import { memberOf } from './members.js'
import type { FindingFilter } from './findings.js'

export interface FindingsVersion {
  workspaceId: number
  /** Compared for equality only (PostgreSQL returns the bigint as text). */
  version: string
}

/**
 * The workspace whose findings alone make up the list of `f`, and its counter, when the user belongs to
 * it; null when the list has no single workspace (no workspace_id or target_id) or the user is not a
 * member. With only a target_id, that is the target's workspace: a finding's workspace is its scan's,
 * which is its target's, and a target never changes workspace.
 *
 * Read it BEFORE the list it validates: a write committed in between then shows as a newer counter on
 * the next read, so a list is never kept under a counter newer than its rows.
 */
export async function findingsVersion(db: Db, userId: number, f: FindingFilter): Promise<FindingsVersion | null> {
  if (f.workspaceId === undefined && f.targetId === undefined) return null
  const byWorkspace = f.workspaceId !== undefined
  const build = (arg: Arg) =>
    db
      .selectFrom('workspaces as w')
      .select(['w.id', 'w.findings_version'])
      .where(
        'w.id',
        '=',
        byWorkspace
          ? arg<number>(0)
          : (eb) => eb.selectFrom('targets').select('targets.workspace_id').where('targets.id', '=', arg<number>(0)),
      )
      .where(memberOf('w.id', arg<number>(1)))
  const rows = await selectPreparedArrays(db, byWorkspace ? 'findingsVersion:w' : 'findingsVersion:t', build, [
    byWorkspace ? f.workspaceId : f.targetId,
    userId,
  ])
  const r = rows[0]
  return r ? { workspaceId: Number(r[0]), version: String(r[1]) } : null
}
