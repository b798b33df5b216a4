// Jira through REST API v2 (served by Jira Cloud and Data Center): search by label, create, comment,
// transition, and the `ward` entity property on each issue Ward created (its dedup key and label).
import type { ChannelContext } from './context.js'
import { expectOk, httpRequest } from './http.js'
import { ticketBody, ticketTitle, type Ticket, type TicketSystem } from './ticket-system.js'

interface JiraIssue {
  id: string
  key: string
  fields?: { status?: { statusCategory?: { key?: string } } }
}

export function jiraSystem(ctx: ChannelContext): TicketSystem {
  const c = ctx.integ.plain as {
    base_url: string
    project_key: string
    issue_type?: string
    auth: { email?: string; api_token?: string; bearer?: string }
    priorities?: Record<string, string>
    resolve_transition?: string
    reopen_transition?: string
  }
  const base = c.base_url.replace(/\/+$/, '')
  const auth = c.auth.bearer ? `Bearer ${c.auth.bearer}` : `Basic ${Buffer.from(`${c.auth.email}:${c.auth.api_token}`).toString('base64')}`
  const call = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) =>
    expectOk(
      await httpRequest(ctx.transport, ctx.timeoutMs, method, `${base}/rest/api/2${path}`, {
        headers: { authorization: auth, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      `Jira ${method} ${path.split('?')[0]}`,
    )
  const browse = (key: string) => `${base}/browse/${key}`
  const jqlString = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`
  const transition = async (key: string, wanted: string | undefined) => {
    if (!wanted) return false
    const list =
      ((await call('GET', `/issue/${encodeURIComponent(key)}/transitions`)).json as { transitions?: Array<{ id: string; name: string }> })
        .transitions ?? []
    const t = list.find((x) => x.id === wanted || x.name.toLowerCase() === wanted.toLowerCase())
    if (!t) return false
    await call('POST', `/issue/${encodeURIComponent(key)}/transitions`, { transition: { id: t.id } })
    return true
  }
  return {
    async find(label) {
      const jql = `project = ${jqlString(c.project_key)} AND labels = ${jqlString(label)} ORDER BY created ASC`
      const r = (await call('GET', `/search?jql=${encodeURIComponent(jql)}&fields=status,labels&maxResults=1`)).json as {
        issues?: JiraIssue[]
      }
      const i = r.issues?.[0]
      return i ? { id: i.key, url: browse(i.key), closed: i.fields?.status?.statusCategory?.key === 'done' } : null
    },
    async create(f, scanId): Promise<Ticket> {
      const priority = c.priorities?.[String(f.risk_level)]
      const fields = {
        project: { key: c.project_key },
        summary: ticketTitle(f),
        description: ticketBody(f, scanId),
        issuetype: { name: c.issue_type ?? 'Bug' },
        labels: ['ward', f.label],
        ...(priority ? { priority: { name: priority } } : {}),
      }
      const made = (await call('POST', '/issue', { fields })).json as { id: string; key: string }
      // The entity property is a second marker where the site supports it; the label is the one relied on.
      await call('PUT', `/issue/${encodeURIComponent(made.key)}/properties/ward`, { dedup_key: f.dedup_key, label: f.label }).catch(
        () => {},
      )
      return { id: made.key, url: browse(made.key), closed: false }
    },
    async comment(key, text) {
      await call('POST', `/issue/${encodeURIComponent(key)}/comment`, { body: text })
    },
    reopen: (key) => transition(key, c.reopen_transition),
    resolve: (key) => transition(key, c.resolve_transition),
  }
}
