// Targets: list (type filter, search, paging), add (type inferred; the API's refusals as sentences), delete.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createTarget } from '../../domain/targets.js'
import { deleteTarget, getTarget } from '../../store/targets.js'
import { searchTargets } from '../../store/web-lists.js'
import { audited } from '../../store/audit.js'
import type { Db } from '../../store/db.js'
import { refusal } from '../../domain/access.js'
import { userOf, type WebContext } from '../context.js'
import { html, option, qs, tableHead } from '../html.js'
import { csrfField, page, postButton } from '../layout.js'
import { attempt, formOf, idOf, okMessage, sendPage } from '../respond.js'
import { workspacesOf } from '../workspace.js'

const PAGE = 50
const TYPES = [
  ['', 'any type'],
  ['hostname', 'host names'],
  ['ip_address', 'IP addresses'],
  ['url', 'URLs'],
] as const

/** A page number from the query (1 when absent or not a plain number). */
export const pageOf = (v: unknown) => (typeof v === 'string' && /^[1-9][0-9]{0,5}$/.test(v) ? Number(v) : 1)

export function pager(path: string, q: Record<string, string | number | undefined>, pageNo: number, more: boolean) {
  if (pageNo === 1 && !more) return ''
  const newer = pageNo > 1 ? html`<a href="${path}${qs({ ...q, page: pageNo - 1 })}">← Newer</a>` : ''
  const older = more ? html`<a href="${path}${qs({ ...q, page: pageNo + 1 })}">Older →</a>` : ''
  return html`<nav class="pager" aria-label="Pages">${newer}<span class="muted">page ${pageNo}</span>${older}</nav>`
}

export function targetPages(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx

  async function render(
    req: FastifyRequest,
    reply: FastifyReply,
    o: { error?: string; status?: number; name?: string; description?: string } = {},
  ) {
    const u = userOf(req)
    const query = req.query as Record<string, string>
    const type = TYPES.some(([t]) => t && t === query.type) ? query.type : ''
    const search = (query.q ?? '').slice(0, 200)
    const pageNo = pageOf(query.page)
    const ws = await workspacesOf(db, u)
    const rows = await searchTargets(db, u.userId, {
      workspaceId: ws.active?.id ?? 0,
      type: type || undefined,
      search: search || undefined,
      limit: PAGE + 1,
      page: pageNo,
    })
    const more = rows.length > PAGE
    const writes = ws.writes()
    const body = html`<h1>Targets</h1>
${
  writes
    ? html`<section class="card" aria-labelledby="add"><h2 id="add">Add a target</h2>
<form method="post" action="/targets" class="filters">${csrfField(req)}
  <div><label for="t-name">Host name, IP address or URL</label>${[
    html`<input type="text" id="t-name" name="name" required maxlength="2048" value="${o.name ?? ''}"`,
    html` placeholder="app.example.com, 192.0.2.10 or https://…">`,
  ]}</div>
  <div><label for="t-desc">Description (optional)</label>${[
    html`<input type="text" id="t-desc" name="description" maxlength="4096" value="${o.description ?? ''}">`,
  ]}</div>
  <button type="submit">Add target</button>
</form>
<p class="muted">The type is worked out from what you type. New targets go to the active workspace, <strong>${ws.activeName}</strong>.</p></section>`
    : ''
}
<form method="get" action="/targets" class="filters" role="search">
  <div><label for="f-q">Search</label><input type="search" id="f-q" name="q" value="${search}"></div>
  <div><label for="f-type">Type</label><select id="f-type" name="type">${TYPES.map(([v, l]) => option(v, l, v === type))}</select></div>
  <button type="submit" class="secondary">Filter</button>
</form>
${
  rows.length
    ? html`<div class="table-wrap"><table>${tableHead('Name', 'Type', 'Description', 'Id', '')}<tbody>
${rows.slice(0, PAGE).map(
  (t) => html`<tr data-target-id="${t.id}"><td><a href="/targets/${t.id}">${t.name}</a></td><td>${t.type}</td>${[
    html`<td>${t.description}</td><td class="num">${t.id}</td>`,
  ]}
<td class="row-actions">${
    writes
      ? html`<a class="button small secondary" href="/scans/new${qs({ target_id: t.id })}">Scan</a>
${postButton(req, `/targets/${t.id}/delete`, 'Delete', { cls: 'small danger', confirm: 'Delete this target with all its scans and findings?' })}`
      : ''
  }</td></tr>`,
)}</tbody></table></div>${pager('/targets', { q: search, type }, pageNo, more)}`
    : html`<p>No targets${search || type ? ' match these filters' : ' in this workspace yet'}.</p>`
}`
    return sendPage(
      reply,
      page(req, 'Targets', body, { section: 'targets', workspace: ws, ok: okMessage(req), error: o.error }),
      o.status ?? 200,
    )
  }

  app.get('/targets', async (req, reply) => render(req, reply))

  app.post('/targets', async (req, reply) => {
    const f = formOf(req)
    const input = { name: f.name ?? '', description: f.description ?? '' }
    const create = (trx: Db) => createTarget(trx, userOf(req), ctx.blocklist, input)
    const r = await attempt(() => audited(db, req.audit, create, (t) => ({ objectId: t.id })))
    if (!r.ok) return render(req, reply, { error: r.message, status: r.status, name: f.name, description: f.description })
    return reply.redirect('/targets?ok=target-added', 303)
  })

  app.post('/targets/:id/delete', async (req, reply) => {
    const [userId, id] = [userOf(req).userId, idOf((req.params as { id: string }).id, 'Target')]
    const r = await audited(
      db,
      req.audit,
      (trx) => deleteTarget(trx, userId, id),
      (r) => r === 'deleted',
    )
    if (r === 'missing') throw await refusal(getTarget(db, userId, id), 'Target')
    if (r === 'running')
      return render(req, reply, {
        error: 'This target has a running scan: stop the scan (Scans page) and delete the target once it has ended.',
        status: 409,
      })
    return reply.redirect('/targets?ok=target-deleted', 303)
  })
}
