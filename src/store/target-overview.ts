// What Ward knows of one target, for its page: the services seen on it, its open findings by
// severity and per day, its scans and schedules. The caller has checked the target is the user's
// (getTarget); every query is bounded.
import { sql } from 'kysely'
import type { Db } from './db.js'
import type { ScanRow, ScheduleRow } from './schema.js'
import { openByRisk, perDayByRisk } from './web-lists.js'

export interface SeenService {
  port: number
  protocol: string | null
  service: string | null
  last_seen: string
  open_findings: number
}

/** Ports and services found on the target (any finding with a port), newest sighting per port. */
export async function targetServices(db: Db, targetId: number, limit = 500): Promise<SeenService[]> {
  const rows = await db
    .selectFrom('findings')
    .select([
      'port',
      'protocol',
      'service',
      (e) => e.fn.max('created_at').as('last_seen'),
      sql<number>`sum(case when status = 'open' then 1 else 0 end)`.as('open_findings'),
    ])
    .where('target_id', '=', targetId)
    .where('port', 'is not', null)
    .groupBy(['port', 'protocol', 'service'])
    .orderBy('port')
    .limit(limit)
    .execute()
  return rows.map((r) => ({
    port: r.port!,
    protocol: r.protocol,
    service: r.service,
    last_seen: String(r.last_seen),
    open_findings: Number(r.open_findings),
  }))
}

/** Open findings of the target per risk level (0..4), each duplicate group once. */
export const targetOpenByRisk = (db: Db, targetId: number): Promise<number[]> => openByRisk(db, (eb) => eb('target_id', '=', targetId))

/** Findings recorded per day and risk level on the target since `sinceIso` (its trend chart). */
export const targetFindingsPerDay = (db: Db, targetId: number, sinceIso: string) =>
  perDayByRisk(db, (eb) => eb('target_id', '=', targetId), sinceIso)

/** Web addresses found on the target (distinct), newest first. */
export async function targetUrls(db: Db, targetId: number, limit = 50): Promise<string[]> {
  const rows = await db
    .selectFrom('findings')
    .select(['url', (e) => e.fn.max('id').as('last')])
    .where('target_id', '=', targetId)
    .where('url', 'is not', null)
    .groupBy('url')
    .orderBy('last', 'desc')
    .limit(limit)
    .execute()
  return rows.map((r) => r.url!)
}

/** The target's scans, newest first. */
export const targetScans = (db: Db, userId: number, targetId: number, limit = 200): Promise<ScanRow[]> =>
  db
    .selectFrom('scans')
    .selectAll()
    .where('user_id', '=', userId)
    .where('target_id', '=', targetId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()

/** The schedules that scan the target. */
export const targetSchedules = (db: Db, userId: number, targetId: number): Promise<ScheduleRow[]> =>
  db.selectFrom('schedules').selectAll().where('user_id', '=', userId).where('target_id', '=', targetId).orderBy('id').limit(100).execute()

export interface LatestOutput {
  scan_id: number
  tool_id: number
  end_time: string | null
  output_data: string
}

/** The output of the newest finished scan of each of `toolIds` on the target (what it knew then). */
export async function targetLatestOutputs(db: Db, userId: number, targetId: number, toolIds: readonly number[]): Promise<LatestOutput[]> {
  const rows = await Promise.all(
    toolIds.map((toolId) =>
      db
        .selectFrom('scans')
        .select(['id', 'tool_id', 'end_time', 'output_data'])
        .where('target_id', '=', targetId)
        .where('tool_id', '=', toolId)
        .where('user_id', '=', userId)
        .where('status', '=', 'finished')
        .where('output_data', 'is not', null)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    ),
  )
  return rows.flatMap((r) => (r ? [{ scan_id: r.id, tool_id: r.tool_id, end_time: r.end_time, output_data: r.output_data! }] : []))
}
