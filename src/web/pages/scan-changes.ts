// The comparison page of a scan: what changed since the previous complete scan of the same target
// and tool, or against a chosen one — findings new, gone, still there and not looked at again, ports
// opened, closed and changed, subdomains, the certificate and TLS, web addresses.
import type { FastifyInstance } from 'fastify'
import { badRequest, notFound } from '../../domain/errors.js'
import { scanChanges, type FindingRef } from '../../reports/scan-changes.js'
import { getScan } from '../../store/scans.js'
import { targetScans } from '../../store/target-overview.js'
import { targetNames } from '../../store/web-lists.js'
import { toolName } from '../../tools/registry.js'
import { userOf, type WebContext } from '../context.js'
import { html, option, type SafeHtml } from '../html.js'
import { page } from '../layout.js'
import { idOf, sendPage } from '../respond.js'
import { when } from '../time.js'
import { workspacesOf } from '../workspace.js'
import { riskBadge } from './scans.js'

const where = (f: FindingRef) => f.location ?? (f.port !== null ? `${f.port}/${f.protocol ?? ''}${f.service ? ` ${f.service}` : ''}` : '')

function findingList(title: string, testid: string, rows: FindingRef[], note = ''): SafeHtml {
  return html`<section aria-label="${title}"><h3>${title} <small class="muted">(${rows.length})</small></h3>${note ? html`<p class="muted">${note}</p>` : ''}
${
  rows.length
    ? html`<ul data-testid="${testid}">${rows.map(
        (f) => html`<li>${riskBadge(f.risk_level)} <a href="/findings/${f.id}">${f.name}</a> <span class="mono">${where(f)}</span></li>`,
      )}</ul>`
    : html`<p class="muted" data-testid="${testid}">none</p>`
}</section>`
}

const INCOMPLETE = 'This scan did not finish completely: nothing is reported gone, closed or removed.'
const NOT_COVERED = 'Found before at places this scan did not reach: neither gone nor still there.'
/** A service as a change shows it: product and version, else the service name. */
const serviceName = (x: { product?: string | null; version?: string | null; service?: string | null }) =>
  [x.product, x.version].filter(Boolean).join(' ') || x.service || '?'

const list = (title: string, items: string[]) =>
  items.length
    ? html`<h3>${title} <small class="muted">(${items.length})</small></h3><ul class="mono">${items.map((x) => html`<li>${x}</li>`)}</ul>`
    : ''

export function scanChangesPage(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx
  app.get('/scans/:id/changes', async (req, reply) => {
    const u = userOf(req)
    const s = await getScan(db, u.userId, idOf((req.params as { id: string }).id, 'Scan'))
    if (!s) throw notFound('Scan')
    const q = req.query as Record<string, string>
    let against: Awaited<ReturnType<typeof getScan>>
    if (q.against) {
      against = await getScan(db, u.userId, idOf(q.against, 'Scan'))
      if (!against) throw notFound('Scan')
      if (against.target_id !== s.target_id || against.tool_id !== s.tool_id)
        throw badRequest(`Scan #${against.id} is not of the same target and tool as scan #${s.id}`)
    }
    const [ws, names, c, others] = await Promise.all([
      workspacesOf(db, u),
      targetNames(db, u.userId, [s.target_id]),
      scanChanges(db, s, against),
      targetScans(db, u.userId, s.target_id),
    ])
    const choices = others.filter((o) => o.tool_id === s.tool_id && o.id !== s.id)
    const p = c.surface.ports
    const cert = c.surface.tls.certificate
    const ended = (o: (typeof choices)[number]) => (o.end_time ? `, ${o.end_time.slice(0, 16).replace('T', ' ')} UTC` : '')
    const body = html`<h1>What changed: scan #${s.id} <small class="muted">${toolName(s.tool_id)} of ${[
      html`<a href="/targets/${s.target_id}">${names.get(s.target_id) ?? s.target_id}</a></small></h1>`,
    ]}
<form method="get" action="/scans/${s.id}/changes" class="filters">
  <div><label for="against">Compared with</label><select id="against" name="against"><option value="">the previous complete scan</option>${[
    choices.map((o) => option(o.id, html`#${o.id} (${o.status}${ended(o)})`, o.id === against?.id)),
  ]}</select></div>
  <button type="submit" class="secondary">Compare</button> <a href="/scans/${s.id}">Back to the scan</a>
</form>
${
  c.against_scan_id === null
    ? html`<p class="msg warn" data-testid="no-earlier">${[
        html`There is no earlier complete scan of this target with this tool: everything found is new.`,
      ]}</p>`
    : html`<p data-testid="against">Against scan <a href="/scans/${c.against_scan_id}">#${c.against_scan_id}</a>${[
        c.against_end_time ? html`, ended ${when(c.against_end_time)}` : '',
      ]}. ${c.changed ? html`<strong>Something changed.</strong>` : 'Nothing changed.'}</p>`
}
${c.complete ? '' : html`<p class="msg warn">${INCOMPLETE}</p>`}
<section class="card"><h2>Findings</h2>
<div class="grid">${findingList('New', 'new', c.findings.new)}${findingList('Gone', 'gone', c.findings.gone)}</div>
${findingList('Still there', 'still', c.findings.still)}
${c.findings.not_covered.length ? findingList('Not looked at again', 'not-covered', c.findings.not_covered, NOT_COVERED) : ''}
</section>
<section class="card"><h2>Attack surface</h2>
${
  p.opened.length || p.closed.length || p.changed.length
    ? html`${list(
        'Ports opened',
        p.opened.map((x) => `${x.port}/${x.protocol} ${x.service ?? ''} ${x.product ?? ''} ${x.version ?? ''}`.trim()),
      )}${list(
        'Ports closed',
        p.closed.map((x) => `${x.port}/${x.protocol} ${x.service ?? ''}`.trim()),
      )}${list(
        'Services changed',
        p.changed.map((x) => `${x.port}/${x.protocol}: ${serviceName(x.before)} → ${serviceName(x.after)}`),
      )}`
    : html`<p class="muted">No port opened, closed or changed.</p>`
}
${list(
  'Subdomains added',
  c.surface.subdomains.added.map((x) => `${x.hostname} ${x.ip_address ?? ''}`.trim()),
)}${list(
  'Subdomains removed',
  c.surface.subdomains.removed.map((x) => x.hostname),
)}
${
  cert
    ? html`<h3>Certificate</h3><p>${[
        cert.before ? html`before: ${cert.before.subject}, valid to ${cert.before.valid_to}` : 'none before',
        ' → ',
        cert.after ? html`now: ${cert.after.subject}, valid to ${cert.after.valid_to}` : 'none now',
      ]}</p>`
    : ''
}
${list('TLS protocols added', c.surface.tls.protocols_added)}${list('TLS protocols removed', c.surface.tls.protocols_removed)}
${list('Web addresses found', c.surface.urls.found)}${list('Web addresses gone', c.surface.urls.gone)}
</section>`
    return sendPage(reply, page(req, `Changes of scan #${s.id}`, body, { section: 'scans', workspace: ws }))
  })
}
