// Findings: the list (workspace, target, scan, risk, status, duplicates grouped), the finding page
// (evidence, CVE/CWE/OWASP, KEV, references, recommendation, tests) and triage with its history.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { getFinding, listFindings } from '../../store/findings.js'
import { groupHistory, updateFindingGroup } from '../../store/finding-history.js'
import { audited } from '../../store/audit.js'
import { acceptedUntilOf } from '../../domain/acceptance.js'
import { testWithFindings } from '../../store/results.js'
import { getScan } from '../../store/scans.js'
import { targetNames } from '../../store/web-lists.js'
import { when } from '../time.js'
import { findingView, type FindingStatus } from '../../reports/finding-view.js'
import { RISK_NAMES } from '../../reports/risk.js'
import { toolName } from '../../tools/registry.js'
import { notFound, WardError } from '../../domain/errors.js'
import { refusal, viewerRefused } from '../../domain/access.js'
import { WRITER_ROLES } from '../../store/members.js'
import { findingsCsv, toSarif, type ScanInfo, type WireFinding } from '../../reports/formats/index.js'
import { userOf, type WebContext } from '../context.js'
import { checkedIf, html, option, qs, selectedIf, tableHead } from '../html.js'
import { csrfField, page } from '../layout.js'
import { formOf, idOf, okMessage, sendPage } from '../respond.js'
import { workspacesOf } from '../workspace.js'
import { pageOf, pager } from './targets.js'
import { riskBadge } from './scans.js'

const PAGE = 100
/** Findings one bulk triage or one export handles at most. */
const BULK_MAX = 5000
const EXPORT_MAX = 20000
const STATUSES: FindingStatus[] = ['open', 'fixed', 'accepted', 'false_positive']
const riskOptions = (chosen: number | undefined) => [4, 3, 2, 1, 0].map((r) => option(r, RISK_NAMES[r], r === chosen))
const num = (v: string | undefined) => (v && /^\d{1,15}$/.test(v) ? Number(v) : undefined)
/** Only web links become links: a reference is catalogue text, but never a javascript: URL. */
const link = (u: string) => (/^https?:\/\//i.test(u) ? html`<a href="${u}" rel="noreferrer noopener">${u}</a>` : html`${u}`)

export function findingPages(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx
  app.get('/findings', async (req, reply) => findingList(db, req, reply))
  app.post('/findings/bulk', async (req, reply) => bulkTriage(db, req, reply))
  for (const kind of ['csv', 'sarif', 'json'] as const)
    app.get(`/findings/export.${kind}`, async (req, reply) => exportFindings(db, req, reply, kind))
  findingPage(app, ctx)
}

type Db = WebContext['db']

/** The list's filters from a query or a form: the same for the page, bulk triage and exports. */
async function filterOf(db: Db, req: FastifyRequest, q: Record<string, string>) {
  const u = userOf(req)
  const ws = await workspacesOf(db, u)
  // Default: the active workspace; "all" lists every workspace of the user.
  const wsId = q.workspace_id === 'all' ? undefined : (num(q.workspace_id) ?? ws.active?.id)
  const risk = q.risk && /^[0-4]$/.test(q.risk) ? Number(q.risk) : undefined
  const status = STATUSES.includes(q.status as FindingStatus) ? q.status : undefined
  const grouped = q.group_duplicates === '1'
  const targetId = num(q.target_id)
  const scanId = num(q.scan_id)
  const regression = q.regression === '1' ? true : undefined
  const foreign = wsId !== undefined && !ws.all.some((w) => w.id === wsId)
  const keep = {
    workspace_id: q.workspace_id,
    target_id: targetId,
    scan_id: scanId,
    risk,
    status,
    group_duplicates: grouped ? 1 : undefined,
    regression: regression ? 1 : undefined,
  }
  const list = (limit: number, page = 1) =>
    foreign
      ? Promise.resolve([])
      : listFindings(db, u.userId, {
          workspaceId: wsId,
          targetId,
          scanId,
          riskLevel: risk,
          status,
          groupDuplicates: grouped,
          regression,
          limit,
          page,
        })
  return { u, ws, wsId, risk, status, grouped, regression, targetId, scanId, keep, list }
}

/** The list page: filters, exports, bulk triage and one page of findings. */
async function findingList(db: Db, req: FastifyRequest, reply: FastifyReply) {
  const q = req.query as Record<string, string>
  const { u, ws, wsId, risk, status, grouped, regression, targetId, scanId, keep, list } = await filterOf(db, req, q)
  const pageNo = pageOf(q.page)
  const rows = await list(PAGE + 1, pageNo)
  const names = await targetNames(
    db,
    u.userId,
    rows.map((f) => f.target_id),
  )
  const body = html`<h1>Findings</h1>
<form method="get" action="/findings" class="filters">
  <div><label for="f-ws">Workspace</label><select id="f-ws" name="workspace_id">${[
    html`<option value="all"${selectedIf(wsId === undefined)}>all workspaces</option>`,
    ws.all.map((w) => option(w.id, w.name, w.id === wsId)),
  ]}</select></div>
  <div><label for="f-risk">Risk</label><select id="f-risk" name="risk"><option value="">any</option>${riskOptions(risk)}</select></div>
  <div><label for="f-status">Status</label><select id="f-status" name="status"><option value="">any</option>${[
    STATUSES.map((s) => html`<option${selectedIf(s === status)}>${s}</option>`),
  ]}</select></div>
  <div><label><input type="checkbox" name="group_duplicates" value="1"${checkedIf(grouped)}> latest of each duplicate group only</label>
  <label><input type="checkbox" name="regression" value="1" id="f-regression"${checkedIf(regression)}> ${[
    'regressions only (back after being fixed)',
  ]}</label></div>
  ${[
    targetId ? html`<input type="hidden" name="target_id" value="${targetId}">` : '',
    scanId ? html`<input type="hidden" name="scan_id" value="${scanId}">` : '',
  ]}
  <button type="submit" class="secondary">Filter</button>
  ${
    targetId || scanId
      ? html`<span class="muted">${[
          scanId ? html`scan #${scanId} ` : '',
          targetId ? html`target ${names.get(targetId) ?? targetId} ` : '',
        ]}(<a href="/findings">clear</a>)</span>`
      : ''
  }
</form>
<div class="actions" data-testid="export">Export this list: ${[
    html`<a href="/findings/export.csv${qs(keep)}">CSV</a> `,
    html`<a href="/findings/export.sarif${qs(keep)}">SARIF</a> `,
    html`<a href="/findings/export.json${qs(keep)}">JSON</a>`,
  ]}</div>
${
  rows.length
    ? html`<form method="post" action="/findings/bulk" id="bulk">${csrfField(req)}${[
        Object.entries(keep).map(([k, v]) => (v === undefined ? '' : html`<input type="hidden" name="f.${k}" value="${v}">`)),
      ]}
${
  ws.writes()
    ? html`<fieldset class="bulk" data-testid="bulk"><legend>Triage the chosen findings together</legend>
  <div class="filters">
  <div><label for="b-status">New status</label><select id="b-status" name="status">${[
    html`<option value="false_positive">false positive</option><option value="accepted">accepted risk</option>`,
    html`<option value="fixed">fixed</option><option value="open">open (reopen)</option>`,
  ]}</select></div>
  <div data-show-if="b-status=accepted" hidden><label for="b-until">Accepted until</label><input type="date" id="b-until" name="until"></div>
  <div><label for="b-reason">Reason</label><input type="text" id="b-reason" name="reason" maxlength="2000" placeholder="why (kept in each history)"></div>
  <div><label><input type="checkbox" name="all_matching" value="1" id="b-all"> all findings matching the filter (not only this page)</label></div>
  <button type="submit">Apply to chosen</button></div>
</fieldset>`
    : ''
}
<div class="table-wrap"><table>${tableHead(
        html`<th><input type="checkbox" data-check-all="bulk" aria-label="Choose every finding on this page"></th>`,
        'Risk',
        'Finding',
        'Target',
        'Where',
        'Status',
        html`<th class="wide-only">Scan</th><th class="wide-only">First seen</th><th class="wide-only">Last seen</th>`,
      )}<tbody>
${rows.slice(0, PAGE).map(
  (
    f,
  ) => html`<tr data-finding-id="${f.id}"><td><input type="checkbox" name="ids" value="${f.id}" aria-label="Choose finding ${f.id}"></td>${[
    html`<td>${riskBadge(f.risk_level)}</td>`,
    html`<td><a href="/findings/${f.id}">${f.name}</a>`,
    f.in_cisa_catalog ? html` <span class="badge kev">CISA KEV</span>` : '',
    f.group_regression === 1 ? html` <span class="badge bad" data-testid="regression">regression</span>` : '',
  ]}</td>
  <td><a href="/targets/${f.target_id}">${names.get(f.target_id) ?? f.target_id}</a></td>
  <td class="mono">${f.url ?? (f.port !== null ? `${f.port}/${f.protocol ?? ''}` : (f.location ?? ''))}</td><td>${f.status}</td>${[
    html`<td class="wide-only"><a href="/scans/${f.scan_id}">#${f.scan_id}</a></td>`,
    html`<td class="wide-only">${when(f.group_first_seen ?? f.created_at)}</td>`,
    html`<td class="wide-only">${when(f.group_last_seen ?? f.created_at)}</td>`,
  ]}</tr>`,
)}</tbody></table></div></form>${pager('/findings', keep, pageNo, rows.length > PAGE)}`
    : html`<p>No findings match.</p>`
}`
  return sendPage(reply, page(req, 'Findings', body, { section: 'findings', workspace: ws, ok: okMessage(req) }))
}

/** Triage of the chosen findings, or of all matching the filter, with one reason. */
async function bulkTriage(db: Db, req: FastifyRequest, reply: FastifyReply) {
  const f = formOf(req)
  const raw = (req.body ?? {}) as Record<string, unknown>
  // The filter the list showed travels as f.<name>: "all matching" means the same findings.
  const q = Object.fromEntries(
    Object.entries(f)
      .filter(([k]) => k.startsWith('f.'))
      .map(([k, v]) => [k.slice(2), v]),
  )
  const { u, keep, list } = await filterOf(db, req, q)
  const back = `/findings${qs(keep)}`
  if (!STATUSES.includes(f.status as FindingStatus)) throw new WardError(400, `The status must be one of ${STATUSES.join(', ')}`)
  const until = acceptedUntilOf(f.status, f.until) ?? null
  const reason = [(f.reason ?? '').trim().slice(0, 1900), until ? `accepted until ${until}` : ''].filter(Boolean).join('; ') || null
  const chosen = new Set(
    (Array.isArray(raw.ids) ? raw.ids : [raw.ids]).filter((x): x is string => typeof x === 'string' && /^\d{1,15}$/.test(x)).map(Number),
  )
  const rows =
    f.all_matching === '1'
      ? await list(BULK_MAX)
      : await Promise.all([...chosen].slice(0, BULK_MAX).map((id) => getFinding(db, u.userId, id)))
  const found = rows.filter((r): r is NonNullable<typeof r> => !!r)
  if (!found.length) return reply.redirect(`${back}${back.includes('?') ? '&' : '?'}ok=none-chosen`, 303)
  // Only findings of workspaces where the caller's role may triage; a viewer's request changes nothing.
  const writable = (await Promise.all(found.map((r) => getFinding(db, u.userId, r.id, WRITER_ROLES)))).filter(
    (r): r is NonNullable<typeof r> => !!r,
  )
  if (!writable.length) throw viewerRefused()
  // One history entry per finding (its duplicates follow it), each with the same reason.
  // Each with its audit entry, in the finding's own transaction.
  for (const row of writable)
    await audited(
      db,
      req.audit && { ...req.audit, objectId: String(row.id) },
      (trx) => updateFindingGroup(trx, row, { status: f.status as FindingStatus, accepted_until: until }, reason, u.userId),
      () => true,
    )
  if (req.audit) req.audit.written = true
  return reply.redirect(`${back}${back.includes('?') ? '&' : '?'}ok=findings-triaged`, 303)
}

/** The filtered list as a CSV, SARIF or JSON download. */
async function exportFindings(db: Db, req: FastifyRequest, reply: FastifyReply, kind: 'csv' | 'sarif' | 'json') {
  const { u, list } = await filterOf(db, req, req.query as Record<string, string>)
  const rows = await list(EXPORT_MAX)
  const names = await targetNames(
    db,
    u.userId,
    rows.map((r) => r.target_id),
  )
  const wire = rows.map((r) => findingView(r) as unknown as WireFinding)
  const info = (f: WireFinding): ScanInfo => ({
    id: f.scan_id ?? 0,
    target: names.get(f.target_id ?? 0) ?? '',
    tool_id: 0,
    status_name: '',
  })
  const body =
    kind === 'csv'
      ? findingsCsv(wire, info)
      : kind === 'sarif'
        ? toSarif({ id: 0, target: 'findings of Ward', tool_id: 0, status_name: 'finished' }, wire, [], null)
        : JSON.stringify({ data: wire }, null, 2)
  const type = { csv: 'text/csv; charset=utf-8', sarif: 'application/sarif+json', json: 'application/json' }[kind]
  return reply.type(type).header('content-disposition', `attachment; filename="ward-findings.${kind}"`).send(body)
}

/** One finding: its evidence, its history across scans, and the triage form. */
function findingPage(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx

  app.get('/findings/:id', async (req, reply) => renderFinding(db, req, reply))

  app.post('/findings/:id/triage', async (req, reply) => {
    const u = userOf(req)
    const id = idOf((req.params as { id: string }).id, 'Finding')
    const row = await getFinding(db, u.userId, id, WRITER_ROLES)
    if (!row) throw await refusal(getFinding(db, u.userId, id), 'Finding')
    const f = formOf(req)
    if (f.status !== undefined && !STATUSES.includes(f.status as FindingStatus))
      return renderFinding(db, req, reply, `The status must be one of ${STATUSES.join(', ')}`, 400)
    const risk = f.risk_level !== undefined && /^[0-4]$/.test(f.risk_level) ? Number(f.risk_level) : undefined
    if (f.risk_level !== undefined && risk === undefined)
      return renderFinding(db, req, reply, 'The risk must be info, low, medium, high or critical', 400)
    const reason = (f.reason ?? '').trim().slice(0, 2000) || null
    let until: string | undefined
    try {
      until = acceptedUntilOf(f.status, f.until)
    } catch (e) {
      return renderFinding(
        db,
        req,
        reply,
        (e as Error).message.replace('Invalid parameters: accepted_until', 'The "accepted until" date'),
        400,
      )
    }
    const changes = {
      status: f.status as FindingStatus | undefined,
      risk_level: risk,
      verified: f.verified === 'true',
      accepted_until: until,
    }
    await audited(
      db,
      req.audit,
      (trx) => updateFindingGroup(trx, row, changes, reason, u.userId),
      () => true,
    )
    return reply.redirect(`/findings/${id}?ok=finding-triaged`, 303)
  })
}

/** The finding page, with an error above the triage form when a triage was refused. */
async function renderFinding(db: Db, req: FastifyRequest, reply: FastifyReply, error?: string, status = 200) {
  const u = userOf(req)
  const row = await getFinding(db, u.userId, idOf((req.params as { id: string }).id, 'Finding'))
  if (!row) throw notFound('Finding')
  const f = findingView(row)
  const [ws, names, scan, tests, history] = await Promise.all([
    workspacesOf(db, u),
    targetNames(db, u.userId, [row.target_id]),
    getScan(db, u.userId, row.scan_id),
    row.test_id === null ? [] : testWithFindings(db, row.test_id),
    groupHistory(db, row),
  ])
  const ev = f.vuln_evidence
  const owasp = Object.values(f.owasp ?? {}).filter(Boolean) as string[]
  const body = html`<h1>${riskBadge(f.risk_level)} ${f.name}</h1>
<p class="muted">Finding #${f.id} on <strong>${names.get(row.target_id) ?? row.target_id}</strong>${[
    f.port !== null ? html`, port ${f.port}/${f.protocol ?? ''}${f.service ? ` (${f.service})` : ''}` : '',
    f.url ? html`, <span class="mono">${f.url}</span>` : '',
  ]}
 — found by <a href="/scans/${row.scan_id}">${scan ? toolName(scan.tool_id) : 'scan'} #${row.scan_id}</a>, ${when(row.created_at)}.
 ${f.in_cisa_catalog ? html`<span class="badge kev" title="In the CISA Known Exploited Vulnerabilities catalogue">CISA KEV: exploited in the wild</span>` : ''}
 ${f.confirmed ? html`<span class="badge fin">confirmed</span>` : html`<span class="badge st">inferred</span>`}</p>
<div class="grid">
<section class="card"><h2>What is wrong</h2><p>${f.vuln_description}</p>${f.risk_description ? html`<h2>Risk</h2><p>${f.risk_description}</p>` : ''}</section>
<section class="card"><h2>Recommendation</h2><p>${f.recommendation}</p>
<dl class="props">
  <dt>Check</dt><dd class="mono">${f.vuln_id}</dd>
  <dt>CVE</dt><dd>${f.cve.length ? f.cve.map((c) => html`<a href="https://nvd.nist.gov/vuln/detail/${c}" rel="noreferrer noopener">${c}</a> `) : '—'}</dd>
  <dt>CWE</dt><dd>${f.cwe || '—'}</dd>
  <dt>OWASP</dt><dd>${owasp.length ? owasp.map((o) => html`${o}<br>`) : '—'}</dd>
  <dt>First seen</dt><dd>${when(f.first_seen)}</dd>
  <dt>Last seen</dt><dd>${when(f.last_seen)}${f.regression ? html` <span class="badge bad">regression: back after being fixed</span>` : ''}</dd>
  <dt>Status</dt><dd data-testid="finding-status">${f.status}${f.verified ? ' (verified)' : ''}${
    f.status === 'accepted' && row.accepted_until
      ? html` <span class="badge st" data-testid="accepted-until">until ${row.accepted_until}, then re-opened</span>`
      : ''
  }</dd>
</dl></section>
</div>
<section class="card"><h2>Evidence</h2>
${
  !ev
    ? html`<p class="muted">None recorded.</p>`
    : ev.type === 'table'
      ? html`<div class="table-wrap"><table data-testid="evidence">${tableHead(...ev.data.headers)}<tbody>${[
          ev.data.rows.map((r) => html`<tr>${r.map((c) => html`<td class="mono">${c}</td>`)}</tr>`),
        ]}</tbody></table></div>`
      : html`<pre data-testid="evidence">${ev.data.text}</pre>`
}
</section>
${f.references.length ? html`<section class="card"><h2>References</h2><ul>${f.references.map((r) => html`<li>${link(r)}</li>`)}</ul></section>` : ''}
<section class="card"><h2>Tests behind this finding</h2>
${
  tests.length
    ? html`<ul>${tests.map(
        (t) =>
          html`<li><strong>${t.name}</strong> — ${t.description} <span class="muted">(${t.status}${t.result ? `, ${t.result}` : ''})</span></li>`,
      )}</ul>`
    : html`<p class="muted">${f.test_description || 'No test recorded.'}</p>`
}
</section>
<section class="card" aria-labelledby="triage"><h2 id="triage">Triage</h2>
${
  ws.writes(row.workspace_id)
    ? html`<p class="muted">Applies to this finding and its duplicates (the same issue found again by other scans).</p>
<form method="post" action="/findings/${f.id}/triage" class="filters">${csrfField(req)}
  <div><label for="t-status">Status</label><select id="t-status" name="status">${[
    STATUSES.map((s) => html`<option${selectedIf(s === f.status)}>${s}</option>`),
  ]}</select></div>
  <div><label for="t-risk">Risk</label><select id="t-risk" name="risk_level">${riskOptions(f.risk_level)}</select></div>
  <div><label><input type="checkbox" name="verified" value="true"${checkedIf(f.verified)}> verified by a person</label></div>
  <div data-show-if="t-status=accepted"${f.status === 'accepted' ? '' : html` hidden`}>${[
    html`<label for="t-until">Accepted until</label>`,
    html`<input type="date" id="t-until" name="until" value="${row.accepted_until ?? ''}">`,
  ]}</div>
  <div><label for="t-reason">Comment</label><input type="text" id="t-reason" name="reason" maxlength="2000" placeholder="why (kept in the history)"></div>
  <button type="submit">Save triage</button>
</form>`
    : html`<p class="muted">Your role in this workspace lets you read the triage, not change it.</p>`
}
<h2>History</h2>
${
  history.length
    ? html`<div class="table-wrap"><table data-testid="history">${tableHead('When', 'Change', 'Comment', 'By')}<tbody>${history.map((h) => {
        const shown = (v: string | null) => (h.field === 'risk_level' && v !== null ? RISK_NAMES[Number(v)] : (v ?? '—'))
        const by = h.user_id === null ? 'Ward (re-opened)' : h.user_id === u.userId ? 'you' : `user ${h.user_id}`
        return html`<tr><td>${when(h.created_at)}</td><td>${h.field}: ${shown(h.old_value)} → ${shown(h.new_value)}</td>${[
          html`<td>${h.reason ?? ''}</td><td>${by}</td>`,
        ]}</tr>`
      })}</tbody></table></div>`
    : html`<p class="muted">No changes yet.</p>`
}
</section>`
  return sendPage(reply, page(req, f.name, body, { section: 'findings', workspace: ws, ok: okMessage(req), error }), status)
}
