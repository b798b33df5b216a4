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

/**
 * The candidates of a claim: the oldest waiting scan of each workspace (a workspace belongs to one
 * user, so the fair order's first scan is always among them), so the running counts of the order are
 * read for a few rows however long the queue.
 */
export const workspaceHeads = sql<SqlBool>`s.id in (select min(h.id) from scans h where h.status = 'waiting' and h.stop_requested = 0 group by h.workspace_id)`

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
 * The places of every waiting scan in the fair order. Counts every user's waiting scans; callers
 * show only the places of scans they have already checked the caller may see.
 */
export async function queuePlaces(db: Db, userMaxRunning: number): Promise<Map<number, QueuePlace>> {
  const out = new Map<number, QueuePlace>()
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
    select w.id, w.user_running, p.place from w left join p on p.id = w.id`.execute(db)
  for (const r of rows.rows)
    out.set(Number(r.id), { userRunning: Number(r.user_running), place: r.place === null ? null : Number(r.place) })
  return out
}

/**
 * Reads the places of waiting scans, sharing one reading of the whole queue between requests for a
 * while that grows with what the reading cost (10x its duration: a few ms for hundreds of waiting
 * scans, a second or two for tens of thousands), so a long queue is not re-ranked per request.
 */
export function queueReader(db: Db, userMaxRunning: number): (ids: readonly number[]) => Promise<Map<number, QueuePlace>> {
  let last: { until: number; places: Promise<Map<number, QueuePlace>> } | null = null
  return async (ids) => {
    if (!ids.length) return new Map()
    const read = await readAll(false)
    // A scan queued after the reading: read again rather than show it without its place.
    const all = ids.every((id) => read.has(id)) ? read : await readAll(true)
    return new Map(ids.flatMap((id) => (all.has(id) ? [[id, all.get(id)!] as const] : [])))
  }
  function readAll(fresh: boolean): Promise<Map<number, QueuePlace>> {
    if (fresh || !last || Date.now() > last.until) {
      const started = Date.now()
      const places = queuePlaces(db, userMaxRunning)
      last = { until: Infinity, places }
      const mine = last
      places.then(
        () => (mine.until = Date.now() + 10 * (Date.now() - started)),
        () => (mine.until = 0),
      )
    }
    return last.places
  }
}
