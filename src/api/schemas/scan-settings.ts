// Saved scan settings (an extension beside v2): a named set of one tool's tool_params.
import { Type } from '@sinclair/typebox'
import { Id, Pagination } from './common.js'
import { FromScanId } from './scans.js'
import { toolIdDescription } from '../../tools/registry.js'

const Name = Type.String({ minLength: 1, maxLength: 200, description: 'e.g. "Weekly deep scan, authenticated"' })
const ToolParams = Type.Object({}, { additionalProperties: true, description: 'checked against the tool; credentials are write-only' })
const MaxScanTime = Type.Integer({ minimum: 1, maximum: 1440, description: 'minutes; default 1440 (or the scan of from_scan_id)' })

export const CreateScanSettingsBody = Type.Object(
  {
    name: Name,
    tool_id: Type.Optional(Type.Integer({ description: `${toolIdDescription()}; required unless from_scan_id is given` })),
    from_scan_id: FromScanId,
    workspace_id: Type.Optional(Id),
    tool_params: Type.Optional(ToolParams),
    max_scan_time: Type.Optional(MaxScanTime),
  },
  { additionalProperties: false },
)

export const UpdateScanSettingsBody = Type.Object(
  { name: Type.Optional(Name), tool_params: Type.Optional(ToolParams), max_scan_time: Type.Optional(MaxScanTime) },
  { additionalProperties: false },
)

export const ScanSettingsQuery = Type.Object({ workspace_id: Type.Optional(Id), tool_id: Type.Optional(Id), ...Pagination })

export const ScanSettings = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  workspace_id: Type.Integer(),
  tool_id: Type.Integer(),
  tool_params: Type.Object({}, { additionalProperties: true, description: 'credentials are shown as "(secret: stored encrypted)"' }),
  max_scan_time: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
})
