// Schedules repository: CRUD with tenancy in every query, and the claim that fires a due schedule
// exactly once. The claim is one transaction: pick a due schedule (PostgreSQL: FOR UPDATE SKIP
// LOCKED), move its next_run_at on with a conditional UPDATE, queue its scans and record the run
// under a unique (schedule, slot). A worker that dies inside it leaves nothing behind: the
// transaction rolls back and the schedule is still due for the next worker.
import { randomUUID } from 'node:crypto'
import type { Selectable, Transaction } from 'kysely'
import { inTransaction, type Db } from './db.js'
import type { Database, ScheduleRow, ScheduleRunRow, ScanRow } from './schema.js'
import { nowIso } from './time.js'
import { nextSlot } from './schedule-timing.js'
import { queueScan } from './scans.js'
import { sealCallbackSecret, secretsOf } from './secrets.js'
import { memberWorkspaces, writableWorkspaces, WRITER_ROLES, type Role } from './members.js'
import { appendAudit, SYSTEM_ACTOR } from './audit.js'
import { enqueueScheduleMissed } from './integration-outbox.js'
import { newestPage } from './paging.js'
import { deleteOwned, getOwned, insertOwned, updateOwned } from './workspace-rows.js'

type Tx = Transaction<Database>
export type NewSchedule = Omit<ScheduleRow, 'id' | 'last_run_at' | 'created_at' | 'updated_at' | 'paused_reason'>
export type ScheduleChanges = Partial<Omit<ScheduleRow, 'id' | 'workspace_id' | 'user_id' | 'created_at'>>

// The callback's secret is stored sealed, like a scan's; queueScan keeps it sealed when a run copies it.
const sealedCallback = (db: Db, json: string | null): string | null => (json === null ? null : sealCallbackSecret(secretsOf(db), json))

export const insertSchedule = (db: Db, s: NewSchedule): Promise<number> =>
  insertOwned(db, 'schedules', { ...s, report_callback: sealedCallback(db, s.report_callback), last_run_at: null })

/** A schedule of a workspace the user belongs to (with one of `roles` when given). */
export const getSchedule = (db: Db, userId: number, id: number, roles?: readonly Role[]) => getOwned(db, 'schedules', userId, id, roles)

export const listSchedules = (db: Db, userId: number, f: { workspaceId?: number; limit: number; page: number }) => {
  let q = db.selectFrom('schedules').selectAll().where('workspace_id', 'in', memberWorkspaces(db, userId))
  if (f.workspaceId !== undefined) q = q.where('workspace_id', '=', f.workspaceId)
  return newestPage(q, f)
}

export function updateSchedule(db: Db, userId: number, id: number, set: ScheduleChanges): Promise<boolean> {
  const sealed = set.report_callback === undefined ? {} : { report_callback: sealedCallback(db, set.report_callback) }
  return updateOwned(db, 'schedules', userId, id, { ...set, ...sealed })
}

export const deleteSchedule = (db: Db, userId: number, id: number): Promise<boolean> => deleteOwned(db, 'schedules', userId, id)

/** The last scans and runs of these schedules (one query each), newest first, `n` per schedule. */
export async function scheduleHistory(db: Db, ids: number[], n = 5): Promise<Map<number, { scans: ScanRow[]; runs: ScheduleRunRow[] }>> {
  const out = new Map(ids.map((id) => [id, { scans: [] as ScanRow[], runs: [] as ScheduleRunRow[] }]))
  if (!ids.length) return out
  // The n newest per schedule: a window numbers each schedule's rows, newest first.
  const newest = <T extends 'scans' | 'schedule_runs'>(table: T) =>
    db
      .selectFrom((eb) =>
        eb
          .selectFrom(table as 'schedule_runs')
          .selectAll()
          .select((e) =>
            e.fn
              .agg<number>('row_number')
              .over((ob) => ob.partitionBy('schedule_id').orderBy('id', 'desc'))
              .as('rn'),
          )
          .where('schedule_id', 'in', ids)
          .as('t'),
      )
      .selectAll()
      .where('rn', '<=', n)
      .orderBy('id', 'desc')
      .execute() as Promise<Array<Selectable<Database[T]> & { rn: number }>>
  const scans = await newest('scans')
  for (const { rn: _, ...s } of scans) out.get(s.schedule_id!)?.scans.push(s)
  const runs = await newest('schedule_runs')
  for (const { rn: _, ...r } of runs) out.get(r.schedule_id)?.runs.push(r)
  return out
}

export interface FiredRun {
  scheduleId: number
  slotAt: string
  outcome: 'queued' | 'skipped'
  scanIds: number[]
  message: string | null
}

/**
 * Queues one scan per target of the schedule, except for targets whose previous scan from this
 * schedule still waits or runs (skipped, and said so in the run's message). Inside the caller's transaction.
 */
async function fire(trx: Tx, s: ScheduleRow, slotAt: string, firedAt: string, workerId: string | null): Promise<FiredRun> {
  let targets: number[]
  if (s.target_id !== null) targets = [s.target_id]
  else
    targets = (
      await trx
        .selectFrom('targets')
        .select('id')
        .where('workspace_id', '=', s.workspace_id)
        .where('type', '=', s.target_type!)
        .orderBy('id')
        .execute()
    ).map((t) => t.id)
  const busy = new Set(
    targets.length
      ? (
          await trx
            .selectFrom('scans')
            .select('target_id')
            .where('schedule_id', '=', s.id)
            .where('status', 'in', ['waiting', 'running'])
            .execute()
        ).map((r) => r.target_id)
      : [],
  )
  const scanIds: number[] = []
  const skipped: number[] = []
  for (const targetId of targets) {
    if (busy.has(targetId)) {
      skipped.push(targetId)
      continue
    }
    scanIds.push(
      await queueScan(trx, {
        workspaceId: s.workspace_id,
        targetId,
        userId: s.user_id,
        toolId: s.tool_id,
        vpnProfileUuid: s.vpn_profile_uuid,
        maxScanTime: s.max_scan_time,
        scanOriginalUrl: false,
        redirectLevel: 'same_domain',
        reportCallback: s.report_callback ? JSON.parse(s.report_callback) : null,
        toolParams: JSON.parse(s.tool_params),
        scheduleId: s.id,
      }),
    )
  }
  const message = !targets.length
    ? 'no target matched the schedule'
    : skipped.length
      ? `skipped: the previous scan of target${skipped.length > 1 ? 's' : ''} ${skipped.join(', ')} is still waiting or running`
      : null
  const run: FiredRun = { scheduleId: s.id, slotAt, outcome: scanIds.length ? 'queued' : 'skipped', scanIds, message }
  await trx
    .insertInto('schedule_runs')
    .values({
      schedule_id: s.id,
      slot_at: slotAt,
      fired_at: firedAt,
      outcome: run.outcome,
      scan_ids: JSON.stringify(scanIds),
      message,
      worker_id: workerId,
    })
    .execute()
  if (run.outcome === 'skipped') await enqueueScheduleMissed(trx, s, slotAt, message)
  return run
}

export interface ClaimOptions {
  /** Called inside the claim's transaction once the schedule is held (tests hold it there). */
  held?: (scheduleId: number) => Promise<void>
}

/**
 * Fires the most overdue schedule that is due at `now`, if any: its slot is its stored next_run_at,
 * its next slot the first after `now` (so slots missed while Ward was down fire once).
 */
export async function claimDueSchedule(
  db: Db,
  kind: 'sqlite' | 'postgres',
  workerId: string,
  now: Date,
  o: ClaimOptions = {},
): Promise<FiredRun | null> {
  const at = now.toISOString()
  return inTransaction(db, async (trx) => {
    let pick = trx
      .selectFrom('schedules')
      .selectAll()
      .where('paused', '=', 0)
      .where('next_run_at', '<=', at)
      .orderBy('next_run_at')
      .orderBy('id')
      .limit(1)
    if (kind === 'postgres') pick = pick.forUpdate().skipLocked()
    const s = await pick.executeTakeFirst()
    if (!s) return null
    const next = nextSlot(s, now, new Date(s.next_run_at)).toISOString()
    const moved = await trx
      .updateTable('schedules')
      .set({ next_run_at: next, last_run_at: at })
      .where('id', '=', s.id)
      .where('next_run_at', '=', s.next_run_at)
      .where('paused', '=', 0)
      .executeTakeFirst()
    if (Number(moved.numUpdatedRows) !== 1) return null
    await o.held?.(s.id)
    if (!(await creatorMayStart(trx, s))) return pauseOrphan(trx, s, at, workerId)
    // Slots after this one that are already past were missed (no worker ran): they fire once, as this one.
    const following = nextSlot(s, new Date(s.next_run_at), new Date(s.next_run_at)).toISOString()
    if (following <= at)
      await enqueueScheduleMissed(
        trx,
        s,
        following,
        `no worker ran from ${s.next_run_at} to ${at}: the slots in between fired once, as the slot of ${s.next_run_at}`,
      )
    return fire(trx, s, s.next_run_at, at, workerId)
  })
}

/** The schedule's creator is still an enabled owner or member of its workspace (scans start as them). */
const creatorMayStart = async (trx: Tx, s: ScheduleRow) =>
  !!(await trx
    .selectFrom('workspace_members as wm')
    .innerJoin('users', 'users.id', 'wm.user_id')
    .select('wm.user_id')
    .where('wm.workspace_id', '=', s.workspace_id)
    .where('wm.user_id', '=', s.user_id)
    .where('wm.role', 'in', [...WRITER_ROLES])
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst())

export const ORPHAN_REASON = 'its creator can no longer start scans in this workspace (left, became a viewer or was disabled)'

/**
 * A due schedule whose creator lost the right to start scans here starts nothing: Ward pauses it with
 * the reason shown beside it, records the skipped run and an audit entry by `system`. A member who
 * resumes it takes it over (its scans then start as them).
 */
async function pauseOrphan(trx: Tx, s: ScheduleRow, at: string, workerId: string): Promise<FiredRun> {
  const message = `paused: ${ORPHAN_REASON}`
  await trx.updateTable('schedules').set({ paused: 1, paused_reason: ORPHAN_REASON, updated_at: at }).where('id', '=', s.id).execute()
  await trx
    .insertInto('schedule_runs')
    .values({ schedule_id: s.id, slot_at: s.next_run_at, fired_at: at, outcome: 'skipped', scan_ids: '[]', message, worker_id: workerId })
    .execute()
  await appendAudit(trx, {
    ...SYSTEM_ACTOR,
    workspaceId: s.workspace_id,
    action: 'schedule.paused',
    objectType: 'schedule',
    objectId: s.id,
    details: { reason: ORPHAN_REASON, creator_user_id: s.user_id },
  })
  await enqueueScheduleMissed(trx, s, s.next_run_at, message)
  return { scheduleId: s.id, slotAt: s.next_run_at, outcome: 'skipped', scanIds: [], message }
}

/** Resumes a schedule Ward paused for its creator: the resuming member takes it over. */
export async function takeOverSchedule(db: Db, userId: number, id: number, nextRunAt: string): Promise<boolean> {
  const r = await db
    .updateTable('schedules')
    .set({ paused: 0, paused_reason: null, user_id: userId, next_run_at: nextRunAt, updated_at: nowIso() })
    .where('id', '=', id)
    .where('paused_reason', 'is not', null)
    .where('workspace_id', 'in', writableWorkspaces(db, userId))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** "Run now": fires the schedule at once, outside its rhythm (next_run_at is left as it is). */
export async function runScheduleNow(db: Db, userId: number, id: number): Promise<FiredRun | null> {
  return inTransaction(db, async (trx) => {
    const s = await trx
      .selectFrom('schedules')
      .selectAll()
      .where('id', '=', id)
      .where('workspace_id', 'in', writableWorkspaces(trx, userId))
      .executeTakeFirst()
    if (!s) return null
    const at = nowIso()
    await trx.updateTable('schedules').set({ last_run_at: at }).where('id', '=', id).execute()
    // Started by the person who pressed it, whoever created the schedule.
    return fire(trx, { ...s, user_id: userId }, `manual:${at}:${randomUUID().slice(0, 8)}`, at, null)
  })
}
