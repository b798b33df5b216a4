// "Since last scan": what changed against the previous complete scan of the same target and tool
// (reports/scan-changes.ts), one row per change. Scanner-supplied text goes through cell().
import type { ScanChanges } from '../scan-changes.js'
import { paragraph, sectionTitle, type Doc } from './layout.js'
import { drawCappedTable } from './table.js'
import { cell, formatTime, plural } from './text.js'
import { COLOR } from './theme.js'

const KIND_COLOR: Record<string, string> = {
  new: '#c0392b',
  opened: '#c0392b',
  added: '#c0392b',
  found: '#c0392b',
  fixed: '#1f7a4d',
  closed: '#1f7a4d',
  removed: '#1f7a4d',
  gone: '#1f7a4d',
  changed: '#b9770e',
  'not covered': '#6b7280',
}

const where = (f: { port: number | null; protocol: string | null; location: string | null }) =>
  [f.port !== null ? `${f.port}/${f.protocol ?? 'tcp'}` : null, f.location].filter(Boolean).join(' ')
const svc = (p: { service: string | null; product: string | null; version: string | null }) =>
  [p.service, p.product, p.version].filter(Boolean).join(' ') || '—'

/** [area, change, detail] rows, in a fixed order: findings, ports, subdomains, TLS, URLs. */
export function changeRows(c: ScanChanges): Array<[string, string, string]> {
  const rows: Array<[string, string, string]> = []
  for (const f of c.findings.new) rows.push(['Finding', 'new', `${f.name} ${where(f)}`])
  for (const f of c.findings.gone) rows.push(['Finding', 'fixed', `${f.name} ${where(f)}`])
  // Never "gone": this scan did not look there (a port it did not probe, a test that could not run).
  for (const f of c.findings.not_covered) rows.push(['Finding', 'not covered', `${f.name} ${where(f)}`])
  const p = c.surface.ports
  for (const x of p.opened) rows.push(['Port', 'opened', `${x.port}/${x.protocol} ${svc(x)}`])
  for (const x of p.closed) rows.push(['Port', 'closed', `${x.port}/${x.protocol} ${svc(x)}`])
  for (const x of p.changed) rows.push(['Service', 'changed', `${x.port}/${x.protocol}: ${svc(x.before)} → ${svc(x.after)}`])
  const d = c.surface.subdomains
  for (const x of d.added) rows.push(['Subdomain', 'added', `${x.hostname} ${x.ip_address ?? ''}`])
  for (const x of d.removed) rows.push(['Subdomain', 'removed', `${x.hostname} ${x.ip_address ?? ''}`])
  for (const x of d.address_changed) rows.push(['Subdomain', 'changed', `${x.hostname}: ${x.before ?? '—'} → ${x.after ?? '—'}`])
  const t = c.surface.tls
  if (t.certificate) {
    const side = (x: typeof t.certificate.before) =>
      x ? `${x.issuer}, expires ${x.valid_to}, SHA-256 ${x.fingerprint_sha256.slice(0, 23)}…` : 'none'
    rows.push(['Certificate', 'changed', `${side(t.certificate.before)} → ${side(t.certificate.after)}`])
  }
  for (const x of t.protocols_added) rows.push(['TLS protocol', 'added', x])
  for (const x of t.protocols_removed) rows.push(['TLS protocol', 'removed', x])
  for (const x of t.ciphers_added) rows.push(['Cipher', 'added', x])
  for (const x of t.ciphers_removed) rows.push(['Cipher', 'removed', x])
  for (const x of c.surface.urls.found) rows.push(['URL', 'found', x])
  for (const x of c.surface.urls.gone) rows.push(['URL', 'gone', x])
  return rows
}

export async function drawChanges(doc: Doc, c: ScanChanges): Promise<void> {
  sectionTitle(doc, 'Since last scan')
  doc.outline.addItem('Since last scan')
  if (c.against_scan_id === null) {
    paragraph(doc, 'No earlier complete scan of this target with this tool: everything in this report is new.', { color: COLOR.muted })
    return
  }
  const rows = changeRows(c)
  paragraph(
    doc,
    `Compared with scan #${c.against_scan_id} (ended ${formatTime(c.against_end_time)}): ` +
      `${rows.length ? plural(rows.length, 'change') : 'nothing changed'}; ${plural(c.findings.still.length, 'finding')} still present.`,
  )
  if (!c.complete)
    paragraph(doc, 'This scan did not run to its end, so nothing is reported as fixed, closed or removed.', { color: COLOR.muted })
  if (!rows.length) return
  await drawCappedTable(
    doc,
    [
      { header: 'What', weight: 16, text: (r) => cell(r[0], 40) },
      {
        header: 'Change',
        weight: 12,
        text: (r) => cell(r[1], 20),
        style: (r) => ({ color: KIND_COLOR[r[1]] ?? COLOR.text, font: 'bold' }),
      },
      { header: 'Detail', weight: 72, text: (r) => cell(r[2], 1000) },
    ],
    rows,
    'changes in the API (GET /scans/{id}/changes)',
  )
}
