// Rules of saved scan settings: a name, a tool and its tool_params (checked like POST /scans, the
// credentials sealed), saved from a form or from an earlier scan, in a workspace the caller may
// change. A scan or schedule started with `settings_id` takes their tool, tool_params and
// max_scan_time; the fields it gives itself win.
import type { Db } from '../store/db.js'
import type { Caller } from '../store/accounts.js'
import type { ScanSettingsRow } from '../store/schema.js'
import { getScan, toolParamsOf } from '../store/scans.js'
import { getScanSettings, insertScanSettings, updateScanSettings, type ScanSettingsChanges } from '../store/scan-settings.js'
import { WRITER_ROLES } from '../store/members.js'
import type { ToolCatalogue } from '../toolkit/tool.js'
import { badRequest, notFound } from './errors.js'
import { refusal, writableWorkspace } from './access.js'
import { sealedToolParams, toolOf } from './scans.js'

export interface SaveSettingsInput {
  name: string
  /** Absent only with from_scan_id (the earlier scan's tool). */
  tool_id?: number
  from_scan_id?: number
  workspace_id?: number | null
  tool_params?: Record<string, unknown> | null
  max_scan_time?: number
}

export interface ChangeSettingsInput {
  name?: string
  tool_params?: Record<string, unknown> | null
  max_scan_time?: number
}

const nameOf = (name: string) => {
  const n = name.trim()
  if (!n) throw badRequest('Invalid parameters: give the settings a name')
  return n
}

export async function saveScanSettings(db: Db, caller: Caller, tools: ToolCatalogue, input: SaveSettingsInput): Promise<number> {
  const name = nameOf(input.name)
  let body = input
  if (input.from_scan_id !== undefined) {
    const s = await getScan(db, caller.userId, input.from_scan_id)
    if (!s) throw notFound('Scan')
    if (input.tool_id !== undefined && input.tool_id !== s.tool_id)
      throw badRequest(`Invalid parameters: tool_id ${input.tool_id} differs from the tool of scan ${s.id} (${s.tool_id})`)
    body = {
      tool_id: s.tool_id,
      workspace_id: s.workspace_id,
      max_scan_time: s.max_scan_time,
      tool_params: toolParamsOf(s) as Record<string, unknown>,
      ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== null)),
    } as SaveSettingsInput
  }
  const tool = toolOf(tools, body.tool_id)
  const toolParams = sealedToolParams(db, tool, body.tool_params)
  const ws = await writableWorkspace(db, caller, body.workspace_id ?? caller.activeWorkspaceId)
  return insertScanSettings(db, {
    workspace_id: ws.id,
    user_id: caller.userId,
    name,
    tool_id: tool.id,
    tool_params: JSON.stringify(toolParams),
    max_scan_time: body.max_scan_time ?? 1440,
  })
}

/** Rename, or new tool_params / max_scan_time (checked against the settings' own tool). */
export async function changeScanSettings(
  db: Db,
  caller: Caller,
  tools: ToolCatalogue,
  id: number,
  body: ChangeSettingsInput,
): Promise<ScanSettingsRow> {
  const s = await getScanSettings(db, caller.userId, id, WRITER_ROLES)
  if (!s) throw await refusal(getScanSettings(db, caller.userId, id), 'Scan settings')
  const set: ScanSettingsChanges = {}
  if (body.name !== undefined) set.name = nameOf(body.name)
  if (body.max_scan_time !== undefined) set.max_scan_time = body.max_scan_time
  if (body.tool_params !== undefined) set.tool_params = JSON.stringify(sealedToolParams(db, toolOf(tools, s.tool_id), body.tool_params))
  if (Object.keys(set).length && !(await updateScanSettings(db, caller.userId, id, set))) throw notFound('Scan settings')
  return (await getScanSettings(db, caller.userId, id)) ?? Promise.reject(notFound('Scan settings'))
}
