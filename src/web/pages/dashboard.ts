// The dashboard: open findings by severity, findings over time (uPlot), scans running now, recently finished scans.
import type { FastifyInstance } from 'fastify'
import { findingsPerDay, openFindingsByRisk, scansInStates, targetNames } from '../../store/web-lists.js'
import { ACTIVE_STATES, TERMINAL_STATES } from '../../store/scan-states.js'
import type { ScanRow } from '../../store/schema.js'
import { when } from '../time.js'
import { RISK_NAMES } from '../../reports/risk.js'
import { toolName } from '../../tools/registry.js'
import { userOf, type WebContext } from '../context.js'
import { html, qs, tableHead } from '../html.js'
import { page } from '../layout.js'
import { okMessage, sendPage } from '../respond.js'
import { workspacesOf } from '../workspace.js'
import { duration, riskTileLinks, statusBadge } from './scans.js'

export const DAYS = 30

/** uPlot's data: one x value per day (unix seconds) and one series per risk level. */
export function chartSeries(rows: Array<{ day: string; risk_level: number; n: number }>, today = new Date()) {
  const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - (DAYS - 1) * 86400000
  const t = Array.from({ length: DAYS }, (_, i) => (start + i * 86400000) / 1000)
  const s = RISK_NAMES.map(() => new Array<number>(DAYS).fill(0))
  for (const r of rows) {
    const i = Math.round((Date.parse(`${r.day}T00:00:00Z`) - start) / 86400000)
    if (i >= 0 && i < DAYS && r.risk_level >= 0 && r.risk_level <= 4) s[r.risk_level]![i]! += r.n
  }
  return { t, s }
}

/** The findings-per-day chart (drawn by the page script from `data-series`), labelled for screen readers. */
export const findingsChart = (rows: Parameters<typeof chartSeries>[0], label: string) =>
  html`<div id="findings-chart" class="chart" data-series="${JSON.stringify(chartSeries(rows))}" role="img" aria-label="${label}"></div>`

export function dashboardPages(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx

  /**
   * The parts of the dashboard that change as scans run and end: the severity tiles and both scan
   * tables. They poll together while a scan is running or waiting, so a scan that ends leaves
   * "Running now" and joins "Recently finished" at once; the answer without an active scan stops polling.
   */
  async function liveScans(userId: number, wsId: number) {
    const [open, running, recent] = await Promise.all([
      openFindingsByRisk(db, userId, wsId),
      scansInStates(db, userId, wsId, ACTIVE_STATES, 20),
      scansInStates(db, userId, wsId, TERMINAL_STATES, 10),
    ])
    const names = await targetNames(
      db,
      userId,
      [...running, ...recent].map((s) => s.target_id),
    )
    const scanRow = (s: ScanRow) =>
      html`<tr><td><a href="/scans/${s.id}">#${s.id}</a></td><td>${toolName(s.tool_id)}</td>${[
        html`<td><a href="/targets/${s.target_id}">${names.get(s.target_id) ?? s.target_id}</a></td>`,
        html`<td>${statusBadge(s.status)}</td><td class="num">${s.progress} %</td>`,
        html`<td>${s.end_time ? when(s.end_time) : duration(s)}</td>`,
      ]}</tr>`
    const scanTable = (rows: ScanRow[], empty: string, live: boolean) =>
      rows.length
        ? html`<div class="table-wrap"><table>${[
            tableHead('Scan', 'Tool', 'Target', 'Status', html`<th class="num">Progress</th>`, live ? 'Elapsed' : 'Ended'),
          ]}<tbody>${rows.map(scanRow)}</tbody></table></div>`
        : html`<p class="muted">${empty}</p>`
    const poll = running.length ? html` hx-get="/dashboard/live" hx-trigger="every 3s" hx-swap="outerHTML"` : ''
    return html`<div id="dash-live"${poll}>
<section aria-labelledby="open"><h2 id="open">Open findings by severity</h2>
<div class="sev" data-testid="open-findings">${[
      riskTileLinks(open, (r) => qs({ risk: r, status: 'open', group_duplicates: 1 })),
    ]}</div></section>
<div class="dash-scans">
<section aria-labelledby="run" data-testid="running"><h2 id="run">Running now</h2>${scanTable(running, 'No scan is running or waiting.', true)}</section>
<section aria-labelledby="recent" data-testid="recent"><h2 id="recent">Recently finished</h2>${scanTable(recent, 'No scan has finished yet.', false)}</section>
</div></div>`
  }

  app.get('/dashboard/live', async (req, reply) => {
    const u = userOf(req)
    const ws = await workspacesOf(db, u)
    return sendPage(reply, await liveScans(u.userId, ws.active?.id ?? 0))
  })

  app.get('/', async (req, reply) => {
    const u = userOf(req)
    const ws = await workspacesOf(db, u)
    const wsId = ws.active?.id ?? 0
    const since = new Date(Date.now() - DAYS * 86400000).toISOString().slice(0, 10)
    const [live, perDay] = await Promise.all([liveScans(u.userId, wsId), findingsPerDay(db, u.userId, wsId, since)])
    const body = html`<h1>Dashboard <small class="muted">· ${ws.activeName}</small></h1>
${live}
<section class="card mt" aria-labelledby="time"><h2 id="time">Findings over the last ${DAYS} days</h2>
${findingsChart(perDay, 'Findings per day by severity')}</section>
<div class="actions mt">${[
      ws.writes()
        ? html`<a class="button" href="/scans/new">Start a scan</a><a class="button secondary" href="/targets">Add a target</a>`
        : '',
      html`<a class="button secondary" href="/profile">Your API key</a>`,
    ]}</div>`
    return sendPage(reply, page(req, 'Dashboard', body, { section: 'dashboard', workspace: ws, ok: okMessage(req), chart: true }))
  })
}
