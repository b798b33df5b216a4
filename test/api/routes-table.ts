// Every route of the app that reaches a workspace's data — API and web, by id or through the active
// workspace — with the ids it takes and who may use it, for the tenancy matrix and bad-input tables.
// test/api/tenancy.test.ts fails when the app serves a route this table neither covers nor exempts.

/** The ids of one workspace's objects (and the other things a route may name) that a case points at. */
export interface Fixtures {
  target: number
  scan: number
  finding: number
  workspace: number
  schedule: number
  integration: number
  settings: number
  /** A member of the workspace whose role the member routes change (user id). */
  member: number
  invitation: number
  /** A VPN profile of the workspace's owner (profiles belong to a user, not a workspace). */
  vpn: string
  /** An API key of the workspace's owner. */
  key: number
  /** A user the instance-admin routes act on. */
  user: number
  template: string
  none: number
}
export type Kind = keyof Fixtures

/** Ids no principal can see, per kind: a refusal must look exactly like the answer for these. */
export const MISSING: Fixtures = {
  target: 999999,
  scan: 999999,
  finding: 999999,
  workspace: 999999,
  schedule: 999999,
  integration: 999999,
  settings: 999999,
  member: 999999,
  invitation: 999999,
  vpn: '00000000-0000-4000-8000-000000000000',
  key: 999999,
  user: 999999,
  template: 'no-such-template',
  none: 0,
}

/**
 * Who may use a route (decisions.md, src/domain/access.ts): a workspace a caller is not a member of
 * does not exist for them (404 like an unknown id); a viewer reads, and any change is 403.
 * - read: every member; write: owners and members (viewer 403); owner: owners only (member, viewer 403);
 * - creator: only the user who made the object (profiles and keys are a user's own): everyone else 404;
 * - admin: instance admins; everyone else 403;
 * - global: every signed-in user (the templates catalogue);
 * - page: every signed-in user, answered from their own workspaces (lists, the active workspace's
 *   pages): a non-member's answer must show nothing of the workspace;
 * - active: a change in the caller's active workspace: owners and members succeed, a viewer gets 403,
 *   and nobody else's call lands in the workspace.
 */
export type Access = 'read' | 'write' | 'owner' | 'creator' | 'admin' | 'global' | 'page' | 'active'

export interface RouteCase {
  method: string
  /** The URL for `id` (of `kind`), the other fixtures at hand. */
  path: (id: any, o: Fixtures) => string
  /** Which fixture `id` is: a refused call must answer like the same call with MISSING[kind]. */
  kind: Kind
  body?: (id: any, o: Fixtures) => unknown
  /** Default: read for GET, write otherwise. */
  access?: Access
  /** A success uses up (deletes) its object: each allowed principal gets a fresh one of this kind. */
  fresh?: Kind
  /** The answer for an id the caller cannot see, when it is not 404 (a bulk form skips what it cannot see). */
  unknown?: number
}

/** The loopback receiver of the test's webhook integrations (set by the test that opens it): no name is ever resolved. */
export const hook = { url: 'http://127.0.0.1:9/unset' }

let n = 0
/** A name no earlier call used (creates by several principals must not collide with 409). */
export const uniq = (p = 't') => `${p}${++n}x${process.pid}`

const api = '/api/v2'
/** A case whose URL names `{id}` (of `kind`), and maybe the workspace's `{member}` or `{invitation}`. */
const route = (method: string, url: string, kind: Kind, more: Partial<RouteCase> = {}): RouteCase => ({
  method,
  path: (id, o) => url.replace('{id}', String(id)).replace('{member}', String(o.member)).replace('{invitation}', String(o.invitation)),
  kind,
  ...more,
})
const idRoute = (method: string, suffix: string, kind: Kind, more: Partial<RouteCase> = {}) => route(method, `${api}${suffix}`, kind, more)
const quick = { tool_params: { steps: 1, step_ms: 1 } }

/** The API routes with an id in their path or body. */
export const ID_ROUTES: RouteCase[] = [
  idRoute('GET', '/targets/{id}', 'target'),
  idRoute('DELETE', '/targets/{id}', 'target', { fresh: 'target' }),
  idRoute('GET', '/scans/{id}', 'scan'),
  idRoute('DELETE', '/scans/{id}', 'scan', { fresh: 'scan' }),
  idRoute('POST', '/scans/{id}/stop', 'scan'),
  idRoute('GET', '/scans/{id}/output', 'scan'),
  idRoute('GET', '/scans/{id}/raw', 'scan'),
  idRoute('GET', '/scans/{id}/tests', 'scan'),
  idRoute('GET', '/scans/{id}/changes', 'scan'),
  idRoute('GET', '/scans/{id}/callbacks', 'scan'),
  idRoute('GET', '/findings/{id}', 'finding'),
  idRoute('GET', '/findings/{id}/tests', 'finding'),
  idRoute('GET', '/findings/{id}/history', 'finding'),
  idRoute('GET', '/findings/{id}/lifecycle', 'finding'),
  idRoute('PATCH', '/findings/{id}', 'finding', { body: () => ({ status: 'accepted', reason: 'tenancy probe' }) }),
  // Making a workspace one's active one changes only the caller's own setting: every member may.
  idRoute('POST', '/workspaces/{id}/activate', 'workspace', { access: 'read' }),
  idRoute('DELETE', '/workspaces/{id}', 'workspace', { access: 'owner', fresh: 'workspace' }),
  idRoute('PUT', '/workspaces/{id}/vpn_profile', 'workspace', { body: () => ({ vpn_profile_uuid: null }) }),
  idRoute('GET', '/workspaces/{id}/members', 'workspace'),
  idRoute('POST', '/workspaces/{id}/members', 'workspace', { access: 'owner', body: () => ({ user_name: 'hank', role: 'viewer' }) }),
  idRoute('PATCH', '/workspaces/{id}/members/{member}', 'workspace', {
    access: 'owner',
    body: () => ({ role: 'viewer' }),
    fresh: 'member',
  }),
  idRoute('DELETE', '/workspaces/{id}/members/{member}', 'workspace', { access: 'owner', fresh: 'member' }),
  idRoute('POST', '/workspaces/{id}/invitations', 'workspace', { access: 'owner', body: () => ({ role: 'viewer' }) }),
  idRoute('GET', '/workspaces/{id}/invitations', 'workspace', { access: 'owner' }),
  idRoute('DELETE', '/workspaces/{id}/invitations/{invitation}', 'workspace', { access: 'owner', fresh: 'invitation' }),
  idRoute('GET', '/schedules/{id}', 'schedule'),
  idRoute('PATCH', '/schedules/{id}', 'schedule', { body: () => ({ name: 'tenancy probe', interval_minutes: 5 }) }),
  idRoute('POST', '/schedules/{id}/pause', 'schedule'),
  idRoute('POST', '/schedules/{id}/resume', 'schedule'),
  idRoute('POST', '/schedules/{id}/run', 'schedule'),
  idRoute('DELETE', '/schedules/{id}', 'schedule', { fresh: 'schedule' }),
  idRoute('GET', '/integrations/{id}', 'integration'),
  idRoute('PATCH', '/integrations/{id}', 'integration', { body: () => ({ name: 'tenancy probe', config: { url: hook.url } }) }),
  idRoute('POST', '/integrations/{id}/test', 'integration'),
  idRoute('GET', '/integrations/{id}/deliveries', 'integration'),
  idRoute('DELETE', '/integrations/{id}', 'integration', { fresh: 'integration' }),
  idRoute('GET', '/scan-settings/{id}', 'settings'),
  idRoute('PATCH', '/scan-settings/{id}', 'settings', { body: () => ({ name: uniq('renamed') }) }),
  idRoute('DELETE', '/scan-settings/{id}', 'settings', { fresh: 'settings' }),
  idRoute('GET', '/vpn_profiles/{id}', 'vpn', { access: 'creator' }),
  idRoute('DELETE', '/vpn_profiles/{id}', 'vpn', { access: 'creator', fresh: 'vpn' }),
  idRoute('GET', '/templates/{id}', 'template', { access: 'global' }),
  idRoute('POST', '/users/{id}/disable', 'user', { access: 'admin' }),
  idRoute('POST', '/users/{id}/enable', 'user', { access: 'admin' }),
  idRoute('POST', '/users/{id}/admin', 'user', { access: 'admin' }),
  idRoute('POST', '/users/{id}/admin/revoke', 'user', { access: 'admin' }),
  // Ids in the body: a scan, schedule, target or settings made from another workspace's object.
  idRoute('POST', '/schedules', 'target', { body: (id) => ({ tool_id: 9001, target_id: id, interval_minutes: 60, ...quick }) }),
  idRoute('POST', '/schedules', 'workspace', {
    body: (id) => ({ tool_id: 9001, target_type: 'hostname', workspace_id: id, interval_minutes: 60, ...quick }),
  }),
  idRoute('POST', '/scans', 'target', { body: (id) => ({ tool_id: 9001, target_id: id, ...quick }) }),
  idRoute('POST', '/scans', 'workspace', {
    body: (id) => ({ tool_id: 9001, target_name: `${uniq()}.example`, workspace_id: id, ...quick }),
  }),
  idRoute('POST', '/scans', 'scan', { body: (id) => ({ from_scan_id: id }) }),
  idRoute('POST', '/targets', 'workspace', { body: (id) => ({ name: `${uniq()}.example`, workspace_id: id }) }),
  idRoute('POST', '/scan-settings', 'workspace', { body: (id) => ({ name: uniq('s'), tool_id: 9001, workspace_id: id, ...quick }) }),
  idRoute('POST', '/scan-settings', 'scan', { body: (id) => ({ name: uniq('s'), from_scan_id: id }) }),
  idRoute('POST', '/integrations', 'workspace', {
    body: (id) => ({ type: 'webhook', name: uniq('i'), config: { url: hook.url }, enabled: false, workspace_id: id }),
  }),
  // Changes in the caller's active workspace, no id named.
  idRoute('POST', '/targets', 'none', { access: 'active', body: () => ({ name: `${uniq()}.example` }) }),
  idRoute('POST', '/scans', 'none', { access: 'active', body: () => ({ tool_id: 9001, target_name: `${uniq()}.example`, ...quick }) }),
]

/** API lists: every caller gets 200 and only their own workspaces' data. */
export const LIST_ROUTES = ['/api/v2/targets', '/api/v2/scans', '/api/v2/findings', '/api/v2/workspaces', '/api/v2/schedules']

const page = (url: string | ((o: Fixtures) => string), access: Access = 'page'): RouteCase => ({
  method: 'GET',
  path: (_id, o) => (typeof url === 'string' ? url : url(o)),
  kind: 'none',
  access,
})

/** Lists and pages of the caller's own (or active) workspaces, API and web, with filters naming the workspace's ids. */
export const PAGE_ROUTES: RouteCase[] = [
  ...LIST_ROUTES.map((u) => page(u)),
  page('/api/v2/integrations'),
  page('/api/v2/scan-settings'),
  page('/api/v2/vpn_profiles'),
  page('/api/v2/audit'),
  page('/api/v2/tools'),
  page('/api/v2/templates'),
  page((o) => `/api/v2/findings?task_id=${o.scan}`),
  page((o) => `/api/v2/findings?target_id=${o.target}`),
  page((o) => `/api/v2/scans?target_id=${o.target}`),
  page((o) => `/api/v2/scans?workspace_id=${o.workspace}`),
  page((o) => `/api/v2/audit?workspace_id=${o.workspace}`),
  page((o) => `/api/v2/integrations?workspace_id=${o.workspace}`),
  page((o) => `/api/v2/scan-settings?workspace_id=${o.workspace}`),
  page('/api/v2/users', 'admin'),
  page('/api/v2/instance/workspaces', 'admin'),
  ...[
    '/',
    '/dashboard/live',
    '/scans',
    '/scans/new',
    '/targets',
    '/findings',
    '/findings/export.csv',
    '/findings/export.sarif',
    '/findings/export.json',
    '/schedules',
    '/integrations',
    '/scan-settings',
    '/vpn-profiles',
    '/workspaces',
    '/profile',
    '/templates',
    '/audit',
  ].map((u) => page(u)),
  page((o) => `/findings?target_id=${o.target}`),
  page((o) => `/scans?target_id=${o.target}`),
  page((o) => `/scans/new?target_id=${o.target}`),
  page('/users', 'admin'),
]

const web = route

/** The web interface's pages, fragments, downloads and forms that name an id. */
export const WEB_ROUTES: RouteCase[] = [
  web('GET', '/scans/{id}', 'scan'),
  web('GET', '/scans/{id}/live', 'scan'),
  web('GET', '/scans/{id}/progress', 'scan'),
  web('GET', '/scans/{id}/report.pdf', 'scan'),
  web('GET', '/scans/{id}/output.json', 'scan'),
  web('GET', '/scans/{id}/changes', 'scan'),
  web('POST', '/scans/{id}/stop', 'scan'),
  web('POST', '/scans/{id}/delete', 'scan', { fresh: 'scan' }),
  web('GET', '/scans/new?from_scan_id={id}', 'scan'),
  web('GET', '/targets/{id}', 'target'),
  web('POST', '/targets/{id}/delete', 'target', { fresh: 'target' }),
  web('GET', '/findings/{id}', 'finding'),
  web('POST', '/findings/{id}/triage', 'finding', { body: () => ({ status: 'accepted', reason: 'tenancy probe' }) }),
  web('GET', '/templates/{id}', 'template', { access: 'global' }),
  web('POST', '/integrations/{id}', 'integration', {
    body: () => ({ name: 'tenancy probe', config: JSON.stringify({ url: hook.url }) }),
  }),
  web('POST', '/integrations/{id}/enabled', 'integration', { body: () => ({ enabled: '' }) }),
  web('POST', '/integrations/{id}/test', 'integration'),
  web('POST', '/integrations/{id}/delete', 'integration', { fresh: 'integration' }),
  web('POST', '/workspaces/{id}/rename', 'workspace', { access: 'owner', body: () => ({ name: uniq('renamed') }) }),
  web('POST', '/workspaces/{id}/activate', 'workspace', { access: 'read' }),
  web('POST', '/workspaces/{id}/vpn', 'workspace', { body: () => ({ vpn_profile_uuid: '' }) }),
  web('POST', '/workspaces/{id}/delete', 'workspace', { access: 'owner', fresh: 'workspace' }),
  web('GET', '/workspaces/{id}/members', 'workspace'),
  web('POST', '/workspaces/{id}/members', 'workspace', { access: 'owner', body: () => ({ user_name: 'ivan', role: 'viewer' }) }),
  web('POST', '/workspaces/{id}/members/{member}/role', 'workspace', {
    access: 'owner',
    body: () => ({ role: 'member' }),
    fresh: 'member',
  }),
  web('POST', '/workspaces/{id}/members/{member}/remove', 'workspace', { access: 'owner', fresh: 'member' }),
  web('POST', '/workspaces/{id}/invitations', 'workspace', { access: 'owner', body: () => ({ role: 'viewer' }) }),
  web('POST', '/workspaces/{id}/invitations/{invitation}/revoke', 'workspace', { access: 'owner', fresh: 'invitation' }),
  web('POST', '/scan-settings/{id}/rename', 'settings', { body: () => ({ name: uniq('renamed') }) }),
  web('POST', '/scan-settings/{id}/delete', 'settings', { fresh: 'settings' }),
  web('POST', '/schedules/{id}/pause', 'schedule'),
  web('POST', '/schedules/{id}/resume', 'schedule'),
  web('POST', '/schedules/{id}/run', 'schedule'),
  web('POST', '/schedules/{id}/delete', 'schedule', { fresh: 'schedule' }),
  web('POST', '/vpn-profiles/{id}/delete', 'vpn', { access: 'creator', fresh: 'vpn' }),
  web('POST', '/profile/keys/{id}/revoke', 'key', { access: 'creator', fresh: 'key' }),
  web('POST', '/users/{id}/disable', 'user', { access: 'admin' }),
  web('POST', '/users/{id}/enable', 'user', { access: 'admin' }),
  web('POST', '/users/{id}/admin', 'user', { access: 'admin' }),
  web('POST', '/users/{id}/admin/revoke', 'user', { access: 'admin' }),
  // Ids in the form.
  web('POST', '/scans/new', 'target', { body: (id) => ({ tool_id: '9001', target_id: String(id), steps: '1', step_ms: '1' }) }),
  web('POST', '/scans/new', 'workspace', {
    body: (id) => ({ tool_id: '9001', target_name: `${uniq()}.example`, workspace_id: String(id), steps: '1', step_ms: '1' }),
  }),
  web('POST', '/scan-settings', 'scan', { body: (id) => ({ name: uniq('s'), from_scan_id: String(id) }) }),
  web('POST', '/scan-settings/from-form', 'workspace', {
    body: (id) => ({ settings_name: uniq('s'), tool_id: '9001', workspace_id: String(id) }),
  }),
  web('POST', '/schedules', 'target', {
    body: (id) => ({ tool_id: '9001', target_id: String(id), timing: 'interval', interval_minutes: '60' }),
  }),
  web('POST', '/findings/bulk', 'finding', { body: (id) => ({ ids: String(id), status: 'accepted' }), unknown: 303 }),
  // Changes in the active workspace, no id named.
  web('POST', '/targets', 'none', { access: 'active', body: () => ({ name: `${uniq()}.example` }) }),
  web('POST', '/integrations', 'none', {
    access: 'active',
    body: () => ({ type: 'webhook', name: uniq('i'), config: JSON.stringify({ url: hook.url }) }),
  }),
]

/**
 * Routes that reach no workspace's data, with why: the matrix leaves them out, and a route that is
 * neither here nor in a table above fails the tenancy test.
 */
export const EXEMPT: Array<{ method: string; url: string; why: string }> = [
  ...['/metrics', '/healthz', '/readyz'].map((url) => ({ method: 'GET', url, why: 'operator endpoints, no workspace data' })),
  { method: 'GET', url: '/assets/:name', why: 'static files' },
  ...['/api/v2/docs', '/api/v2/docs/static/index.html', '/api/v2/docs/static/swagger-initializer.js', '/api/v2/docs/static/*'].map(
    (url) => ({ method: 'GET', url, why: 'the API documentation' }),
  ),
  ...['/api/v2/docs/json', '/api/v2/docs/yaml', '/api/v2/openapi.json'].map((url) => ({
    method: 'GET',
    url,
    why: 'the API documentation',
  })),
  { method: 'GET', url: '/sign-in', why: 'public' },
  { method: 'POST', url: '/sign-in', why: 'public' },
  { method: 'POST', url: '/sign-out', why: "ends the caller's own session" },
  { method: 'GET', url: '/set-password/:token', why: 'the token is the credential (test/web/set-password.test.ts)' },
  { method: 'POST', url: '/set-password/:token', why: 'the token is the credential (test/web/set-password.test.ts)' },
  { method: 'GET', url: '/invite/:token', why: 'the token is the credential (test/web/invitations.test.ts)' },
  { method: 'POST', url: '/invite/:token', why: 'the token is the credential (test/web/invitations.test.ts)' },
  { method: 'POST', url: '/invite/:token/account', why: 'the token is the credential (test/web/invitations.test.ts)' },
  { method: 'POST', url: '/profile/keys', why: 'a key for the caller themself' },
  { method: 'POST', url: '/profile/password', why: "the caller's own password" },
  { method: 'POST', url: '/workspaces', why: 'a new workspace of the caller' },
  { method: 'POST', url: '/api/v2/workspaces', why: 'a new workspace of the caller' },
  { method: 'POST', url: '/vpn-profiles', why: 'a new profile of the caller (profiles are per user)' },
  { method: 'POST', url: '/api/v2/vpn_profiles', why: 'a new profile of the caller (profiles are per user)' },
]
