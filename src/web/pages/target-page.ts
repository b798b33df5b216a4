// A target's page: what Ward knows of it — ports and services seen (with product versions), its
// certificate and expiry, technologies, subdomains, web addresses, open findings by severity and
// their trend, the scan history per tool, the schedules — and "scan this target with…".
import type { FastifyInstance } from 'fastify'
import { notFound } from '../../domain/errors.js'
import { getTarget } from '../../store/targets.js'
import {
  targetFindingsPerDay,
  targetLatestOutputs,
  targetOpenByRisk,
  targetScans,
  targetSchedules,
  targetServices,
  targetUrls,
} from '../../store/target-overview.js'
import type { ScanRow } from '../../store/schema.js'
import { outputOf, ports, serverCert, subdomains, technologies, type PortFacts, type TechFacts } from '../../reports/output-facts.js'
import type { LatestOutput } from '../../store/target-overview.js'
import { toolName } from '../../tools/registry.js'
import { userOf, type WebContext } from '../context.js'
import { html, qs, tableHead } from '../html.js'
import { page } from '../layout.js'
import { idOf, sendPage } from '../respond.js'
import { when } from '../time.js'
import { workspacesOf } from '../workspace.js'
import { DAYS, findingsChart } from './dashboard.js'
import { duration, riskTileLinks, statusBadge } from './scans.js'

/** Scans grouped by tool, the tools in the order of their newest scan. */
function byTool(scans: ScanRow[]): Array<[number, ScanRow[]]> {
  const groups = new Map<number, ScanRow[]>()
  for (const s of scans) groups.set(s.tool_id, [...(groups.get(s.tool_id) ?? []), s])
  return [...groups]
}

/** Tools whose output members the page reads: ports and services, TLS, technologies, subdomains. */
const INVENTORY_TOOLS = { ports: [70, 80, 350], tls: 450, tech: [310, 170], subdomains: 20 } as const
const MAX_SUBDOMAINS = 100

/** What the newest finished scans of the inventory tools say about the target. */
function inventory(outs: LatestOutput[]) {
  const of = (toolId: number) => outs.find((o) => o.tool_id === toolId)
  const versions = new Map<string, PortFacts & { seen: string | null }>()
  for (const id of INVENTORY_TOOLS.ports) {
    const o = of(id)
    if (!o) continue
    for (const [key, f] of ports(outputOf(o))) if (!versions.get(key)?.product) versions.set(key, { ...f, seen: o.end_time })
  }
  const tls = of(INVENTORY_TOOLS.tls)
  const techScans = INVENTORY_TOOLS.tech.map(of).filter((o) => o !== undefined)
  // One row per technology; a version any scan saw wins over none.
  const tech = new Map<string, TechFacts>()
  for (const t of techScans.flatMap((o) => technologies(outputOf(o)))) {
    const key = t.name.toLowerCase()
    if (!tech.get(key)?.version) tech.set(key, t)
  }
  const subs = of(INVENTORY_TOOLS.subdomains)
  return {
    versions,
    cert: tls ? { scan: tls, facts: serverCert(outputOf(tls)) } : null,
    tech: { list: [...tech.values()], scans: techScans },
    subdomains: subs ? { scan: subs, list: [...subdomains(outputOf(subs))] } : null,
  }
}

const fromScan = (o: LatestOutput) =>
  html`<small class="muted">(scan <a href="/scans/${o.scan_id}">#${o.scan_id}</a>, ${when(o.end_time)})</small>`

function certificateSection(cert: ReturnType<typeof inventory>['cert']) {
  if (!cert) return ''
  const c = cert.facts
  if (!c)
    return html`<section aria-labelledby="cert"><h2 id="cert">Certificate</h2>${[
      html`<p class="muted">The last TLS scan ${fromScan(cert.scan)} read no certificate.</p></section>`,
    ]}`
  const days = Math.floor((Date.parse(c.valid_to) - Date.now()) / 86400000)
  const left = Number.isNaN(days)
    ? html`<span class="badge st">unknown expiry</span>`
    : days < 0
      ? html`<span class="badge bad">expired ${-days} day${days === -1 ? '' : 's'} ago</span>`
      : html`<span class="badge ${days < 30 ? 'bad' : 'fin'}">expires in ${days} day${days === 1 ? '' : 's'}</span>`
  return html`<section aria-labelledby="cert"><h2 id="cert">Certificate ${fromScan(cert.scan)}</h2>
<dl class="props" data-testid="certificate">${[
    html`<dt>Subject</dt><dd class="mono">${c.subject}</dd>`,
    html`<dt>Issuer</dt><dd class="mono">${c.issuer}</dd>`,
    html`<dt>Valid until</dt><dd>${c.valid_to} ${left}</dd>`,
    html`<dt>SHA-256</dt><dd class="mono">${c.fingerprint_sha256}</dd>`,
  ]}</dl></section>`
}

function techSection(tech: ReturnType<typeof inventory>['tech']) {
  if (!tech.scans.length) return ''
  return html`<section aria-labelledby="tech"><h2 id="tech">Technologies ${tech.scans.map(fromScan)}</h2>
${
  tech.list.length
    ? html`<ul data-testid="technologies">${tech.list.map(
        (t) => html`<li>${t.name}${t.version ? html` <span class="mono">${t.version}</span>` : ''}</li>`,
      )}</ul>`
    : html`<p class="muted">None recognised.</p>`
}</section>`
}

function subdomainSection(subs: ReturnType<typeof inventory>['subdomains']) {
  if (!subs) return ''
  const shown = subs.list.slice(0, MAX_SUBDOMAINS)
  return html`<section aria-labelledby="subs"><h2 id="subs">Subdomains ${fromScan(subs.scan)}</h2>
${
  shown.length
    ? html`<div class="table-wrap"><table data-testid="subdomains">${tableHead('Name', 'Address')}<tbody>${shown.map(
        ([name, ip]) =>
          html`<tr><td class="mono">${name}</td><td class="mono">${ip ?? html`<span class="muted">not resolved</span>`}</td></tr>`,
      )}</tbody></table></div>${
        subs.list.length > shown.length
          ? html`<p class="muted">and ${subs.list.length - shown.length} more in <a href="/scans/${subs.scan.scan_id}">the scan</a>.</p>`
          : ''
      }`
    : html`<p class="muted">None found.</p>`
}</section>`
}

export function targetPage(app: FastifyInstance, ctx: WebContext) {
  const { db, tools } = ctx
  const toolList = [...tools.all()].sort((a, b) => a.id - b.id)

  app.get('/targets/:id', async (req, reply) => {
    const u = userOf(req)
    const t = await getTarget(db, u.userId, idOf((req.params as { id: string }).id, 'Target'))
    if (!t) throw notFound('Target')
    const since = new Date(Date.now() - DAYS * 86400000).toISOString().slice(0, 10)
    const [ws, services, open, perDay, urls, scans, schedules, outs] = await Promise.all([
      workspacesOf(db, u),
      targetServices(db, t.id),
      targetOpenByRisk(db, t.id),
      targetFindingsPerDay(db, t.id, since),
      targetUrls(db, t.id),
      targetScans(db, u.userId, t.id),
      targetSchedules(db, u.userId, t.id),
      targetLatestOutputs(db, u.userId, t.id, [
        ...INVENTORY_TOOLS.ports,
        INVENTORY_TOOLS.tls,
        ...INVENTORY_TOOLS.tech,
        INVENTORY_TOOLS.subdomains,
      ]),
    ])
    const inv = inventory(outs)
    // Ports a scan's output lists without a finding there (a finding-less port list) are seen too.
    const listed = new Set(services.map((x) => `${x.protocol ?? 'tcp'}/${x.port}`))
    for (const [key, f] of inv.versions)
      if (!listed.has(key))
        services.push({ port: f.port, protocol: f.protocol, service: f.service, last_seen: f.seen ?? '', open_findings: 0 })
    services.sort((a, b) => a.port - b.port)
    const version = (port: number, protocol: string | null) => {
      const f = inv.versions.get(`${protocol ?? 'tcp'}/${port}`)
      return f?.product ? `${f.product}${f.version ? ` ${f.version}` : ''}` : ''
    }
    const body = html`<h1>${t.name} <small class="muted">${t.type}</small></h1>
${t.description ? html`<p class="muted">${t.description}</p>` : ''}
<section class="card" aria-labelledby="scan-with"><h2 id="scan-with">Scan this target with…</h2>
<div class="actions" data-testid="scan-with">${toolList.map(
      (x) => html`<a class="button secondary small" href="/scans/new${qs({ target_id: t.id, tool_id: x.id })}">${x.name}</a>`,
    )}</div></section>
<section aria-labelledby="open"><h2 id="open">Open findings by severity</h2>
<div class="sev" data-testid="target-findings">${[
      riskTileLinks(open, (r) => qs({ target_id: t.id, risk: r, status: 'open', workspace_id: 'all' })),
    ]}</div></section>
<section class="card mt" aria-labelledby="trend"><h2 id="trend">Findings over the last ${DAYS} days</h2>
${findingsChart(perDay, 'Findings per day by severity on this target')}</section>
${servicesSection(t.id, services, version)}
${certificateSection(inv.cert)}
${techSection(inv.tech)}
${subdomainSection(inv.subdomains)}
${
  urls.length
    ? html`<section aria-labelledby="urls"><h2 id="urls">Web addresses seen</h2>${[
        html`<ul class="mono" data-testid="urls">${urls.map((x) => html`<li>${x}</li>`)}</ul></section>`,
      ]}`
    : ''
}
${historySection(t.id, scans)}
<section aria-labelledby="sched"><h2 id="sched">Schedules</h2>
${
  schedules.length
    ? html`<ul>${schedules.map(
        (s) =>
          html`<li><a href="/schedules#schedule-${s.id}">${s.name}</a> — ${toolName(s.tool_id)}, ${
            s.paused ? 'paused' : html`next run ${when(s.next_run_at)}`
          }</li>`,
      )}</ul>`
    : html`<p class="muted">No schedule scans this target.</p>`
}</section>`
    return sendPage(reply, page(req, t.name, body, { section: 'targets', workspace: ws, chart: true }))
  })
}

function servicesSection(
  targetId: number,
  services: Awaited<ReturnType<typeof targetServices>>,
  version: (port: number, protocol: string | null) => string,
) {
  return html`<section aria-labelledby="ports"><h2 id="ports">Ports and services seen</h2>
${
  services.length
    ? html`<div class="table-wrap"><table data-testid="services">${tableHead(
        html`<th class="num">Port</th>`,
        'Protocol',
        'Service',
        'Product and version',
        html`<th class="num">Open findings</th>`,
        'Last seen',
      )}<tbody>${services.map(
        (s) =>
          html`<tr><td class="num"><a href="/findings${qs({ target_id: targetId, workspace_id: 'all' })}">${s.port}</a></td>${[
            html`<td>${s.protocol ?? ''}</td><td>${s.service ?? html`<span class="muted">unknown</span>`}</td>`,
            html`<td>${version(s.port, s.protocol)}</td><td class="num">${s.open_findings}</td><td>${when(s.last_seen)}</td>`,
          ]}</tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No port seen yet: a port scan or a network vulnerability scan finds them.</p>`
}</section>`
}

function historySection(targetId: number, scans: Awaited<ReturnType<typeof targetScans>>) {
  return html`<section aria-labelledby="hist"><h2 id="hist">Scan history per tool</h2>
${
  scans.length
    ? byTool(scans).map(
        ([
          toolId,
          rows,
        ]) => html`<h3>${toolName(toolId)} <small class="muted">(${rows.length} scan${rows.length === 1 ? '' : 's'})</small></h3>
<div class="table-wrap"><table data-testid="history-${toolId}">${[
          tableHead('Scan', 'Status', 'Findings', 'Started', html`<th class="wide-only">Duration</th>`),
        ]}<tbody>${rows.slice(0, 10).map((s) => {
          const found = s.count_critical + s.count_high + s.count_medium + s.count_low + s.count_info
          return html`<tr><td><a href="/scans/${s.id}">#${s.id}</a></td><td>${statusBadge(s.status)}</td><td>${found}</td>${[
            html`<td>${when(s.start_time, 'waiting')}</td><td class="wide-only">${duration(s)}</td>`,
          ]}</tr>`
        })}</tbody></table></div>`,
      )
    : html`<p class="muted">Not scanned yet.</p>`
}
${scans.length ? html`<p><a href="/scans${qs({ target_id: targetId })}">All scans of this target</a></p>` : ''}</section>`
}
