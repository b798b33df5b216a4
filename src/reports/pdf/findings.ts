// One block per finding, in risk order: title and badges, where, what, so what, proof, fix, refs.
import type { ReportFinding } from '../report-model.js'
import type { TableEvidence, TextEvidence } from '../evidence.js'
import { FONT } from './fonts.js'
import {
  BADGE_HEIGHT,
  BOTTOM,
  LEFT,
  TOP,
  badge,
  breathe,
  ensureSpace,
  fieldLabel,
  keyValues,
  paragraph,
  rule,
  sectionTitle,
  type Doc,
} from './layout.js'
import type { ReportContent } from './content.js'
import { findingAnchor } from './summary.js'
import { drawTable } from './table.js'
import { cell, clean, findingLocation, oneLine } from './text.js'
import { COLOR, CONTENT_WIDTH, LIMIT, SIZE, riskStyle } from './theme.js'

export async function drawFindings(doc: Doc, c: ReportContent): Promise<void> {
  if (c.findings.length === 0) return
  sectionTitle(doc, 'Findings')
  const outline = doc.outline.addItem('Findings')
  const detailed = c.findings.slice(0, LIMIT.detailedFindings)
  for (let i = 0; i < detailed.length; i++) {
    if (i > 0 && i % LIMIT.yieldEvery === 0) await breathe(doc)
    await drawFinding(doc, detailed[i]!, i, outline)
  }
  if (c.total > detailed.length) {
    const listed = Math.min(c.total, LIMIT.overviewRows) - detailed.length
    paragraph(
      doc,
      `The report details the first ${detailed.length} findings; the overview lists ${listed} more, and the JSON output holds them all.`,
      { color: COLOR.muted },
    )
  }
}

async function drawFinding(doc: Doc, f: ReportFinding, index: number, outline: PDFKit.PDFOutline): Promise<void> {
  const risk = riskStyle(f.risk_level)
  ensureSpace(doc, 190) // title, badges, meta and the start of the description together
  if (doc.y > TOP + 1) doc.y += 6
  const top = doc.y
  outline.addItem(`${index + 1}. ${oneLine(f.name, 120)}`)

  // Title with a risk-coloured bar at its left.
  doc
    .font(FONT.bold)
    .fontSize(SIZE.h3)
    .fillColor(COLOR.text)
    .text(`${index + 1}. ${oneLine(f.name, 400)}`, LEFT + 10, top, {
      width: CONTENT_WIDTH - 10,
      lineGap: 1,
      destination: findingAnchor(index),
    })
  let x = LEFT + 10
  const by = doc.y + 4
  x += badge(doc, x, by, risk.label.toUpperCase(), risk.color) + 5
  x += badge(doc, x, by, oneLine(f.status, 30).replace(/_/g, ' ').toUpperCase() || 'OPEN', COLOR.muted, { outline: true }) + 5
  x += badge(doc, x, by, f.confirmed ? 'CONFIRMED' : 'NOT CONFIRMED', f.confirmed ? '#1f7a4d' : COLOR.faint, { outline: true }) + 5
  if (f.in_cisa_catalog) badge(doc, x, by, 'CISA KEV: KNOWN EXPLOITED', COLOR.kev)
  doc.rect(LEFT, top, 3.5, by + BADGE_HEIGHT - top).fill(risk.color)
  doc.y = by + BADGE_HEIGHT + 10

  const meta: Array<[string, string]> = []
  const where = findingLocation(f)
  if (where) meta.push(['Location', where])
  meta.push(['Check', oneLine(f.vuln_id, 200)])
  if (f.cve.length > 0) meta.push(['CVE', cveList(f.cve)])
  if (f.cwe) meta.push(['CWE', oneLine(f.cwe, 40)])
  const owasp = [f.owasp.owasp_2025, f.owasp.owasp_2021, f.owasp.owasp_2017].filter(Boolean).map((s) => oneLine(s, 120))
  if (owasp.length > 0) meta.push(['OWASP Top 10', owasp.join('\n')])
  keyValues(doc, meta, { labelWidth: 86, size: 8.5 })
  doc.y += 6

  field(doc, 'Description', f.vuln_description)
  field(doc, 'Impact', f.risk_description)
  if (f.vuln_evidence) {
    fieldLabel(doc, 'Evidence')
    if (f.vuln_evidence.type === 'table') await evidenceTable(doc, f.vuln_evidence)
    else evidenceText(doc, f.vuln_evidence)
    doc.y += 6
  }
  field(doc, 'Recommendation', f.recommendation)
  references(doc, f.references)

  doc.y += 4
  ensureSpace(doc, 12)
  rule(doc, doc.y)
  doc.y += 10
}

function cveList(cves: string[]): string {
  const shown = cves.slice(0, LIMIT.cves).map((id) => oneLine(id, 40))
  return shown.join(', ') + (cves.length > shown.length ? ` and ${cves.length - shown.length} more` : '')
}

function field(doc: Doc, label: string, text: string): void {
  const t = clean(text, LIMIT.fieldChars).trim()
  if (!t) return
  fieldLabel(doc, label)
  paragraph(doc, t)
  doc.y += 8
}

function references(doc: Doc, refs: string[]): void {
  const list = refs.map((r) => oneLine(r, 400)).filter(Boolean)
  if (list.length === 0) return
  fieldLabel(doc, 'References')
  const shown = list.slice(0, LIMIT.references)
  for (const ref of shown) {
    ensureSpace(doc, 12)
    const isUrl = /^https?:\/\//i.test(ref)
    doc
      .font(FONT.regular)
      .fontSize(SIZE.small + 0.5)
      .fillColor(isUrl ? COLOR.link : COLOR.text)
      .text(ref, LEFT + 8, doc.y, { width: CONTENT_WIDTH - 8, lineGap: 1, ...(isUrl ? { link: ref } : {}) })
    doc.y += 1.5
  }
  if (list.length > shown.length)
    paragraph(doc, `and ${list.length - shown.length} more (see the JSON output).`, { color: COLOR.muted, size: SIZE.small })
  doc.x = LEFT
  doc.y += 6
}

async function evidenceTable(doc: Doc, ev: TableEvidence): Promise<void> {
  const headers = ev.data.headers.slice(0, LIMIT.tableEvidenceColumns)
  const ncols = Math.max(
    headers.length,
    ...ev.data.rows.slice(0, LIMIT.tableEvidenceRows).map((r) => Math.min(r.length, LIMIT.tableEvidenceColumns)),
    1,
  )
  const columns = Array.from({ length: ncols }, (_, i) => ({ header: cell(headers[i] ?? '', 120), weight: 1 }))
  // Columns share the width by how much text they hold (within 1:4), so a long column gets room.
  const rows = ev.data.rows.slice(0, LIMIT.tableEvidenceRows).map((r) => columns.map((_, i) => cell(r[i] ?? '', LIMIT.cellChars)))
  const avg = columns.map((col, i) => Math.max(col.header.length, ...rows.slice(0, 50).map((r) => Math.min(r[i]!.length, 120)), 4))
  const minAvg = Math.min(...avg)
  columns.forEach((col, i) => {
    col.weight = Math.min(avg[i]!, minAvg * 4)
  })
  await drawTable(doc, columns, rows, { size: SIZE.small })
  if (ev.data.rows.length > rows.length)
    paragraph(doc, `${ev.data.rows.length - rows.length} more rows in the JSON output.`, { color: COLOR.muted, size: SIZE.small })
}

/** Monospaced block on a grey ground, split at line boundaries where pages end. */
function evidenceText(doc: Doc, ev: TextEvidence): void {
  const text = clean(ev.data.text, LIMIT.textEvidenceChars).replace(/\n+$/, '')
  const pad = 6
  const width = CONTENT_WIDTH - 2 * pad
  const opts = { width, lineGap: 1 }
  doc.font(FONT.mono).fontSize(SIZE.mono)
  const all = text.split('\n')
  const lines = all.slice(0, LIMIT.textEvidenceLines).map((l) => (l === '' ? ' ' : l))
  if (all.length > lines.length) lines.push(`… ${all.length - lines.length} more lines in the JSON output`)
  const heights = lines.map((l) => doc.heightOfString(l, opts))
  const maxBlock = BOTTOM - TOP - 2 * pad

  let i = 0
  while (i < lines.length) {
    if (BOTTOM - doc.y < Math.min(heights[i]!, 40) + 2 * pad) doc.addPage()
    const room = Math.min(BOTTOM - doc.y - 2 * pad, maxBlock)
    let h = 0
    let j = i
    while (j < lines.length && h + heights[j]! <= room) h += heights[j++]!
    if (j === i) {
      h = room
      j = i + 1
    } // one line taller than the room: clip it
    const y = doc.y
    doc.rect(LEFT, y, CONTENT_WIDTH, h + 2 * pad).fill(COLOR.evidenceBg)
    doc.rect(LEFT, y, 2, h + 2 * pad).fill(COLOR.faint)
    doc
      .font(FONT.mono)
      .fontSize(SIZE.mono)
      .fillColor(COLOR.text)
      .text(lines.slice(i, j).join('\n'), LEFT + pad, y + pad, { ...opts, height: h + 2, ellipsis: true })
    doc.x = LEFT
    doc.y = y + h + 2 * pad
    i = j
  }
}
