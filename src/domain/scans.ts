// Rules of POST /scans (decisions.md): tool, target, workspace, tool_params, callback.
import type { Db } from '../store/db.js'
import type { Caller } from '../store/accounts.js'
import { getWorkspace } from '../store/accounts.js'
import { getTarget } from '../store/targets.js'
import { getScan, toolParamsOf } from '../store/scans.js'
import { queueScan } from '../store/scans.js'
import { audited, type AuditIntent } from '../store/audit.js'
import { publish } from '../store/notify.js'
import type { ToolCatalogue, ToolManifest } from '../toolkit/tool.js'
import { mapSecretParams, resolveToolParams } from '../toolkit/params.js'
import { ensureSealed } from '../store/secret-box.js'
import { secretsOf } from '../store/secrets.js'
import { badRequest, notFound } from './errors.js'
import { assertTargetInScope, findOrCreateTarget, licenceValid } from './targets.js'
import { writableWorkspace } from './access.js'
import { getScanSettings } from '../store/scan-settings.js'
import { callbackUrlProblem } from './callback-url.js'
import { forbidden } from './errors.js'
import type { Scope } from '../toolkit/scope.js'
import { targetHost } from '../toolkit/ip.js'
import type { Config } from '../config/config.js'

export interface CreateScanInput {
  /** Absent only with from_scan_id (the earlier scan's tool). */
  tool_id?: number
  /** Start from an earlier scan's settings (an extension): its tool, target, tool_params, max_scan_time, VPN profile; fields given win. */
  from_scan_id?: number
  /** Start from saved scan settings (an extension): their tool, tool_params, max_scan_time; fields given win. */
  settings_id?: number
  target_id?: number
  target_name?: string | null
  workspace_id?: number | null
  vpn_profile_uuid?: string | null
  max_scan_time?: number
  report_callback?: { url: string; format?: 'json' | 'pdf'; secret?: string; only_on_change?: boolean } | null
  scan_original_url?: boolean
  redirect_level?: string
  tool_params?: Record<string, unknown> | null
}

/** What the API and the web pages are handed to serve people: the database and the rules' configuration. */
export interface ServiceContext {
  db: Db
  dbKind: 'sqlite' | 'postgres'
  config: Config
  /** The target scope (WARD_TARGET_BLOCKLIST / WARD_TARGET_ALLOWLIST). */
  blocklist: Scope
  /** The tools scans may use (manifests: ids, names, tool_params schemas). */
  tools: ToolCatalogue
  /** VPN profile resolution for new scans (set when VPN profiles are enabled). */
  resolveVpnProfile?: ScanRules['resolveVpnProfile']
}

export interface ScanRules {
  /** The tools this Ward offers: their ids and tool_params schemas (manifests only, no scanners). */
  tools: ToolCatalogue
  targetBlocklist: Scope
  callbackBlocklist: Scope
  /** VPN profile resolution: the uuid to use for this scan, or null. */
  resolveVpnProfile?: (
    db: Db,
    caller: Caller,
    workspaceId: number,
    requested: string | null | undefined,
    given: boolean,
  ) => Promise<string | null>
}

/** What a scan (or a schedule of scans) resolves to once every rule has accepted it. */
export interface ResolvedScan {
  toolId: number
  toolParams: unknown
  workspaceId: number
  vpnProfileUuid: string | null
  targetId: number | null
  reportCallback: { url: string; format: string; secret?: string; only_on_change?: boolean } | null
}

/** The tool a scan asks for: a 400 naming the known ids, or why Ward does not run it. */
export function toolOf(tools: ToolCatalogue, toolId: number | undefined): ToolManifest {
  if (toolId === undefined) throw badRequest('Invalid parameters: body field "tool_id" is required')
  const refused = tools.refusal?.(toolId)
  if (refused)
    throw badRequest(`Invalid parameters: tool_id ${toolId} is the ${refused.name}, which Ward does not run: ${refused.reason}`, {
      tool_id: toolId,
      tool_name: refused.name,
    })
  const tool = tools.get(toolId)
  if (!tool)
    throw badRequest(`Invalid parameters: unknown tool_id ${toolId}; known tool ids: ${tools.ids().join(', ')}`, {
      known_tool_ids: tools.ids(),
    })
  return tool
}

/**
 * `raw` checked against the tool's tool_params schema (defaults filled in), with its credentials
 * (SecretParam members) sealed; the worker opens them (engine/run-scan.ts). Params stored earlier
 * (a schedule, saved settings, "scan again") come back already sealed and are kept as they are.
 */
export function sealedToolParams(db: Db, tool: ToolManifest, raw: unknown): unknown {
  const params = resolveToolParams(tool.params, raw ?? {}, tool.validateParams)
  if (!params.ok) throw badRequest(`Invalid parameters: ${params.message}`)
  return mapSecretParams(tool.params, params.value, (secret) => ensureSealed(secretsOf(db), secret))
}

/**
 * The rules of POST /scans, without queueing: tool, tool_params, callback, workspace, licence,
 * VPN profile and the target (created for a new target_name). `targets: 'none'` (a schedule of
 * every target of a type) takes neither target_id nor target_name.
 */
export async function resolveScan(
  db: Db,
  caller: Caller,
  rules: ScanRules,
  body: CreateScanInput,
  targets: 'one' | 'none' = 'one',
): Promise<ResolvedScan> {
  const tool = toolOf(rules.tools, body.tool_id)
  const hasId = body.target_id !== undefined
  const hasName = body.target_name !== undefined && body.target_name !== null
  if (targets === 'one' && hasId === hasName) throw badRequest('Invalid parameters: give exactly one of target_id and target_name')
  const toolParams = sealedToolParams(db, tool, body.tool_params)
  if (body.report_callback) {
    const problem = callbackUrlProblem(body.report_callback.url, rules.callbackBlocklist)
    if (problem) throw badRequest(`Invalid parameters: ${problem}`)
  }
  if (body.workspace_id !== undefined && body.workspace_id !== null && !(await getWorkspace(db, caller.userId, body.workspace_id)))
    throw notFound('Workspace')
  if (!licenceValid(caller)) throw forbidden(`Your licence is invalid: it expired on ${caller.licenseExpires}`)

  // Every check that can refuse the scan runs before a target is created for target_name.
  let existing: { id: number; workspace_id: number } | null = null
  if (targets === 'one' && hasId) {
    const t = await getTarget(db, caller.userId, body.target_id!)
    if (!t) throw notFound('Target')
    if (body.workspace_id !== undefined && body.workspace_id !== null && body.workspace_id !== t.workspace_id)
      throw badRequest(`Invalid parameters: workspace_id ${body.workspace_id} does not match the target's workspace ${t.workspace_id}`)
    assertTargetInScope(rules.targetBlocklist, targetHost(t.name))
    existing = t
  }
  const workspaceId = existing ? existing.workspace_id : (body.workspace_id ?? caller.activeWorkspaceId)
  await writableWorkspace(db, caller, workspaceId)
  const vpn = rules.resolveVpnProfile
    ? await rules.resolveVpnProfile(db, caller, workspaceId, body.vpn_profile_uuid, 'vpn_profile_uuid' in body)
    : (body.vpn_profile_uuid ?? null)
  const targetId =
    targets === 'none'
      ? null
      : existing
        ? existing.id
        : await findOrCreateTarget(db, caller, rules.targetBlocklist, body.target_name, workspaceId)
  const rc = body.report_callback
  const cb = rc
    ? {
        url: rc.url,
        format: rc.format ?? 'json',
        ...(rc.secret ? { secret: rc.secret } : {}),
        ...(rc.only_on_change ? { only_on_change: true } : {}),
      }
    : null
  return { toolId: tool.id, toolParams, workspaceId, vpnProfileUuid: vpn, targetId, reportCallback: cb }
}

/**
 * "Scan again": the settings of an earlier scan the caller may read — tool, target, tool_params
 * (credentials stay sealed), max_scan_time, VPN profile (none stays none), URL options — with the
 * fields `body` gives winning. The report callback is not carried over (it belongs to one scan).
 */
export async function withEarlierScan<T extends CreateScanInput & { target_type?: string | null }>(
  db: Db,
  caller: Caller,
  body: T,
): Promise<T> {
  if (body.from_scan_id === undefined) return body
  const s = await getScan(db, caller.userId, body.from_scan_id)
  if (!s) throw notFound('Scan')
  if (body.tool_id !== undefined && body.tool_id !== s.tool_id)
    throw badRequest(
      `Invalid parameters: tool_id ${body.tool_id} differs from the tool of scan ${s.id} (${s.tool_id}); leave tool_id out or give ${s.tool_id}`,
    )
  const { from_scan_id: _from, ...given } = body
  const namesTarget = given.target_id !== undefined || (given.target_name ?? null) !== null || (given.target_type ?? null) !== null
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined))
  return {
    tool_id: s.tool_id,
    ...(namesTarget ? {} : { target_id: s.target_id }),
    max_scan_time: s.max_scan_time,
    vpn_profile_uuid: s.vpn_profile_uuid,
    scan_original_url: s.scan_original_url === 1,
    redirect_level: s.redirect_level,
    tool_params: toolParamsOf(s) as Record<string, unknown>,
    ...defined,
  } as T
}

/**
 * A scan or schedule body with saved settings applied: their tool, tool_params (credentials stay
 * sealed) and max_scan_time, the fields `body` gives winning. Settings the caller cannot read are a 404.
 */
export async function withSavedSettings<T extends CreateScanInput & { settings_id?: number }>(db: Db, caller: Caller, body: T): Promise<T> {
  if (body.settings_id === undefined) return body
  const { settings_id: id, ...given } = body
  if (given.from_scan_id !== undefined) throw badRequest('Invalid parameters: give at most one of settings_id and from_scan_id')
  const s = await getScanSettings(db, caller.userId, id)
  if (!s) throw notFound('Scan settings')
  if (given.tool_id !== undefined && given.tool_id !== s.tool_id)
    throw badRequest(
      `Invalid parameters: tool_id ${given.tool_id} differs from the tool of scan settings ${s.id} (${s.tool_id}); leave tool_id out or give ${s.tool_id}`,
    )
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined))
  return { tool_id: s.tool_id, max_scan_time: s.max_scan_time, tool_params: JSON.parse(s.tool_params), ...defined } as T
}

export async function createScan(
  db: Db,
  caller: Caller,
  rules: ScanRules,
  input: CreateScanInput,
  audit?: AuditIntent,
): Promise<{ scanId: number; targetId: number }> {
  const body = await withEarlierScan(db, caller, await withSavedSettings(db, caller, input))
  const r = await resolveScan(db, caller, rules, body)
  // Only the insert is the audited change: the checks before it read, and workers hear of it after.
  const scanId = await audited(
    db,
    audit,
    (trx) =>
      queueScan(trx, {
        workspaceId: r.workspaceId,
        targetId: r.targetId!,
        userId: caller.userId,
        toolId: r.toolId,
        vpnProfileUuid: r.vpnProfileUuid,
        maxScanTime: body.max_scan_time ?? 1440,
        scanOriginalUrl: !!body.scan_original_url,
        redirectLevel: body.redirect_level ?? 'same_domain',
        reportCallback: r.reportCallback,
        toolParams: r.toolParams,
      }),
    (id) => ({ objectId: id }),
  )
  publish({ type: 'queued' })
  return { scanId, targetId: r.targetId! }
}
