// Rules of /schedules: what a schedule scans (one target, or every target of a type in a
// workspace), with the rules of POST /scans, and when (a cron expression in an IANA time zone, or
// a fixed interval). A bad cron expression or time zone is a 400 naming it.
import type { Db } from '../store/db.js'
import type { Caller } from '../store/accounts.js'
import type { ScheduleRow } from '../store/schema.js'
import { getSchedule, insertSchedule, takeOverSchedule, updateSchedule, type ScheduleChanges } from '../store/schedules.js'
import { cronProblem, nextSlot, timezoneProblem, type Timing } from '../store/schedule-timing.js'
import { badRequest, notFound } from './errors.js'
import { refusal } from './access.js'
import { WRITER_ROLES } from '../store/members.js'
import { resolveScan, withEarlierScan, withSavedSettings, type CreateScanInput, type ScanRules } from './scans.js'
import type { TargetType } from './target-type.js'

export interface ScheduleTimingInput {
  cron?: string | null
  timezone?: string
  interval_minutes?: number | null
}

export interface CreateScheduleInput extends Omit<CreateScanInput, 'scan_original_url' | 'redirect_level'>, ScheduleTimingInput {
  name?: string
  target_type?: TargetType | null
  paused?: boolean
}

export interface UpdateScheduleInput extends ScheduleTimingInput {
  name?: string
  tool_params?: Record<string, unknown> | null
  max_scan_time?: number
  report_callback?: CreateScanInput['report_callback']
  vpn_profile_uuid?: string | null
}

/** The timing after applying `input` to `base`, checked; throws a 400 naming what is wrong. */
export function checkTiming(input: ScheduleTimingInput, base?: Timing): Timing {
  const givesCron = input.cron !== undefined && input.cron !== null
  const givesInterval = input.interval_minutes !== undefined && input.interval_minutes !== null
  if (givesCron && givesInterval) throw badRequest('Invalid parameters: give either cron or interval_minutes, not both')
  const t: Timing = givesCron
    ? { cron: input.cron!, interval_minutes: null, timezone: input.timezone ?? base?.timezone ?? 'UTC' }
    : givesInterval
      ? { cron: null, interval_minutes: input.interval_minutes!, timezone: input.timezone ?? base?.timezone ?? 'UTC' }
      : base
        ? { ...base, timezone: input.timezone ?? base.timezone }
        : (() => {
            throw badRequest('Invalid parameters: give cron (with an optional timezone) or interval_minutes')
          })()
  const tz = timezoneProblem(t.timezone)
  if (tz) throw badRequest(`Invalid parameters: ${tz}`, { timezone: t.timezone })
  if (t.cron !== null) {
    const problem = cronProblem(t.cron, t.timezone)
    if (problem) throw badRequest(`Invalid parameters: ${problem}`, { cron: t.cron })
  }
  return t
}

export async function createSchedule(
  db: Db,
  caller: Caller,
  rules: ScanRules,
  input: CreateScheduleInput,
  now = new Date(),
): Promise<number> {
  const body = await withEarlierScan(db, caller, await withSavedSettings(db, caller, input))
  const byType = body.target_type !== undefined && body.target_type !== null
  const hasTarget = body.target_id !== undefined || (body.target_name !== undefined && body.target_name !== null)
  if (byType === hasTarget) throw badRequest('Invalid parameters: give exactly one of target_id, target_name and target_type')
  const timing = checkTiming(body)
  const r = await resolveScan(db, caller, rules, body, byType ? 'none' : 'one')
  return insertSchedule(db, {
    workspace_id: r.workspaceId,
    user_id: caller.userId,
    name: body.name ?? '',
    target_id: r.targetId,
    target_type: byType ? body.target_type! : null,
    tool_id: r.toolId,
    tool_params: JSON.stringify(r.toolParams),
    max_scan_time: body.max_scan_time ?? 1440,
    vpn_profile_uuid: r.vpnProfileUuid,
    report_callback: r.reportCallback ? JSON.stringify(r.reportCallback) : null,
    cron: timing.cron,
    timezone: timing.timezone,
    interval_minutes: timing.interval_minutes,
    paused: body.paused ? 1 : 0,
    next_run_at: nextSlot(timing, now).toISOString(),
  })
}

/** Applies a partial update; a new timing moves next_run_at to its first slot after now. */
export async function changeSchedule(
  db: Db,
  caller: Caller,
  rules: ScanRules,
  id: number,
  body: UpdateScheduleInput,
  now = new Date(),
): Promise<ScheduleRow> {
  const s = await getSchedule(db, caller.userId, id, WRITER_ROLES)
  if (!s) throw await refusal(getSchedule(db, caller.userId, id), 'Schedule')
  const set: ScheduleChanges = {}
  if (body.cron !== undefined || body.interval_minutes !== undefined || body.timezone !== undefined) {
    const t = checkTiming(body, s)
    Object.assign(set, {
      cron: t.cron,
      interval_minutes: t.interval_minutes,
      timezone: t.timezone,
      next_run_at: nextSlot(t, now).toISOString(),
    })
  }
  if (body.name !== undefined) set.name = body.name
  if (body.max_scan_time !== undefined) set.max_scan_time = body.max_scan_time
  if (body.tool_params !== undefined || body.report_callback !== undefined || body.vpn_profile_uuid !== undefined) {
    // The same rules as at creation, on the schedule's own tool, target and workspace.
    const r = await resolveScan(
      db,
      caller,
      rules,
      {
        tool_id: s.tool_id,
        workspace_id: s.workspace_id,
        tool_params: body.tool_params !== undefined ? body.tool_params : JSON.parse(s.tool_params),
        report_callback:
          body.report_callback !== undefined ? body.report_callback : s.report_callback ? JSON.parse(s.report_callback) : null,
        ...(body.vpn_profile_uuid !== undefined ? { vpn_profile_uuid: body.vpn_profile_uuid } : {}),
      },
      'none',
    )
    set.tool_params = JSON.stringify(r.toolParams)
    set.report_callback = r.reportCallback ? JSON.stringify(r.reportCallback) : null
    if (body.vpn_profile_uuid !== undefined) set.vpn_profile_uuid = r.vpnProfileUuid
  }
  if (Object.keys(set).length && !(await updateSchedule(db, caller.userId, id, set))) throw notFound('Schedule')
  return (await getSchedule(db, caller.userId, id)) ?? Promise.reject(notFound('Schedule'))
}

/** Pause or resume; a resumed schedule fires at its first slot after now (not the ones it slept through). */
export async function setSchedulePaused(db: Db, caller: Caller, id: number, paused: boolean, now = new Date()): Promise<ScheduleRow> {
  const s = await getSchedule(db, caller.userId, id, WRITER_ROLES)
  if (!s) throw await refusal(getSchedule(db, caller.userId, id), 'Schedule')
  // Paused by Ward because its creator can no longer start scans here: whoever resumes it takes it over.
  if (!paused && s.paused_reason !== null) await takeOverSchedule(db, caller.userId, id, nextSlot(s, now).toISOString())
  else if ((s.paused === 1) !== paused)
    await updateSchedule(db, caller.userId, id, paused ? { paused: 1 } : { paused: 0, next_run_at: nextSlot(s, now).toISOString() })
  return (await getSchedule(db, caller.userId, id)) ?? Promise.reject(notFound('Schedule'))
}
