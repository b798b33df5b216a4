// Saved scan settings: the workspace's named sets of tool parameters, with "start scan with…" and
// "schedule with…", saving from a finished scan, renaming and deleting (writers only; viewers read).
// Saving from the new-scan form is on that form (pages/scans.ts). Credentials are never shown.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { changeScanSettings, saveScanSettings } from '../../domain/scan-settings.js'
import { notFound } from '../../domain/errors.js'
import { changeLoaded } from '../loaded-change.js'
import { audited } from '../../store/audit.js'
import type { Db } from '../../store/db.js'
import { hideSealed } from '../../api/views.js'
import { deleteScanSettings, getScanSettings, listScanSettings } from '../../store/scan-settings.js'
import { getScan } from '../../store/scans.js'
import { toolName } from '../../tools/registry.js'
import { userOf, type WebContext } from '../context.js'
import { newScanWords } from '../form-words.js'
import { html, qs, tableHead } from '../html.js'
import { csrfField, page, postButton } from '../layout.js'
import { attempt, formOf, idOf, okMessage, sendPage } from '../respond.js'
import { when } from '../time.js'
import { workspacesOf } from '../workspace.js'
import type { FormRefusal } from '../form-page.js'

const SAVE_HOW = ' Save them from the new-scan form ("Save these settings for later") or from a scan’s page.'

/** Parameters in one line: "ports: 22,80; authentication: {…}" (credentials hidden). */
function paramsSummary(json: string): string {
  const shown = hideSealed(JSON.parse(json)) as Record<string, unknown>
  const text = Object.entries(shown)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('; ')
  return text.length > 300 ? `${text.slice(0, 300)}…` : text || '(the tool’s defaults)'
}

export function scanSettingsPages(app: FastifyInstance, ctx: WebContext) {
  const { db, tools } = ctx

  app.get('/scan-settings', async (req, reply) => renderSettings(ctx, req, reply))

  // Saved from a finished (or any) scan: its tool, parameters and time limit.
  app.post('/scan-settings', async (req, reply) => {
    const f = formOf(req)
    const from = f.from_scan_id && /^\d{1,15}$/.test(f.from_scan_id) ? Number(f.from_scan_id) : -1
    const save = (trx: Db) => saveScanSettings(trx, userOf(req), tools, { name: f.name ?? '', from_scan_id: from })
    const r = await attempt(() => audited(db, req.audit, save, (id) => ({ objectId: id })))
    if (!r.ok) return renderSettings(ctx, req, reply, { error: newScanWords(r.message), status: r.status, form: f })
    return reply.redirect(`/scan-settings?ok=settings-saved#settings-${r.value}`, 303)
  })

  const loadId = async (req: FastifyRequest) => {
    const id = idOf((req.params as { id: string }).id, 'Scan settings')
    if (!(await getScanSettings(db, userOf(req).userId, id))) throw notFound('Scan settings')
    return id
  }
  app.post('/scan-settings/:id/rename', async (req, reply) => {
    const id = await loadId(req)
    const rename = (trx: Db) => changeScanSettings(trx, userOf(req), tools, id, { name: formOf(req).name ?? '' })
    const r = await attempt(() => audited(db, req.audit, rename, () => true))
    if (!r.ok) return renderSettings(ctx, req, reply, { error: newScanWords(r.message), status: r.status })
    return reply.redirect(`/scan-settings?ok=settings-renamed#settings-${id}`, 303)
  })
  app.post('/scan-settings/:id/delete', async (req, reply) => {
    const id = await loadId(req)
    await changeLoaded(db, req, id, deleteScanSettings, Boolean)
    return reply.redirect('/scan-settings?ok=settings-deleted', 303)
  })
}

async function renderSettings(ctx: WebContext, req: FastifyRequest, reply: FastifyReply, o: FormRefusal = {}) {
  const { db } = ctx
  const u = userOf(req)
  const q = req.query as Record<string, string>
  const ws = await workspacesOf(db, u)
  const fromId = o.form?.from_scan_id ?? q.from_scan_id
  const [rows, from] = await Promise.all([
    listScanSettings(db, u.userId, { workspaceId: ws.active?.id ?? 0, limit: 500, page: 1 }),
    fromId && /^\d{1,15}$/.test(fromId) ? getScan(db, u.userId, Number(fromId)) : undefined,
  ])
  if (fromId && !from) throw notFound('Scan')
  const writes = ws.writes()
  const body = html`<h1>Saved scan settings</h1>
<p class="muted">${[
    html`Named sets of one tool's parameters: start a scan or a schedule with them on any target. `,
    html`Credentials in them are stored encrypted and never shown.`,
  ]}</p>
${
  rows.length
    ? html`<div class="table-wrap"><table data-testid="scan-settings">${[
        tableHead('Name', 'Tool', 'Parameters', html`<th class="num">Time limit</th>`, html`<th class="wide-only">Saved</th>`, ''),
      ]}<tbody>${rows.map(
        (s) => html`<tr id="settings-${s.id}" data-settings-id="${s.id}"><td>${s.name}</td><td>${toolName(s.tool_id)}</td>
<td class="mono">${paramsSummary(s.tool_params)}</td><td class="num">${s.max_scan_time} min</td><td class="wide-only">${when(s.updated_at)}</td>
<td class="row-actions">${
          writes
            ? html`<a class="button small" href="/scans/new${qs({ settings_id: s.id })}">Start scan with…</a>
  <a class="button small secondary" href="/schedules${qs({ settings_id: s.id })}#new-schedule">Schedule with…</a>
  <form class="inline" method="post" action="/scan-settings/${s.id}/rename">${csrfField(req)}${[
    html`<input type="text" id="rename-${s.id}" aria-label="New name of ${s.name}" name="name" maxlength="200" value="${s.name}" required>`,
    html`<button class="small secondary" type="submit">Rename</button></form>`,
  ]}
  ${postButton(req, `/scan-settings/${s.id}/delete`, 'Delete', {
    cls: 'small danger',
    confirm: 'Delete these saved settings? Scans and schedules started from them are kept.',
  })}`
            : ''
        }</td></tr>`,
      )}</tbody></table></div>`
    : html`<p data-testid="no-settings">No saved settings in this workspace yet.${writes ? SAVE_HOW : ''}</p>`
}
${
  from && writes
    ? html`<section class="card mt" aria-labelledby="new-settings"><h2 id="new-settings">Save the settings of scan #${from.id}</h2>
<form method="post" action="/scan-settings">${csrfField(req)}<input type="hidden" name="from_scan_id" value="${from.id}">
<p data-testid="from-scan">${toolName(from.tool_id)}, its tool parameters and its time limit of ${from.max_scan_time} min ${[
        html`(<a href="/scans/${from.id}">scan #${from.id}</a>).</p>`,
      ]}
<div class="field"><label for="settings-name">Name</label>${[
        html`<input type="text" id="settings-name" name="name" maxlength="200" required value="${o.form?.name ?? ''}"`,
        html` placeholder="Weekly deep scan, authenticated">`,
      ]}</div>
<button type="submit">Save settings</button></form></section>`
    : ''
}`
  return sendPage(
    reply,
    page(req, 'Saved scan settings', body, { section: 'scans', workspace: ws, ok: okMessage(req), error: o.error }),
    o.status ?? 200,
  )
}
