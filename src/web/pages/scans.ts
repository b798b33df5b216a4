// Scans: the new-scan form (generated from each tool's tool_params schema), the list with filters,
// the scan page with live progress (htmx polling of a fragment), stop, delete, outputs and the PDF.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createScan } from '../../domain/scans.js'
import { saveScanSettings } from '../../domain/scan-settings.js'
import { scanSettingsPages } from './scan-settings.js'
import { scopesOf } from '../../toolkit/scope.js'
import { badRequest, notFound } from '../../domain/errors.js'
import { changeLoaded } from '../loaded-change.js'
import { deleteScan, getScan, listScans, requestStop, toolParamsOf } from '../../store/scans.js'
import { getScanSettings } from '../../store/scan-settings.js'
import { scanFindings, scanLogs, scanTests } from '../../store/results.js'
import { publish } from '../../store/notify.js'
import { listTargets } from '../../store/targets.js'
import { listVpnProfiles } from '../../store/vpn-profiles.js'
import { targetNames } from '../../store/web-lists.js'
import { ACTIVE_STATES, SCAN_STATES } from '../../store/scan-states.js'
import type { ScanRow } from '../../store/schema.js'
import { queueReader, type QueuePlace } from '../../store/queue.js'
import { etaSeconds, waitingMessage } from '../../domain/queue-message.js'
import { when } from '../time.js'
import { scanOutputJson } from '../../reports/scan-output.js'
import { scanPdfStream } from '../../reports/scan-report.js'
import { pdfOrBusy } from '../../domain/report-requests.js'
import { RISK_NAMES } from '../../reports/risk.js'
import { countTests, scanCaveat } from '../../reports/scan-caveat.js'
import { toolName } from '../../tools/registry.js'
import { userOf, type WebContext } from '../context.js'
import { html, option, qs, type SafeHtml, selectedIf, tableHead } from '../html.js'
import { csrfField, page, postButton } from '../layout.js'
import { newScanWords } from '../form-words.js'
import { paramsFields, paramsFromForm, type JsonSchema } from '../params-form.js'
import { attempt, formOf, idOf, okMessage, sendPage } from '../respond.js'
import { workspacesOf } from '../workspace.js'
import { type FormRefusal, formPageOf } from '../form-page.js'
import { pageOf, pager } from './targets.js'

const PAGE = 50
const QUEUED = 'Scan queued: it starts as soon as a worker is free.'
const LOG_TAIL = 200
const isActive = (s: Pick<ScanRow, 'status'>) => (ACTIVE_STATES as readonly string[]).includes(s.status)

const statusClass = (status: string) =>
  status === 'running' || status === 'waiting' ? 'run' : status === 'finished' ? 'fin' : status === 'stopped' ? 'st' : 'bad'
export const statusBadge = (status: string) => html`<span class="badge ${statusClass(status)}" data-status="${status}">${status}</span>`
export const riskBadge = (level: number) => html`<span class="badge r${level}">${RISK_NAMES[level] ?? level}</span>`

/** One tile per risk, critical first, each a link to the findings list with the query `query(risk)`. */
export const riskTileLinks = (counts: readonly number[], query: (risk: number) => string) =>
  [4, 3, 2, 1, 0].map((r) => html`<a class="tile r${r}" href="/findings${query(r)}"><b>${counts[r]}</b>${RISK_NAMES[r]}</a>`)

export function duration(s: Pick<ScanRow, 'start_time' | 'end_time'>, now = Date.now()): string {
  if (!s.start_time) return '—'
  const secs = Math.max(0, Math.floor(((s.end_time ? Date.parse(s.end_time) : now) - Date.parse(s.start_time)) / 1000))
  const h = Math.floor(secs / 3600)
  const m = Math.floor((secs % 3600) / 60)
  return h ? `${h} h ${m} min` : m ? `${m} min ${secs % 60} s` : `${secs} s`
}

export const summaryTiles = (s: Pick<ScanRow, 'count_info' | 'count_low' | 'count_medium' | 'count_high' | 'count_critical'>) => {
  const counts = [s.count_info, s.count_low, s.count_medium, s.count_high, s.count_critical]
  const tile = (r: number) => html`<div class="tile r${r}"><b>${counts[r]}</b>${RISK_NAMES[r]}</div>`
  return html`<div class="sev" data-testid="summary">${[4, 3, 2, 1, 0].map(tile)}</div>`
}

/**
 * The time a running scan has left, in words: rounded to what an estimate can promise, and
 * "finishing" for the last seconds (an estimate of 0 s while the last test still runs reads as wrong).
 */
export function etaText(seconds: number): string {
  if (seconds < 10) return 'finishing'
  if (seconds < 60) return `about ${Math.round(seconds / 10) * 10} s left`
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `about ${minutes} min left`
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min left`
}

/** The live part of a scan page: state, progress, tests, elapsed time. Polls itself while the scan is active. */
function progressFragment(s: ScanRow, wasLive: boolean, queue?: QueuePlace): SafeHtml {
  const live = isActive(s)
  const message = [s.status === 'waiting' && queue ? waitingMessage(queue) : '', s.status_message ?? ''].filter(Boolean).join('; ')
  const eta = s.status === 'running' ? etaSeconds(s, Date.now()) : null
  const poll = live ? html` hx-get="/scans/${s.id}/progress?live=1" hx-trigger="every 1s" hx-swap="outerHTML"` : ''
  return html`<div id="progress" class="card"${poll} aria-live="polite">
  <div class="progress"><span>${statusBadge(s.status)}</span>
  <progress max="100" value="${s.progress}" aria-label="Scan progress">${s.progress} %</progress>
  <strong data-testid="progress">${s.progress} %</strong>
  <span data-testid="tests">${s.num_finished_tests} of ${s.num_tests} tests finished</span>
  <span>elapsed ${duration(s)}</span>${eta !== null ? html`<span data-testid="eta">${etaText(eta)}</span>` : ''}</div>
  ${message ? html`<p class="muted">${message}</p>` : ''}
  ${!live && wasLive ? html`<p><a href="/scans/${s.id}">The scan has ended: show its results</a></p>` : ''}
</div>`
}

type ScanFinding = Awaited<ReturnType<typeof scanFindings>>[number]
const whereOf = (f: ScanFinding) =>
  f.url ?? (f.port !== null ? `${f.port}/${f.protocol ?? ''}${f.service ? ` ${f.service}` : ''}` : (f.location ?? ''))

/** Findings of one kind (same check and risk) together, in the order of their first finding. */
function groupByKind(findings: ScanFinding[]): ScanFinding[][] {
  const groups = new Map<string, ScanFinding[]>()
  for (const f of findings) {
    const key = `${f.vuln_id}\u0000${f.risk_level}`
    groups.set(key, [...(groups.get(key) ?? []), f])
  }
  return [...groups.values()]
}

/** One row per kind: a kind found at several places shows its count and opens to the list of them. */
function findingGroupRow(g: ScanFinding[]): SafeHtml {
  const f = g[0]!
  const kev = f.in_cisa_catalog ? html` <span class="badge kev">CISA KEV</span>` : ''
  if (g.length === 1)
    return html`<tr>${[
      html`<td>${riskBadge(f.risk_level)}</td>`,
      html`<td><a href="/findings/${f.id}">${f.name}</a>${kev}</td>`,
      html`<td class="mono">${whereOf(f)}</td><td>${f.status}</td>`,
    ]}</tr>`
  const statuses = [...new Set(g.map((x) => x.status))].join(', ')
  const place = (x: ScanFinding) =>
    html`<li><a href="/findings/${x.id}" class="mono">${whereOf(x) || `#${x.id}`}</a>${
      x.status === 'open' ? '' : html` <span class="muted">${x.status}</span>`
    }</li>`
  const count = html`<span class="badge st" data-testid="group-count">${g.length} places</span>`
  return html`<tr data-testid="finding-group"><td>${riskBadge(f.risk_level)}</td><td colspan="2"><details><summary>${[
    html`<a href="/findings/${f.id}">${f.name}</a>${kev} ${count}`,
  ]}</summary>
<ul>${g.map(place)}</ul></details></td><td>${statuses}</td></tr>`
}

/**
 * "Scan again" and saved settings never write credentials into the page: an object parameter
 * (authentication) left empty on the form keeps the earlier value (a scan's or saved settings'), still sealed.
 */
function withKeptCredentials(earlier: Record<string, unknown> | undefined, schema: JsonSchema, params: Record<string, unknown>) {
  if (!earlier) return params
  const kept: Record<string, unknown> = {}
  for (const [name, s] of Object.entries(schema.properties ?? {})) {
    const isUnion = !!s.anyOf?.length && s.anyOf.every((o) => o.type === 'object')
    if (isUnion && params[name] === undefined && earlier[name] !== undefined) kept[name] = earlier[name]
  }
  return { ...params, ...kept }
}

/** The tool_params a new-scan form posted for `toolId`, with the credentials kept from `earlier` of the same tool. */
export function postedToolParams(
  schema: JsonSchema | undefined,
  toolId: number,
  earlier: Record<string, unknown> | undefined,
  body: unknown,
): Record<string, unknown> {
  if (!schema) return {}
  return withKeptCredentials(earlier, schema, paramsFromForm(toolId, schema, (body ?? {}) as Record<string, string | string[]>))
}

/** The forms' JSON schemas of the tools' tool_params, by tool id. */
export const formSchemas = (toolList: readonly { id: number; params: unknown }[]) =>
  new Map(toolList.map((t) => [t.id, JSON.parse(JSON.stringify(t.params)) as JsonSchema]))

/** Saved settings the user may read, from a form or query value (absent or not a number: none; unknown: 404). */
export async function savedSettingsOf(db: WebContext['db'], userId: number, id: string | undefined) {
  if (!id || !/^\d{1,15}$/.test(id)) return undefined
  const s = await getScanSettings(db, userId, Number(id))
  if (!s) throw notFound('Scan settings')
  return s
}

/** What the scan pages share: the tools and their form schemas, loading a scan of the user, the list. */
function scanPagesEnv(ctx: WebContext) {
  const { db, tools } = ctx
  const callbackBlocklist = scopesOf(ctx.config).callback
  const toolList = [...tools.all()].sort((a, b) => a.id - b.id)
  const schemas = formSchemas(toolList)

  const places = queueReader(db, ctx.config.userMaxRunning)
  /** Where a waiting scan stands in the queue. */
  const placeOf = async (s: ScanRow) => (s.status === 'waiting' ? (await places([s.id])).get(s.id) : undefined)

  async function loadScan(req: FastifyRequest) {
    const s = await getScan(db, userOf(req).userId, idOf((req.params as { id: string }).id, 'Scan'))
    if (!s) throw notFound('Scan')
    return s
  }

  async function renderList(req: FastifyRequest, reply: FastifyReply, error?: string, status = 200) {
    const u = userOf(req)
    const q = req.query as Record<string, string>
    const ws = await workspacesOf(db, u)
    const st = (SCAN_STATES as readonly string[]).includes(q.status ?? '') ? q.status : undefined
    const toolId = q.tool_id && tools.get(Number(q.tool_id)) ? Number(q.tool_id) : undefined
    const targetId = q.target_id && /^\d{1,15}$/.test(q.target_id) ? Number(q.target_id) : undefined
    const pageNo = pageOf(q.page)
    const rows = await listScans(db, u.userId, {
      workspaceId: ws.active?.id ?? 0,
      status: st,
      toolId,
      targetId,
      limit: PAGE + 1,
      page: pageNo,
    })
    const names = await targetNames(
      db,
      u.userId,
      rows.map((s) => s.target_id),
    )
    const live = rows.some(isActive)
    const poll = live
      ? html` hx-get="/scans${qs({ status: st, tool_id: toolId, target_id: targetId, page: pageNo > 1 ? pageNo : undefined, fragment: 1 })}"${[
          html` hx-trigger="every 2s" hx-select="#scan-table" hx-swap="outerHTML"`,
        ]}`
      : ''
    const head = tableHead('Id', 'Tool', 'Target', 'Status', html`<th class="num">Progress</th>`, 'Findings', 'Started', 'Duration')
    const table = html`<div id="scan-table"${poll}>
${
  rows.length
    ? html`<div class="table-wrap"><table>${head}<tbody>
${rows.slice(0, PAGE).map(
  (s) => html`<tr data-scan-id="${s.id}"><td><a href="/scans/${s.id}">#${s.id}</a></td><td>${toolName(s.tool_id)}</td>${[
    html`<td><a href="/targets/${s.target_id}">${names.get(s.target_id) ?? s.target_id}</a></td>`,
  ]}
  <td>${statusBadge(s.status)}</td><td class="num">${s.progress} %</td>
  <td>${[4, 3, 2, 1, 0].map((r) => {
    const n = [s.count_info, s.count_low, s.count_medium, s.count_high, s.count_critical][r]!
    return n ? html`${riskBadge(r)} ${n} ` : ''
  })}</td>
  <td>${when(s.start_time, 'waiting')}</td><td>${duration(s)}</td></tr>`,
)}</tbody></table></div>${pager('/scans', { status: st, tool_id: toolId, target_id: targetId }, pageNo, rows.length > PAGE)}`
    : html`<p>No scans${st || toolId || targetId ? ' match these filters' : ' in this workspace yet'}.${
        ws.writes() ? html` <a href="/scans/new">Start one</a>.` : ''
      }</p>`
}</div>`
    if (q.fragment) return sendPage(reply, table)
    const body = html`<h1>Scans</h1>
<div class="actions">${[
      ws.writes() ? html`<a class="button" href="/scans/new">New scan</a>` : '',
      html`<a class="button secondary" href="/scan-settings">Saved scan settings</a>`,
    ]}</div>
<form method="get" action="/scans" class="filters">
  <div><label for="f-status">Status</label><select id="f-status" name="status"><option value="">any</option>${[
    SCAN_STATES.map((x) => html`<option${selectedIf(x === st)}>${x}</option>`),
  ]}</select></div>
  <div><label for="f-tool">Tool</label><select id="f-tool" name="tool_id"><option value="">any</option>${[
    toolList.map((t) => option(t.id, t.name, t.id === toolId)),
  ]}</select></div>
  ${
    targetId
      ? html`<input type="hidden" name="target_id" value="${targetId}"><span class="muted">target ${[
          html`<a href="/targets/${targetId}">${names.get(targetId) ?? targetId}</a> (<a href="/scans">all targets</a>)`,
        ]}</span>`
      : ''
  }
  <button type="submit" class="secondary">Filter</button>
</form>
${table}`
    return sendPage(reply, page(req, 'Scans', body, { section: 'scans', workspace: ws, ok: okMessage(req), error }), status)
  }

  return { ctx, db, tools, toolList, schemas, callbackBlocklist, placeOf, loadScan, renderList }
}

type ScanPagesEnv = ReturnType<typeof scanPagesEnv>

export function scanPages(app: FastifyInstance, ctx: WebContext) {
  const env = scanPagesEnv(ctx)
  app.get('/scans', async (req, reply) => env.renderList(req, reply))
  newScanPages(app, env)
  scanPage(app, env)
  scanActions(app, env)
  scanSettingsPages(app, ctx)
}

/** The new-scan form (generated from each tool's tool_params schema) and what it posts. */
function newScanPages(app: FastifyInstance, env: ScanPagesEnv) {
  const { db, toolList, schemas } = env
  async function renderNew(req: FastifyRequest, reply: FastifyReply, o: FormRefusal = {}) {
    const { u, q, f, ws } = await formPageOf(db, req, o)
    const [targets, profiles] = await Promise.all([
      listTargets(db, u.userId, { workspaceId: ws.active?.id, limit: 1000, page: 1 }),
      listVpnProfiles(db, u.userId),
    ])
    // "Scan again": the earlier scan's settings fill the form (a scan of another user's is a 404).
    const fromId = f.from_scan_id ?? q.from_scan_id
    const from = fromId && /^\d{1,15}$/.test(fromId) ? await getScan(db, u.userId, Number(fromId)) : undefined
    if (fromId && !from) throw notFound('Scan')
    // Saved settings: their tool, parameters and time limit fill the form; the target is chosen here.
    const saved = from ? undefined : await savedSettingsOf(db, u.userId, f.settings_id ?? q.settings_id)
    const earlier = from
      ? (toolParamsOf(from) as Record<string, unknown>)
      : saved
        ? (JSON.parse(saved.tool_params) as Record<string, unknown>)
        : undefined
    const preset = from ?? saved
    const chosenTool = Number(f.tool_id ?? preset?.tool_id ?? q.tool_id ?? toolList.find((t) => t.id === 70)?.id ?? toolList[0]?.id)
    const chosenTarget = f.target_id ?? (from ? String(from.target_id) : undefined) ?? q.target_id ?? ''
    const vpnChoice = f.vpn ?? (from ? (from.vpn_profile_uuid ?? 'none') : undefined)
    const maxTime = f.max_scan_time ?? (preset ? String(preset.max_scan_time) : '1440')
    const toolFieldset = (t: (typeof toolList)[number]) => {
      const schema = schemas.get(t.id)!
      const values = o.form && t.id === chosenTool ? paramsFromForm(t.id, schema, o.form) : t.id === preset?.tool_id ? earlier : undefined
      return html`<fieldset data-tool="${t.id}"${t.id === chosenTool ? '' : html` hidden disabled`}><legend>${t.name}</legend>${[
        paramsFields(t.id, schema, [], values),
      ]}</fieldset>`
    }
    const body = html`<h1>New scan</h1>
<form method="post" action="/scans/new" class="card">${csrfField(req)}${[
      from ? html`<input type="hidden" name="from_scan_id" value="${from.id}">` : '',
      saved ? html`<input type="hidden" name="settings_id" value="${saved.id}">` : '',
    ]}
  ${from ? html`<p class="muted" data-testid="from-scan">The settings of scan <a href="/scans/${from.id}">#${from.id}</a>: change what you need.</p>` : ''}
  ${
    saved
      ? html`<p class="muted" data-testid="from-settings">The saved settings ${[
          html`<a href="/scan-settings#settings-${saved.id}">${saved.name}</a>: choose the target, change what you need.`,
        ]}</p>`
      : ''
  }
  <div class="grid">
    <div class="field"><label for="tool_id">Tool</label><select id="tool_id" name="tool_id">${[
      toolList.map((t) => option(t.id, html`${t.name} (${t.id})`, t.id === chosenTool)),
    ]}</select>
      ${toolList.map((t) => html`<small data-tool-help="${t.id}"${t.id === chosenTool ? '' : html` hidden`}>${t.description}</small>`)}</div>
    <div class="field"><label for="target_id">Target</label><select id="target_id" name="target_id">${[
      html`<option value="">— a new target (type its name below) —</option>`,
      targets.map((t) => option(t.id, t.name, String(t.id) === chosenTarget)),
    ]}</select></div>
    <div class="field"><label for="target_name">…or a new target's name</label>${[
      html`<input type="text" id="target_name" name="target_name" maxlength="2048" value="${f.target_name ?? ''}" placeholder="host, IP or URL">`,
      html`<small>Added to the workspace below.</small>`,
    ]}</div>
    <div class="field"><label for="workspace_id">Workspace</label><select id="workspace_id" name="workspace_id">${[
      ws.all.map((w) => option(w.id, w.name, w.id === (f.workspace_id ? Number(f.workspace_id) : ws.active?.id))),
    ]}</select><small>A chosen target scans in its own workspace.</small></div>
    <div class="field"><label for="max_scan_time">Maximum scan time (minutes)</label>${[
      html`<input type="number" id="max_scan_time" name="max_scan_time" min="1" max="1440" value="${maxTime}">`,
      html`<small>1 to 1440; some short tools ignore it.</small>`,
    ]}</div>
    <div class="field"><label for="vpn">VPN profile</label><select id="vpn" name="vpn">${[
      html`<option value="">the workspace's default</option>`,
      html`<option value="none"${selectedIf(vpnChoice === 'none')}>none (direct)</option>`,
      profiles.map((p) => option(p.uuid, p.name, vpnChoice === p.uuid)),
    ]}</select></div>
  </div>
  <h2>Tool parameters</h2>
  <p class="muted" data-testid="params-help">Lists take one item per line, or items separated by commas. An empty field leaves the choice to the tool.</p>
  ${toolList.map(toolFieldset)}
${newScanTail(f)}
</form>`
    return sendPage(reply, page(req, 'New scan', body, { section: 'scans', workspace: ws, error: o.error }), o.status ?? 200)
  }

  app.get('/scans/new', async (req, reply) => renderNew(req, reply))

  newScanPosts(app, env, renderNew)
}

/** What the new-scan form posts: "Start scan", and "Save settings" (no scan). */
function newScanPosts(
  app: FastifyInstance,
  { ctx, db, tools, schemas, callbackBlocklist }: ScanPagesEnv,
  renderNew: (req: FastifyRequest, reply: FastifyReply, o: FormRefusal) => Promise<unknown>,
) {
  /** What both submit buttons of the form share: the tool, its posted parameters (credentials kept), the time limit. */
  async function postedScan(req: FastifyRequest, f: Record<string, string>) {
    const u = userOf(req)
    const toolId = Number(f.tool_id)
    const maxTime = f.max_scan_time && /^\d{1,5}$/.test(f.max_scan_time) ? Number(f.max_scan_time) : undefined
    if (maxTime !== undefined && (maxTime < 1 || maxTime > 1440)) throw badRequest('The maximum scan time must be from 1 to 1440 minutes')
    const earlier = f.from_scan_id && /^\d{1,15}$/.test(f.from_scan_id) ? await getScan(db, u.userId, Number(f.from_scan_id)) : undefined
    const from = earlier?.tool_id === toolId ? earlier : undefined
    const settings = from ? undefined : await savedSettingsOf(db, u.userId, f.settings_id)
    const kept = from ? toolParamsOf(from) : settings?.tool_id === toolId ? JSON.parse(settings.tool_params) : undefined
    return {
      toolId: Number.isInteger(toolId) ? toolId : -1,
      maxTime,
      from,
      toolParams: postedToolParams(schemas.get(toolId), toolId, kept as Record<string, unknown> | undefined, req.body),
      workspaceId: f.workspace_id && /^\d{1,15}$/.test(f.workspace_id) ? Number(f.workspace_id) : undefined,
    }
  }

  app.post('/scans/new', async (req, reply) => {
    const f = formOf(req)
    const r = await attempt(async () => {
      const p = await postedScan(req, f)
      const targetId = f.target_id && /^\d{1,15}$/.test(f.target_id) ? Number(f.target_id) : undefined
      const vpn = f.vpn === 'none' ? { vpn_profile_uuid: null } : f.vpn ? { vpn_profile_uuid: f.vpn } : {}
      return createScan(
        db,
        userOf(req),
        { tools, targetBlocklist: ctx.blocklist, callbackBlocklist, resolveVpnProfile: ctx.resolveVpnProfile },
        {
          tool_id: p.toolId,
          ...(targetId !== undefined ? { target_id: targetId } : { target_name: f.target_name?.trim() || undefined }),
          workspace_id: targetId === undefined ? p.workspaceId : undefined,
          max_scan_time: p.maxTime,
          ...vpn,
          report_callback: f.callback_url?.trim()
            ? {
                url: f.callback_url.trim(),
                format: f.callback_format === 'pdf' ? 'pdf' : 'json',
                ...(f.callback_secret ? { secret: f.callback_secret } : {}),
              }
            : null,
          tool_params: p.toolParams,
          // What the form does not show (URL options) comes from the earlier scan of the same tool.
          ...(p.from ? { from_scan_id: p.from.id } : {}),
        },
        req.audit,
      )
    })
    if (!r.ok) return renderNew(req, reply, { error: newScanWords(r.message), status: r.status, form: f })
    return reply.redirect(`/scans/${r.value.scanId}?ok=scan-started`, 303)
  })

  // "Save settings" on the same form: the tool, its parameters and the time limit under a name, no scan.
  app.post('/scan-settings/from-form', async (req, reply) => {
    const f = formOf(req)
    const r = await attempt(async () => {
      const p = await postedScan(req, f)
      return saveScanSettings(db, userOf(req), tools, {
        name: f.settings_name ?? '',
        tool_id: p.toolId,
        tool_params: p.toolParams,
        max_scan_time: p.maxTime,
        workspace_id: p.workspaceId,
      })
    })
    if (!r.ok) return renderNew(req, reply, { error: newScanWords(r.message), status: r.status, form: f })
    return reply.redirect(`/scan-settings?ok=settings-saved#settings-${r.value}`, 303)
  })
}

/** The scan page: live progress, summary, findings, tests and raw output. */
function scanPage(app: FastifyInstance, { db, placeOf, loadScan }: ScanPagesEnv) {
  /**
   * Everything on a scan page that changes while the scan runs (actions, progress, findings, tests,
   * raw output): it polls itself while the scan is active, and the answer after the end polls no more.
   * `queued`: the page came from starting the scan; "Scan queued" shows only while it still waits.
   */
  async function scanLive(req: FastifyRequest, s: ScanRow, queued: boolean): Promise<SafeHtml> {
    const [ws, findings, tests, logs, place] = await Promise.all([
      workspacesOf(db, userOf(req)),
      scanFindings(db, s.id),
      scanTests(db, s.id),
      scanLogs(db, s.id),
      placeOf(s),
    ])
    const live = isActive(s)
    const tail = logs.slice(-LOG_TAIL)
    const writes = ws.writes(s.workspace_id)
    const caveat = scanCaveat({ status_name: s.status, status_message: s.status_message }, countTests(tests), findings.length)
    return html`<div id="scan-live"${live ? html` hx-get="/scans/${s.id}/live${queued ? '?queued=1' : ''}" hx-trigger="every 2s" hx-swap="outerHTML"` : ''}>
${queued && s.status === 'waiting' ? html`<div class="msg ok" role="status" data-testid="queued">${QUEUED}</div>` : ''}
<div class="actions">
  ${writes && live ? postButton(req, `/scans/${s.id}/stop`, 'Stop scan', { cls: 'danger' }) : ''}
  <a class="button secondary" href="/scans/${s.id}/report.pdf" download>Download PDF report</a>
  <a class="button secondary" href="/scans/${s.id}/output.json">JSON output</a>
  <a class="button secondary" href="/findings${qs({ scan_id: s.id })}">Findings of this scan</a>
  ${
    writes
      ? html`<a class="button secondary" href="/scans/new${qs({ from_scan_id: s.id })}">Scan again</a>
  <a class="button secondary" href="/schedules${qs({ from_scan_id: s.id })}#new-schedule">Schedule these settings</a>
  <a class="button secondary" href="/scan-settings${qs({ from_scan_id: s.id })}#new-settings">Save these settings</a>`
      : ''
  }
  <a class="button secondary" href="/scans/${s.id}/changes">What changed</a>
  ${live || !writes ? '' : postButton(req, `/scans/${s.id}/delete`, 'Delete scan', { cls: 'danger', confirm: 'Delete this scan with its tests and findings?' })}
</div>
${progressFragment(s, false, place)}
<section aria-labelledby="sum"><h2 id="sum">Result summary</h2>${summaryTiles(s)}</section>
<section aria-labelledby="fs"><h2 id="fs">Findings (${findings.length})</h2>
${
  findings.length
    ? html`<div class="table-wrap"><table>${tableHead('Risk', 'Finding', 'Where', 'Status')}<tbody>${[
        groupByKind(findings).map((g) => findingGroupRow(g)),
      ]}</tbody></table></div>`
    : html`<p class="muted">No findings${live ? ' yet' : ''}.</p>`
}
${caveat ? html`<p class="msg warn" data-testid="caveat">${caveat}</p>` : ''}</section>
<section aria-labelledby="ts"><h2 id="ts">Tests (${tests.length})</h2>
${
  tests.length
    ? html`<div class="table-wrap"><table><thead><tr><th>Test</th><th>Status</th><th>Result</th><th>Findings</th></tr></thead><tbody>${tests.map(
        (t) => html`<tr><td>${t.name}<br><small class="muted">${t.description}</small></td><td>${t.status}</td><td>${t.result ?? ''}</td>
      <td>${t.finding_ids.length ? t.finding_ids.map((id) => html`<a href="/findings/${id}">#${id}</a> `) : html`<span class="muted">none</span>`}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No tests recorded${live ? ' yet' : ''}.</p>`
}</section>
<section aria-labelledby="raw"><h2 id="raw">Raw output ${
      logs.length > LOG_TAIL ? html`<small class="muted">(last ${LOG_TAIL} of ${logs.length} lines)</small>` : ''
    }</h2>
<pre data-testid="raw-output">${tail.join('\n') || '(nothing yet)'}</pre></section>
</div>`
  }

  app.get('/scans/:id', async (req, reply) => {
    const u = userOf(req)
    const s = await loadScan(req)
    const [ws, names] = await Promise.all([workspacesOf(db, u), targetNames(db, u.userId, [s.target_id])])
    const queued = (req.query as Record<string, string>).ok === 'scan-started'
    const body = html`<h1>Scan #${s.id}: ${toolName(s.tool_id)} of <a href="/targets/${s.target_id}">${names.get(s.target_id) ?? s.target_id}</a></h1>
${await scanLive(req, s, queued)}`
    return sendPage(reply, page(req, `Scan #${s.id}`, body, { section: 'scans', workspace: ws, ok: queued ? null : okMessage(req) }))
  })

  app.get('/scans/:id/live', async (req, reply) =>
    sendPage(reply, await scanLive(req, await loadScan(req), (req.query as Record<string, string>).queued === '1')),
  )
}

/** The live fragment, stop, delete, and the outputs of one scan. */
function scanActions(app: FastifyInstance, { db, placeOf, loadScan, renderList }: ScanPagesEnv) {
  app.get('/scans/:id/progress', async (req, reply) => {
    const s = await loadScan(req)
    const wasLive = (req.query as Record<string, string>).live === '1'
    // The scan ended while the page watched: reload it whole, with its findings, tests and output.
    if (wasLive && !isActive(s)) reply.header('hx-refresh', 'true')
    return sendPage(reply, progressFragment(s, wasLive, await placeOf(s)))
  })

  app.post('/scans/:id/stop', async (req, reply) => {
    const s = await loadScan(req)
    // The scan could be read (loadScan): nothing to stop means the caller's role refused it.
    const r = await changeLoaded(db, req, s.id, requestStop, (r) => r !== 'missing')
    if (r === 'requested') publish({ type: 'stop', scanId: s.id })
    return reply.redirect(`/scans/${s.id}?ok=scan-stopped`, 303)
  })

  app.post('/scans/:id/delete', async (req, reply) => {
    const s = await loadScan(req)
    const r = await changeLoaded(db, req, s.id, deleteScan, (r) => r === 'deleted', 'missing')
    if (r === 'active') return renderList(req, reply, 'This scan is waiting or running: stop it first, then delete it.', 409)
    return reply.redirect('/scans?ok=scan-deleted', 303)
  })

  app.get('/scans/:id/report.pdf', async (req, reply) => {
    const s = await loadScan(req)
    const pdf = await pdfOrBusy(reply, () => scanPdfStream(db, s, toolName))
    return reply.type('application/pdf').header('content-disposition', `attachment; filename="ward-scan-${s.id}.pdf"`).send(pdf)
  })

  app.get('/scans/:id/output.json', async (req, reply) => {
    const s = await loadScan(req)
    return reply
      .type('application/json')
      .header('content-disposition', `inline; filename="ward-scan-${s.id}.json"`)
      .send(JSON.stringify({ data: await scanOutputJson(db, s) }, null, 2))
  })
}

/** The new-scan form's end: the optional report callback, "Start scan", and saving the settings for later. */
function newScanTail(f: Record<string, string | undefined>) {
  return html`  <details><summary>Report callback (optional)</summary>
    <div class="grid">
      <div class="field"><label for="cb_url">URL (https://…)</label><input type="url" id="cb_url" name="callback_url" value="${f.callback_url ?? ''}"></div>
      <div class="field"><label for="cb_format">Format</label><select id="cb_format" name="callback_format">${[
        html`<option value="json">JSON</option>`,
        html`<option value="pdf"${selectedIf(f.callback_format === 'pdf')}>PDF</option>`,
      ]}</select></div>
      <div class="field"><label for="cb_secret">Signing secret (optional)</label>${[
        html`<input type="password" id="cb_secret" name="callback_secret" autocomplete="off">`,
      ]}</div>
    </div>
  </details>
  <div class="actions"><button type="submit">Start scan</button></div>
  <details class="mt" data-testid="save-settings"><summary>Save these settings for later</summary>
    <p class="muted">Saves the tool, its parameters and the time limit under a name (credentials stay encrypted), to start scans and schedules from.</p>
    <div class="field"><label for="settings_name">Name of the settings</label>${[
      html`<input type="text" id="settings_name" name="settings_name" maxlength="200" value="${f.settings_name ?? ''}"`,
      html` placeholder="Weekly deep scan, authenticated">`,
    ]}</div>
    <button type="submit" class="secondary" formaction="/scan-settings/from-form">Save settings</button>
  </details>`
}
