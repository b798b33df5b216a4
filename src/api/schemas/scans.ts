import { Type } from '@sinclair/typebox'
import { Id, Nullable, Pagination } from './common.js'
import { SCAN_STATES } from '../../domain/scan-state.js'

export const ScanState = Type.Union(SCAN_STATES.map((s) => Type.Literal(s)))
export const RedirectLevel = Type.Union(['none', 'check_accessibility', 'same_host', 'same_domain', 'allow_all'].map((s) => Type.Literal(s)))

export const ResultSummary = Type.Object({
  text: Type.String(),
  critical: Type.Integer(),
  high: Type.Integer(),
  medium: Type.Integer(),
  low: Type.Integer(),
  info: Type.Integer(),
})

export const Scan = Type.Object({
  id: Type.Integer(),
  tool_id: Type.Integer(),
  target_id: Type.Integer(),
  workspace_id: Type.Integer(),
  status_name: ScanState,
  vpn_scan: Type.Boolean(),
  progress: Type.Integer({ description: 'percent 0..100' }),
  result_summary: ResultSummary,
  start_time: Nullable(Type.String({ description: 'ISO 8601 UTC, seconds' })),
  end_time: Nullable(Type.String()),
  duration: Type.Integer({ description: 'whole seconds (running scans: so far)' }),
  num_tests: Type.Integer(),
  num_finished_tests: Type.Integer(),
  status_message: Type.String({ description: 'why the scan is in its state; "" when there is nothing to say' }),
  vpn_profile_uuid: Nullable(Type.String({ description: 'the VPN profile the scan goes through; null when none' })),
  scan_original_url: Type.Boolean({ description: 'scan the URL as given, without following redirects first' }),
})

export const ReportCallback = Type.Object(
  {
    url: Type.String({ maxLength: 2048 }),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('pdf')])),
    secret: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    only_on_change: Type.Optional(Type.Boolean({ description: 'deliver only when GET /scans/{id}/changes finds something changed since the previous scan; the changes are in the payload' })),
  },
  { additionalProperties: false },
)

export const CreateScanBody = Type.Object({
  tool_id: Type.Integer({ description: 'tool to run (decisions.md tool ids)' }),
  target_id: Type.Optional(Id),
  target_name: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
  workspace_id: Type.Optional(Nullable(Id)),
  vpn_profile_uuid: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
  max_scan_time: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440, default: 1440 })),
  report_callback: Type.Optional(Nullable(ReportCallback)),
  scan_original_url: Type.Optional(Type.Boolean({ default: false })),
  redirect_level: Type.Optional(RedirectLevel),
  tool_params: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
})

export const ScansQuery = Type.Object({
  tool_id: Type.Optional(Id),
  workspace_id: Type.Optional(Id),
  target_id: Type.Optional(Id),
  status: Type.Optional(ScanState),
  'start_time[from]': Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601 time, inclusive' })),
  'start_time[to]': Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601 time, inclusive' })),
  ...Pagination,
})

export const TestRecord = Type.Object({
  id: Type.Integer(),
  scan_id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  status: Type.Union(['running', 'finished', 'skipped', 'error'].map((s) => Type.Literal(s))),
  result: Nullable(Type.Union(['passed', 'failed', 'error'].map((s) => Type.Literal(s)))),
  finding_ids: Type.Array(Type.Integer()),
  start_time: Nullable(Type.String()),
  end_time: Nullable(Type.String()),
})

export const TestsQuery = Type.Object({
  resource_type: Type.Optional(Type.Union([Type.Literal('scan'), Type.Literal('finding')])),
  resource_id: Type.Optional(Id),
})
