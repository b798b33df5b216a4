// Rules of POST /scans (issue 3, decisions.md): tool, target, workspace, tool_params, callback.
import type { Db } from '../store/db.js'
import type { Caller } from '../store/accounts.js'
import { getWorkspace } from '../store/accounts.js'
import { getTarget } from '../store/targets.js'
import { insertScan } from '../store/scans.js'
import { publish } from '../store/notify.js'
import { nowIso } from '../store/time.js'
import { getTool, knownToolIds } from '../tools/registry.js'
import { resolveToolParams } from '../engine/tool-params.js'
import { badRequest, notFound } from './errors.js'
import { findOrCreateTarget, licenceValid } from './targets.js'
import { callbackUrlProblem } from './callback-url.js'
import { forbidden } from './errors.js'
import type { BlockRule } from './blocklist.js'

export interface CreateScanInput {
  tool_id: number
  target_id?: number
  target_name?: string | null
  workspace_id?: number | null
  vpn_profile_uuid?: string | null
  max_scan_time?: number
  report_callback?: { url: string; format?: 'json' | 'pdf'; secret?: string } | null
  scan_original_url?: boolean
  redirect_level?: string
  tool_params?: Record<string, unknown> | null
}

export interface ScanRules {
  targetBlocklist: BlockRule[]
  callbackBlocklist: BlockRule[]
  /** VPN profile resolution (issue 7): the uuid to use for this scan, or null. */
  resolveVpnProfile?: (db: Db, caller: Caller, workspaceId: number, requested: string | null | undefined, given: boolean) => Promise<string | null>
}

export async function createScan(db: Db, caller: Caller, rules: ScanRules, body: CreateScanInput): Promise<{ scanId: number; targetId: number }> {
  const tool = getTool(body.tool_id)
  if (!tool) throw badRequest(`Invalid parameters: unknown tool_id ${body.tool_id}; known tool ids: ${knownToolIds().join(', ')}`, { known_tool_ids: knownToolIds() })
  const hasId = body.target_id !== undefined
  const hasName = body.target_name !== undefined && body.target_name !== null
  if (hasId === hasName) throw badRequest('Invalid parameters: give exactly one of target_id and target_name')
  const params = resolveToolParams(tool.params, body.tool_params ?? {}, tool.validateParams)
  if (!params.ok) throw badRequest(`Invalid parameters: ${params.message}`)
  if (body.report_callback) {
    const problem = callbackUrlProblem(body.report_callback.url, rules.callbackBlocklist)
    if (problem) throw badRequest(`Invalid parameters: ${problem}`)
  }
  if (body.workspace_id !== undefined && body.workspace_id !== null && !(await getWorkspace(db, caller.userId, body.workspace_id))) throw notFound('Workspace')
  if (!licenceValid(caller)) throw forbidden(`Your licence is invalid: it expired on ${caller.licenseExpires}`)

  // Every check that can refuse the scan runs before a target is created for target_name.
  let existing: { id: number; workspace_id: number } | null = null
  if (hasId) {
    const t = await getTarget(db, caller.userId, body.target_id!)
    if (!t) throw notFound('Target')
    if (body.workspace_id !== undefined && body.workspace_id !== null && body.workspace_id !== t.workspace_id)
      throw badRequest(`Invalid parameters: workspace_id ${body.workspace_id} does not match the target's workspace ${t.workspace_id}`)
    existing = t
  }
  const workspaceId = existing ? existing.workspace_id : (body.workspace_id ?? caller.activeWorkspaceId)
  const vpn = rules.resolveVpnProfile ? await rules.resolveVpnProfile(db, caller, workspaceId, body.vpn_profile_uuid, 'vpn_profile_uuid' in body) : (body.vpn_profile_uuid ?? null)
  const targetId = existing ? existing.id : await findOrCreateTarget(db, caller, rules.targetBlocklist, body.target_name, workspaceId)

  const cb = body.report_callback ? { url: body.report_callback.url, format: body.report_callback.format ?? 'json', ...(body.report_callback.secret ? { secret: body.report_callback.secret } : {}) } : null
  const scanId = await insertScan(db, {
    workspace_id: workspaceId,
    target_id: targetId,
    user_id: caller.userId,
    tool_id: tool.id,
    status: 'waiting',
    status_message: null,
    vpn_profile_uuid: vpn,
    vpn_scan: vpn ? 1 : 0,
    progress: 0,
    num_tests: 0,
    num_finished_tests: 0,
    max_scan_time: body.max_scan_time ?? 1440,
    scan_original_url: body.scan_original_url ? 1 : 0,
    redirect_level: body.redirect_level ?? 'same_domain',
    report_callback: cb ? JSON.stringify(cb) : null,
    tool_params: JSON.stringify(params.value),
    output_data: null,
    count_critical: 0,
    count_high: 0,
    count_medium: 0,
    count_low: 0,
    count_info: 0,
    created_at: nowIso(),
    start_time: null,
    end_time: null,
    lease_owner: null,
    lease_expires_at: null,
    stop_requested: 0,
    attempts: 0,
  })
  publish({ type: 'queued' })
  return { scanId, targetId }
}
