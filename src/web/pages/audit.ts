// The Audit page: the audit log of the workspaces the signed-in person owns (and their own sign-ins
// and keys; an instance admin reads every entry, and the intro says which), newest first, filtered
// by action or workspace. Every value is escaped by the html tag.
import type { FastifyInstance } from 'fastify'
import { listAudit } from '../../store/audit.js'
import { toApiTime } from '../../store/time.js'
import { userOf, type WebContext } from '../context.js'
import { html, option, tableHead } from '../html.js'
import { page } from '../layout.js'
import { sendPage } from '../respond.js'
import { workspacesOf } from '../workspace.js'
import { pageOf, pager } from './targets.js'

const PAGE = 50

export function auditPages(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx
  app.get('/audit', async (req, reply) => {
    const u = userOf(req)
    const q = req.query as Record<string, string>
    const action = /^[a-z_.]{1,100}$/.test(q.action ?? '') ? q.action : undefined
    const wsId = /^\d{1,15}$/.test(q.workspace_id ?? '') ? Number(q.workspace_id) : undefined
    const pageNo = pageOf(q.page)
    const [ws, rows] = await Promise.all([
      workspacesOf(db, u),
      listAudit(db, u.userId, { action, workspaceId: wsId, limit: PAGE + 1, page: pageNo }),
    ])
    const names = new Map(ws.all.map((w) => [w.id, w.name]))
    const body = html`<h1>Audit log</h1>
${
  u.isAdmin
    ? html`<p class="muted" data-testid="audit-intro">${[
        html`As an instance admin you see every entry of this Ward: all workspaces, not only the ones you own, `,
        html`every sign-in and key, and changes of users and deleted workspaces. `,
        html`Owners who are not admins see only their own workspaces' entries and their own sign-ins and keys. Entries are never changed.`,
      ]}</p>`
    : html`<p class="muted" data-testid="audit-intro">${[
        html`Who signed in, created, started, stopped, deleted or triaged what, in the workspaces you own, `,
        html`and your own sign-ins and keys. Entries are never changed.`,
      ]}</p>`
}
<form method="get" action="/audit" class="filters">
  <div><label for="a-action">Action</label><input type="text" id="a-action" name="action" value="${action ?? ''}" placeholder="scan.started"></div>
  <div><label for="a-ws">Workspace</label><select id="a-ws" name="workspace_id"><option value="">all</option>${[
    ws.all.filter((w) => w.role === 'owner').map((w) => option(w.id, w.name, w.id === wsId)),
  ]}</select></div>
  <button type="submit" class="secondary">Filter</button>
</form>
${
  rows.length
    ? html`<div class="table-wrap"><table data-testid="audit">${[
        tableHead('When', 'Who', 'From', 'Action', 'Object', 'Workspace', 'What changed'),
      ]}<tbody>${rows.slice(0, PAGE).map((e) => {
        const wsName = e.workspace_id === null ? '' : (names.get(e.workspace_id) ?? e.workspace_id)
        return html`<tr><td>${toApiTime(e.at)}</td><td>${e.actor}</td><td>${e.client ?? ''}</td><td>${e.action}</td>${[
          html`<td>${e.object_type ?? ''} ${e.object_id ?? ''}</td><td>${wsName}</td>`,
          html`<td><code>${e.details === '{}' ? '' : e.details}</code></td>`,
        ]}</tr>`
      })}</tbody></table></div>${pager('/audit', { action, workspace_id: wsId }, pageNo, rows.length > PAGE)}`
    : html`<p>No entries${action || wsId ? ' match these filters' : ' yet'}.</p>`
}`
    return sendPage(reply, page(req, 'Audit log', body, { section: 'audit', workspace: ws }))
  })
}
