// Schedules: scans that start by themselves, on a cron expression or an interval.
import { Type } from '@sinclair/typebox'
import { Id, Nullable, Pagination } from './common.js'
import { FromScanId, ReportCallback, ScanState, SettingsId } from './scans.js'
import { toolIdDescription } from '../../tools/registry.js'

const TargetType = Type.Union([Type.Literal('hostname'), Type.Literal('ip_address'), Type.Literal('url')])
const Cron = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'cron expression, five fields (minute hour day-of-month month day-of-week) or @daily, @hourly, ...',
})
const Timezone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone name of the cron expression (default UTC)' })
const IntervalMinutes = Type.Integer({ minimum: 1, maximum: 525600, description: 'fire every this many minutes (instead of cron)' })
const Name = Type.String({ maxLength: 200 })
const ToolParams = Type.Object({}, { additionalProperties: true })
const MaxScanTime = Type.Integer({ minimum: 1, maximum: 1440 })

/** What a schedule's scans take and when they start: given at creation, changeable later. */
const Changeable = {
  name: Type.Optional(Name),
  vpn_profile_uuid: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
  max_scan_time: Type.Optional(MaxScanTime),
  report_callback: Type.Optional(Nullable(ReportCallback)),
  tool_params: Type.Optional(Nullable(ToolParams)),
  cron: Type.Optional(Nullable(Cron)),
  timezone: Type.Optional(Timezone),
  interval_minutes: Type.Optional(Nullable(IntervalMinutes)),
}

export const CreateScheduleBody = Type.Object({
  tool_id: Type.Optional(Type.Integer({ description: `${toolIdDescription()}; required unless from_scan_id is given` })),
  from_scan_id: FromScanId,
  settings_id: SettingsId,
  target_id: Type.Optional(Id),
  target_name: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
  target_type: Type.Optional(Nullable(TargetType)),
  workspace_id: Type.Optional(Nullable(Id)),
  paused: Type.Optional(Type.Boolean({ default: false })),
  ...Changeable,
})

export const UpdateScheduleBody = Type.Object(Changeable, { additionalProperties: false })

export const SchedulesQuery = Type.Object({ workspace_id: Type.Optional(Id), ...Pagination })

export const Schedule = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  workspace_id: Type.Integer(),
  target_id: Nullable(Type.Integer()),
  target_type: Nullable(Type.String({ description: 'every target of this type in the workspace, when target_id is null' })),
  tool_id: Type.Integer(),
  tool_params: Type.Object({}, { additionalProperties: true }),
  max_scan_time: Type.Integer(),
  vpn_profile_uuid: Nullable(Type.String()),
  report_callback: Nullable(
    Type.Object(
      { url: Type.String(), format: Type.String(), has_secret: Type.Boolean(), only_on_change: Type.Boolean() },
      { description: 'the secret is write-only' },
    ),
  ),
  cron: Nullable(Type.String()),
  timezone: Type.String(),
  interval_minutes: Nullable(Type.Integer()),
  paused: Type.Boolean(),
  paused_reason: Nullable(
    Type.String({
      description: 'why Ward paused it (its creator can no longer start scans here); null when a person paused it or it runs',
    }),
  ),
  next_run_at: Nullable(Type.String({ description: 'ISO 8601 UTC; null while paused' })),
  last_run_at: Nullable(Type.String()),
  created_at: Type.String(),
  last_scans: Type.Array(
    Type.Object({
      id: Type.Integer(),
      target_id: Type.Integer(),
      status_name: ScanState,
      start_time: Nullable(Type.String()),
      end_time: Nullable(Type.String()),
    }),
    { description: 'newest first, at most 5' },
  ),
  last_runs: Type.Array(
    Type.Object({
      slot_at: Type.String(),
      fired_at: Type.String(),
      outcome: Type.Union([Type.Literal('queued'), Type.Literal('skipped')]),
      scan_ids: Type.Array(Type.Integer()),
      message: Type.String(),
    }),
    { description: 'newest first, at most 5; a skipped run says why' },
  ),
})

export const RunNowResult = Type.Object({ created_ids: Type.Array(Type.Integer()), skipped: Type.Boolean(), message: Type.String() })
