// GitHub and GitLab issues: the same ticket rules as Jira, with labels. Issues are listed by label
// (not through a search index, which lags behind a create), in every state.
import type { ChannelContext } from './context.js'
import { expectOk, httpRequest } from './http.js'
import { ticketBody, ticketTitle, type TicketSystem } from './ticket-system.js'

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH'

function caller(ctx: ChannelContext, base: string, headers: Record<string, string>, name: string) {
  return async (method: Method, path: string, body?: unknown) =>
    expectOk(
      await httpRequest(ctx.transport, ctx.timeoutMs, method, `${base}${path}`, {
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      `${name} ${method} ${path.split('?')[0]}`,
    ).json
}

export function githubSystem(ctx: ChannelContext): TicketSystem {
  const c = ctx.integ.plain as { repo: string; token: string; api_url?: string }
  const call = caller(
    ctx,
    `${(c.api_url ?? 'https://api.github.com').replace(/\/+$/, '')}/repos/${c.repo}`,
    { authorization: `Bearer ${c.token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
    'GitHub',
  )
  type Issue = { number: number; html_url: string; state: string; pull_request?: unknown }
  const ticket = (i: Issue) => ({ id: String(i.number), url: i.html_url, closed: i.state === 'closed' })
  return {
    async find(label) {
      const list = (await call('GET', `/issues?labels=${encodeURIComponent(label)}&state=all&per_page=5`)) as Issue[]
      const i = list.find((x) => !x.pull_request)
      return i ? ticket(i) : null
    },
    create: async (f, scanId) =>
      ticket((await call('POST', '/issues', { title: ticketTitle(f), body: ticketBody(f, scanId), labels: ['ward', f.label] })) as Issue),
    async comment(id, text) {
      await call('POST', `/issues/${id}/comments`, { body: text })
    },
    reopen: async (id) => !!(await call('PATCH', `/issues/${id}`, { state: 'open' })),
    resolve: async () => false,
  }
}

export function gitlabSystem(ctx: ChannelContext): TicketSystem {
  const c = ctx.integ.plain as { base_url: string; project: string; token: string }
  const call = caller(
    ctx,
    `${c.base_url.replace(/\/+$/, '')}/api/v4/projects/${encodeURIComponent(c.project)}`,
    { 'private-token': c.token, accept: 'application/json' },
    'GitLab',
  )
  type Issue = { iid: number; web_url: string; state: string }
  const ticket = (i: Issue) => ({ id: String(i.iid), url: i.web_url, closed: i.state === 'closed' })
  return {
    async find(label) {
      const list = (await call('GET', `/issues?labels=${encodeURIComponent(label)}&scope=all&per_page=5`)) as Issue[]
      return list[0] ? ticket(list[0]) : null
    },
    create: async (f, scanId) =>
      ticket(
        (await call('POST', '/issues', { title: ticketTitle(f), description: ticketBody(f, scanId), labels: `ward,${f.label}` })) as Issue,
      ),
    async comment(id, text) {
      await call('POST', `/issues/${id}/notes`, { body: text })
    },
    reopen: async (id) => !!(await call('PUT', `/issues/${id}`, { state_event: 'reopen' })),
    resolve: async () => false,
  }
}
