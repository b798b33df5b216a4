// The fair order of the queue. Waiting scans are claimed round-robin between users, and between the
// workspaces of a user: the next scan is the oldest one of the user with the fewest running scans
// (then of that user's workspace with the fewest running scans). The per-user limit holds, and each
// worker keeps its last few free slots for users with few running scans, so a light user's scan
// starts at once while heavy users' scans wait behind each other.
//
// The same order gives a waiting scan its place in the queue: every claim takes the first place.
import { sql, type Expression, type SqlBool } from 'kysely'
import type { Db } from './db.js'

/** Running scans of the scan's user (`s` is the waiting scan's alias). */
export const userRunning = sql<number>`(select count(*) from scans r where r.user_id = s.user_id and r.status = 'running')`
/** Running scans in the scan's workspace. */
export const workspaceRunning = sql<number>`(select count(*) from scans r where r.workspace_id = s.workspace_id and r.status = 'running')`

/** What a claiming worker brings: its free slots and how many of them it keeps for light users. */
export interface ClaimSlots {
  free: number
  reserved: number
}

/**
 * Which waiting scans (alias `s`) this worker may claim: users below the per-user limit, and when
 * only reserved slots are free, users whose running scans are fewer than the free slots — a user's
 * n-th running scan may not take one of the last n free slots.
 */
export function claimable(userMaxRunning: number, slots?: ClaimSlots): Expression<SqlBool> {
  const cap = slots && slots.free <= slots.reserved ? Math.min(userMaxRunning, slots.free) : userMaxRunning
  return sql<SqlBool>`${userRunning} < ${cap}`
}

/** Where a waiting scan stands: its user's running scans, and its place (1 = next) unless its user is at the limit. */
export interface QueuePlace {
  userRunning: number
  place: number | null
}

/**
 * The places of the given waiting scans in the fair order (scans not waiting are left out). Counts
 * every user's waiting scans but returns only the asked ids: the caller has already checked them.
 */
export async function queuePlaces(db: Db, ids: readonly number[], userMaxRunning: number): Promise<Map<number, QueuePlace>> {
  const out = new Map<number, QueuePlace>()
  if (!ids.length) return out
  // The round of a scan is the number of its user's (workspace's) scans that will be running before
  // it starts: running now plus those of its own queued ahead of it. Claims take the lowest round;
  // a claim does not change the rounds of the others, so the order below is the order of claims.
  const rows = await sql<{ id: number; user_running: number; place: number | null }>`
    with ur as (select user_id, count(*) as n from scans where status = 'running' group by user_id),
    wr as (select workspace_id, count(*) as n from scans where status = 'running' group by workspace_id),
    w as (
      select s.id, s.user_id, coalesce(ur.n, 0) as user_running,
        coalesce(wr.n, 0) + row_number() over (partition by s.workspace_id order by s.id) - 1 as ws_round
      from scans s left join ur on ur.user_id = s.user_id left join wr on wr.workspace_id = s.workspace_id
      where s.status = 'waiting' and s.stop_requested = 0
    ),
    e as (
      select id, ws_round, user_running + row_number() over (partition by user_id order by ws_round, id) - 1 as user_round
      from w where user_running < ${userMaxRunning}
    ),
    p as (select id, row_number() over (order by user_round, ws_round, id) as place from e)
    select w.id, w.user_running, p.place from w left join p on p.id = w.id
    where w.id in (${sql.join(ids.map((id) => sql`${id}`))})`.execute(db)
  for (const r of rows.rows) out.set(Number(r.id), { userRunning: Number(r.user_running), place: r.place === null ? null : Number(r.place) })
  return out
}
