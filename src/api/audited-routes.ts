// Which requests leave an audit entry, API and web pages alike: the route, the action it records,
// the object, where the object's workspace comes from, and the only request fields kept as "what
// changed" — never a password, key, token, callback secret or tool parameter. The entry is written by
// the change itself, in its transaction (plugins/audit.ts hands it on as `req.audit`).
import type { ObjectTable } from '../store/audit.js'

export interface AuditedRoute {
  action: string
  objectType: string
  /** Where the object's id is: a path parameter, or (created) the id the change returns. */
  id?: { param: string } | 'created'
  /** Where the workspace is: the object's row, the path's `id` (a workspace), or the signed-in user's active one. */
  workspace?: ObjectTable | 'param' | 'active'
  /** Request fields kept as "what changed". */
  fields?: readonly string[]
  /** Answers that mean it happened (default: 2xx for the API, 303 for a page): one must have an entry. */
  done?: readonly number[]
  /** What a refused attempt records (sign-in failures). */
  failedAction?: string
}

const id = { param: 'id' }
const A = '/api/v2'
const TRIAGE = ['status', 'risk_level', 'verified', 'reason'] as const
const SCHEDULE = [
  'name',
  'cron',
  'timezone',
  'interval_minutes',
  'max_scan_time',
  'paused',
  'tool_id',
  'target_id',
  'target_name',
  'target_type',
  'workspace_id',
  'settings_id',
] as const
const SCAN = ['tool_id', 'target_id', 'target_name', 'workspace_id', 'from_scan_id', 'settings_id'] as const
const MEMBER = ['user_name', 'role'] as const

export const AUDITED: Record<string, AuditedRoute> = {
  [`POST ${A}/targets`]: {
    action: 'target.created',
    objectType: 'target',
    id: 'created',
    workspace: 'targets',
    fields: ['name', 'workspace_id'],
  },
  [`DELETE ${A}/targets/:id`]: { action: 'target.deleted', objectType: 'target', id, workspace: 'targets' },
  [`POST ${A}/scans`]: { action: 'scan.started', objectType: 'scan', id: 'created', workspace: 'scans', fields: SCAN },
  [`POST ${A}/scans/:id/stop`]: { action: 'scan.stopped', objectType: 'scan', id, workspace: 'scans' },
  [`DELETE ${A}/scans/:id`]: { action: 'scan.deleted', objectType: 'scan', id, workspace: 'scans' },
  [`PATCH ${A}/findings/:id`]: { action: 'finding.triaged', objectType: 'finding', id, workspace: 'findings', fields: TRIAGE },
  [`POST ${A}/schedules`]: { action: 'schedule.created', objectType: 'schedule', id: 'created', workspace: 'schedules', fields: SCHEDULE },
  [`PATCH ${A}/schedules/:id`]: { action: 'schedule.changed', objectType: 'schedule', id, workspace: 'schedules', fields: SCHEDULE },
  [`POST ${A}/schedules/:id/pause`]: { action: 'schedule.paused', objectType: 'schedule', id, workspace: 'schedules' },
  [`POST ${A}/schedules/:id/resume`]: { action: 'schedule.resumed', objectType: 'schedule', id, workspace: 'schedules' },
  [`POST ${A}/schedules/:id/run`]: { action: 'schedule.run', objectType: 'schedule', id, workspace: 'schedules' },
  [`DELETE ${A}/schedules/:id`]: { action: 'schedule.deleted', objectType: 'schedule', id, workspace: 'schedules' },
  [`POST ${A}/scan-settings`]: {
    action: 'scan_settings.created',
    objectType: 'scan_settings',
    id: 'created',
    workspace: 'scan_settings',
    fields: ['name', 'tool_id', 'from_scan_id', 'workspace_id', 'max_scan_time'],
  },
  [`PATCH ${A}/scan-settings/:id`]: {
    action: 'scan_settings.changed',
    objectType: 'scan_settings',
    id,
    workspace: 'scan_settings',
    fields: ['name', 'max_scan_time'],
  },
  [`DELETE ${A}/scan-settings/:id`]: { action: 'scan_settings.deleted', objectType: 'scan_settings', id, workspace: 'scan_settings' },
  [`POST ${A}/vpn_profiles`]: {
    action: 'vpn_profile.created',
    objectType: 'vpn_profile',
    id: 'created',
    fields: ['name', 'type', 'host', 'port'],
  },
  [`DELETE ${A}/vpn_profiles/:uuid`]: { action: 'vpn_profile.deleted', objectType: 'vpn_profile', id: { param: 'uuid' } },
  [`PUT ${A}/workspaces/:id/vpn_profile`]: {
    action: 'workspace.vpn_profile_set',
    objectType: 'workspace',
    id,
    workspace: 'param',
    fields: ['vpn_profile_uuid'],
  },
  [`POST ${A}/workspaces`]: { action: 'workspace.created', objectType: 'workspace', id: 'created', fields: ['name'] },
  [`POST ${A}/workspaces/:id/members`]: { action: 'member.added', objectType: 'user', id: 'created', workspace: 'param', fields: MEMBER },
  [`PATCH ${A}/workspaces/:id/members/:user_id`]: {
    action: 'member.changed',
    objectType: 'user',
    id: { param: 'user_id' },
    workspace: 'param',
    fields: MEMBER,
  },
  [`DELETE ${A}/workspaces/:id/members/:user_id`]: {
    action: 'member.removed',
    objectType: 'user',
    id: { param: 'user_id' },
    workspace: 'param',
  },
  [`POST ${A}/workspaces/:id/invitations`]: {
    action: 'invitation.created',
    objectType: 'invitation',
    id: 'created',
    workspace: 'param',
    fields: ['role'],
  },
  [`DELETE ${A}/workspaces/:id/invitations/:invitation_id`]: {
    action: 'invitation.revoked',
    objectType: 'invitation',
    id: { param: 'invitation_id' },
    workspace: 'param',
  },

  // The web interface's forms (a done change redirects with 303).
  'POST /sign-in': { action: 'sign_in.succeeded', objectType: 'user', fields: [], failedAction: 'sign_in.failed' },
  'POST /profile/keys': { action: 'key.created', objectType: 'api_key' },
  'POST /profile/keys/:id/revoke': { action: 'key.revoked', objectType: 'api_key', id },
  'POST /targets': { action: 'target.created', objectType: 'target', id: 'created', workspace: 'targets', fields: ['name'] },
  'POST /targets/:id/delete': { action: 'target.deleted', objectType: 'target', id, workspace: 'targets' },
  'POST /scans/new': {
    action: 'scan.started',
    objectType: 'scan',
    id: 'created',
    workspace: 'scans',
    fields: ['tool_id', 'target_id', 'from_scan_id'],
  },
  'POST /scans/:id/stop': { action: 'scan.stopped', objectType: 'scan', id, workspace: 'scans' },
  'POST /scans/:id/delete': { action: 'scan.deleted', objectType: 'scan', id, workspace: 'scans' },
  'POST /findings/:id/triage': { action: 'finding.triaged', objectType: 'finding', id, workspace: 'findings', fields: TRIAGE },
  // One entry per finding triaged (the page writes them: the request names many findings).
  'POST /findings/bulk': { action: 'finding.triaged', objectType: 'finding', workspace: 'findings', fields: ['status', 'reason'] },
  'POST /schedules': {
    action: 'schedule.created',
    objectType: 'schedule',
    id: 'created',
    workspace: 'schedules',
    fields: ['name', 'tool_id', 'target_id', 'interval_minutes', 'cron', 'timezone', 'from_scan_id', 'settings_id'],
  },
  'POST /schedules/:id/pause': { action: 'schedule.paused', objectType: 'schedule', id, workspace: 'schedules' },
  'POST /schedules/:id/resume': { action: 'schedule.resumed', objectType: 'schedule', id, workspace: 'schedules' },
  'POST /schedules/:id/run': { action: 'schedule.run', objectType: 'schedule', id, workspace: 'schedules' },
  'POST /schedules/:id/delete': { action: 'schedule.deleted', objectType: 'schedule', id, workspace: 'schedules' },
  'POST /scan-settings': {
    action: 'scan_settings.created',
    objectType: 'scan_settings',
    id: 'created',
    workspace: 'scan_settings',
    fields: ['name', 'from_scan_id'],
  },
  'POST /scan-settings/:id/rename': {
    action: 'scan_settings.changed',
    objectType: 'scan_settings',
    id,
    workspace: 'scan_settings',
    fields: ['name'],
  },
  'POST /scan-settings/:id/delete': { action: 'scan_settings.deleted', objectType: 'scan_settings', id, workspace: 'scan_settings' },
  'POST /workspaces': { action: 'workspace.created', objectType: 'workspace', fields: ['name'] },
  'POST /workspaces/:id/rename': { action: 'workspace.renamed', objectType: 'workspace', id, workspace: 'param', fields: ['name'] },
  'POST /workspaces/:id/vpn': {
    action: 'workspace.vpn_profile_set',
    objectType: 'workspace',
    id,
    workspace: 'param',
    fields: ['vpn_profile_uuid'],
  },
  'POST /vpn-profiles': { action: 'vpn_profile.created', objectType: 'vpn_profile', fields: ['name', 'type', 'host', 'port'] },
  'POST /vpn-profiles/:uuid/delete': { action: 'vpn_profile.deleted', objectType: 'vpn_profile', id: { param: 'uuid' } },
  'POST /workspaces/:id/members': { action: 'member.added', objectType: 'user', workspace: 'param', fields: MEMBER },
  'POST /workspaces/:id/members/:userId/role': {
    action: 'member.changed',
    objectType: 'user',
    id: { param: 'userId' },
    workspace: 'param',
    fields: ['role'],
  },
  'POST /workspaces/:id/members/:userId/remove': {
    action: 'member.removed',
    objectType: 'user',
    id: { param: 'userId' },
    workspace: 'param',
  },
  'POST /workspaces/:id/invitations': {
    action: 'invitation.created',
    objectType: 'invitation',
    workspace: 'param',
    fields: ['role'],
    done: [200],
  },
  'POST /workspaces/:id/invitations/:invitationId/revoke': {
    action: 'invitation.revoked',
    objectType: 'invitation',
    id: { param: 'invitationId' },
    workspace: 'param',
  },
}
