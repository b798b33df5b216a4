// Every authenticated route of the API with the ids it takes, for the tenancy and bad-input tables.
export interface RouteCase {
  method: string
  path: (id: number) => string
  kind: 'target' | 'scan' | 'finding' | 'workspace' | 'schedule' | 'integration' | 'none'
  body?: (id: number) => unknown
}

export const ID_ROUTES: RouteCase[] = [
  { method: 'GET', path: (id) => `/api/v2/targets/${id}`, kind: 'target' },
  { method: 'DELETE', path: (id) => `/api/v2/targets/${id}`, kind: 'target' },
  { method: 'GET', path: (id) => `/api/v2/scans/${id}`, kind: 'scan' },
  { method: 'DELETE', path: (id) => `/api/v2/scans/${id}`, kind: 'scan' },
  { method: 'POST', path: (id) => `/api/v2/scans/${id}/stop`, kind: 'scan' },
  { method: 'GET', path: (id) => `/api/v2/scans/${id}/output`, kind: 'scan' },
  { method: 'GET', path: (id) => `/api/v2/scans/${id}/raw`, kind: 'scan' },
  { method: 'GET', path: (id) => `/api/v2/scans/${id}/tests`, kind: 'scan' },
  { method: 'GET', path: (id) => `/api/v2/scans/${id}/changes`, kind: 'scan' },
  { method: 'GET', path: (id) => `/api/v2/findings/${id}`, kind: 'finding' },
  { method: 'GET', path: (id) => `/api/v2/findings/${id}/tests`, kind: 'finding' },
  { method: 'POST', path: (id) => `/api/v2/workspaces/${id}/activate`, kind: 'workspace' },
  {
    method: 'PATCH',
    path: (id) => `/api/v2/findings/${id}`,
    kind: 'finding',
    body: () => ({ status: 'accepted', reason: 'tenancy probe' }),
  },
  { method: 'GET', path: (id) => `/api/v2/findings/${id}/history`, kind: 'finding' },
  { method: 'GET', path: (id) => `/api/v2/findings/${id}/lifecycle`, kind: 'finding' },
  { method: 'GET', path: (id) => `/api/v2/scans/${id}/callbacks`, kind: 'scan' },
  { method: 'GET', path: (id) => `/api/v2/schedules/${id}`, kind: 'schedule' },
  {
    method: 'PATCH',
    path: (id) => `/api/v2/schedules/${id}`,
    kind: 'schedule',
    body: () => ({ name: 'tenancy probe', interval_minutes: 5 }),
  },
  { method: 'POST', path: (id) => `/api/v2/schedules/${id}/pause`, kind: 'schedule' },
  { method: 'POST', path: (id) => `/api/v2/schedules/${id}/resume`, kind: 'schedule' },
  { method: 'POST', path: (id) => `/api/v2/schedules/${id}/run`, kind: 'schedule' },
  { method: 'GET', path: (id) => `/api/v2/integrations/${id}`, kind: 'integration' },
  { method: 'PATCH', path: (id) => `/api/v2/integrations/${id}`, kind: 'integration', body: () => ({ name: 'tenancy probe' }) },
  { method: 'DELETE', path: (id) => `/api/v2/integrations/${id}`, kind: 'integration' },
  { method: 'POST', path: (id) => `/api/v2/integrations/${id}/test`, kind: 'integration' },
  { method: 'GET', path: (id) => `/api/v2/integrations/${id}/deliveries`, kind: 'integration' },
  { method: 'DELETE', path: (id) => `/api/v2/schedules/${id}`, kind: 'schedule' },
  {
    method: 'POST',
    path: () => `/api/v2/schedules`,
    kind: 'target',
    body: (id) => ({ tool_id: 9001, target_id: id, interval_minutes: 60 }),
  },
  {
    method: 'POST',
    path: () => `/api/v2/schedules`,
    kind: 'workspace',
    body: (id) => ({ tool_id: 9001, target_type: 'hostname', workspace_id: id, interval_minutes: 60 }),
  },
  { method: 'POST', path: () => `/api/v2/scans`, kind: 'target', body: (id) => ({ tool_id: 9001, target_id: id }) },
  { method: 'POST', path: () => `/api/v2/targets`, kind: 'workspace', body: (id) => ({ name: 'tenancy.example', workspace_id: id }) },
  {
    method: 'POST',
    path: () => `/api/v2/scans`,
    kind: 'workspace',
    body: (id) => ({ tool_id: 9001, target_name: 'tenancy2.example', workspace_id: id }),
  },
]

export const LIST_ROUTES = ['/api/v2/targets', '/api/v2/scans', '/api/v2/findings', '/api/v2/workspaces', '/api/v2/schedules']
