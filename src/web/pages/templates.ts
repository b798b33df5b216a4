// The Templates page: the check templates the operator imported (and Ward's shipped ones), searched
// and filtered by tag and severity, and one template's text. Read only for every signed-in user:
// importing is an operator's act (ward admin templates import). Template text is scanner-supplied
// and hostile: every value goes through the html tag's escaping, the YAML inside <pre>.
import type { FastifyInstance } from 'fastify'
import { getTemplate, listTemplates } from '../../store/templates.js'
import { userOf, type WebContext } from '../context.js'
import { html, option, tableHead } from '../html.js'
import { page } from '../layout.js'
import { sendPage } from '../respond.js'
import { workspacesOf } from '../workspace.js'
import { WardError } from '../../domain/errors.js'
import { pageOf, pager } from './targets.js'

const PAGE = 50
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const
const tagsOf = (s: string) => s.split(',').filter(Boolean)

export function templatePages(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx
  app.get('/templates', async (req, reply) => {
    const u = userOf(req)
    const query = req.query as Record<string, string>
    const q = typeof query.q === 'string' ? query.q.trim().slice(0, 200) : ''
    const tag = /^[A-Za-z0-9._-]{1,100}$/.test(query.tag ?? '') ? query.tag!.toLowerCase() : ''
    const severity = (SEVERITIES as readonly string[]).includes(query.severity ?? '') ? query.severity! : ''
    const pageNo = pageOf(query.page)
    const [ws, { rows, total }] = await Promise.all([
      workspacesOf(db, u),
      listTemplates(db, {
        q: q || undefined,
        tags: tag ? [tag] : undefined,
        severities: severity ? [severity] : undefined,
        page: pageNo,
        limit: PAGE,
      }),
    ])
    const body = html`<h1>Templates</h1>
<p class="muted">${[
      html`Check templates (nuclei YAML format) the tools run: http templates in the Website Scanner, `,
      html`tcp/network and ssl in the Network Vulnerability Scanner, ssl in the SSL/TLS Scanner, dns in the Subdomain Finder. `,
      html`${total} ${total === 1 ? 'template matches' : 'templates match'}. Source <em>shipped</em>: Ward's own library; `,
      html`<em>imported</em>: added by an operator with <code>ward admin templates import</code> `,
      html`(an imported template replaces a shipped one of the same id).`,
    ]}</p>
<form method="get" action="/templates" class="filters" role="search">
  <div><label for="t-q">Search</label><input type="search" id="t-q" name="q" value="${q}" placeholder="id, name or description"></div>
  <div><label for="t-tag">Tag</label><input type="text" id="t-tag" name="tag" value="${tag}" placeholder="takeover"></div>
  <div><label for="t-sev">Severity</label><select id="t-sev" name="severity"><option value="">all</option>${[
    SEVERITIES.map((s) => option(s, s, s === severity)),
  ]}</select></div>
  <button type="submit" class="secondary">Filter</button>
</form>
${
  rows.length
    ? html`<div class="table-wrap"><table data-testid="templates">${[
        tableHead('Template', 'Name', 'Severity', 'Protocol', 'Tags', 'Source'),
      ]}<tbody>${rows.map((t) => {
        const tags = tagsOf(t.tags).map((g) => html`<a class="tag" href="/templates?tag=${encodeURIComponent(g)}">${g}</a> `)
        return html`<tr><td><a href="/templates/${encodeURIComponent(t.id)}">${t.id}</a></td><td>${t.name}</td>${[
          html`<td><span class="sev sev-${t.severity}">${t.severity}</span></td><td>${t.protocol}</td>`,
          html`<td>${tags}</td><td>${t.source}</td>`,
        ]}</tr>`
      })}</tbody></table></div>${[
        pager('/templates', { q: q || undefined, tag: tag || undefined, severity: severity || undefined }, pageNo, pageNo * PAGE < total),
      ]}`
    : html`<p>No templates${q || tag || severity ? ' match these filters' : ''}.</p>`
}`
    return sendPage(reply, page(req, 'Templates', body, { section: 'templates', workspace: ws }))
  })

  app.get('/templates/:id', async (req, reply) => {
    const u = userOf(req)
    const id = (req.params as { id: string }).id
    const t = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(id) ? await getTemplate(db, id) : undefined
    if (!t) throw new WardError(404, 'No such template')
    const ws = await workspacesOf(db, u)
    const body = html`<p><a href="/templates">← Templates</a></p>
<h1>${t.name}</h1>
<dl class="facts">
  <dt>Id</dt><dd><code>${t.id}</code> (findings: <code>template.${t.id}</code>)</dd>
  <dt>Severity</dt><dd><span class="sev sev-${t.severity}">${t.severity}</span></dd>
  <dt>Protocol</dt><dd>${t.protocol}</dd>
  <dt>Tags</dt><dd>${tagsOf(t.tags).map((g) => html`<a class="tag" href="/templates?tag=${encodeURIComponent(g)}">${g}</a> `)}</dd>
  <dt>Source</dt><dd data-testid="template-source">${t.source === 'shipped' ? 'shipped with Ward (its templates/ folder)' : 'imported by an operator'}</dd>
  <dt>File</dt><dd><code>${t.file_path}</code></dd>
  ${t.description ? html`<dt>Description</dt><dd>${t.description}</dd>` : ''}
  ${t.remediation ? html`<dt>Remediation</dt><dd>${t.remediation}</dd>` : ''}
</dl>
<h2>Template text</h2>
<pre class="template-text" data-testid="template-text"><code>${t.yaml}</code></pre>`
    return sendPage(reply, page(req, `Template ${t.id}`, body, { section: 'templates', workspace: ws }))
  })
}
