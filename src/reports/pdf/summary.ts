// Summary page: a short narrative, the bar chart of findings per risk level, and the overview
// table that doubles as a table of contents (each row links to the finding's details).
import { FONT } from './fonts.js'
import { LEFT, ensureSpace, paragraph, sectionTitle, subTitle, type Doc } from './layout.js'
import type { ReportContent } from './content.js'
import { drawTable } from './table.js'
import { cell, findingLocation, oneLine, plural } from './text.js'
import { COLOR, CONTENT_WIDTH, LIMIT, RISK, RISK_ORDER, riskStyle } from './theme.js'

export async function drawSummary(doc: Doc, c: ReportContent): Promise<void> {
  sectionTitle(doc, 'Summary')
  doc.outline.addItem('Summary')
  const { scan } = c
  const lines = [
    `${oneLine(scan.tool_name, 200)} scanned ${oneLine(scan.target.name, 300)}; ` +
      `the scan ended with status “${oneLine(scan.status_name, 60)}”. ${c.summaryLine}`,
  ]
  if (c.findings.length > 0) {
    lines.push(
      `${plural(c.confirmedCount, 'finding was', 'findings were')} confirmed by an active check; the others were inferred (for example from a version banner).`,
    )
  }
  if (c.kevCount > 0) {
    const them = c.kevCount === 1 ? 'it' : 'them'
    lines.push(
      `${plural(c.kevCount, 'finding concerns', 'findings concern')} a vulnerability listed in CISA's Known Exploited Vulnerabilities catalogue: ` +
        `attackers are known to exploit ${them}, so fix ${them} first.`,
    )
  }
  for (const l of lines) {
    paragraph(doc, l)
    doc.y += 4
  }
  doc.y += 8
  subTitle(doc, 'Findings by risk', 170)
  drawBarChart(doc, c)

  if (c.findings.length === 0) return
  doc.y += 10
  subTitle(doc, 'Findings overview', 80)
  const shown = c.findings.slice(0, LIMIT.overviewRows)
  await drawTable(
    doc,
    [
      { header: '#', weight: 5, align: 'right' },
      { header: 'Risk', weight: 10 },
      { header: 'Finding', weight: 42 },
      { header: 'Location', weight: 33 },
      { header: 'Status', weight: 10 },
    ],
    shown.map((f, i) => [
      String(i + 1),
      riskStyle(f.risk_level).label,
      cell(f.name, 300) + (f.in_cisa_catalog ? '  [KEV]' : ''),
      findingLocation(f),
      oneLine(f.status, 30).replace(/_/g, ' '),
    ]),
    {
      cellStyle: (r, col) => {
        if (col === 1) return { color: riskStyle(shown[r]!.risk_level).color, font: 'bold' }
        if (col === 2 && r < LIMIT.detailedFindings) return { goTo: findingAnchor(r) }
        return undefined
      },
    },
  )
  if (c.total > shown.length) paragraph(doc, `${c.total - shown.length} more findings are in the JSON output.`, { color: COLOR.muted })
}

export const findingAnchor = (index: number): string => `finding-${index + 1}`

/** Horizontal bars, one per level, on a scale with round tick values. */
function drawBarChart(doc: Doc, c: ReportContent): void {
  const labelW = 70
  const countW = 36
  const barH = 16
  const rowH = 26
  const chartX = LEFT + labelW
  const chartW = CONTENT_WIDTH - labelW - countW
  const max = Math.max(...RISK_ORDER.map((l) => c.counts[l]))
  const { step, top } = niceScale(max)
  ensureSpace(doc, rowH * 5 + 30)
  const y0 = doc.y + 4

  // Grid lines and tick labels.
  doc.font(FONT.regular).fontSize(7).fillColor(COLOR.muted)
  for (let v = 0; v <= top; v += step) {
    const x = chartX + (v / top) * chartW
    doc
      .moveTo(x, y0)
      .lineTo(x, y0 + rowH * 5)
      .lineWidth(0.4)
      .strokeColor(v === 0 ? COLOR.faint : COLOR.rule)
      .stroke()
    doc.fillColor(COLOR.muted).text(String(v), x - 20, y0 + rowH * 5 + 4, { width: 40, align: 'center', lineBreak: false })
  }

  RISK_ORDER.forEach((l, i) => {
    const y = y0 + i * rowH + (rowH - barH) / 2
    const n = c.counts[l]
    const style = RISK[l]
    doc
      .font(FONT.bold)
      .fontSize(9)
      .fillColor(COLOR.text)
      .text(style.label, LEFT, y + 3.5, { width: labelW - 10, align: 'right', lineBreak: false })
    const w = n > 0 ? Math.max((n / top) * chartW, 2) : 0
    if (w > 0) doc.rect(chartX, y, w, barH).fill(style.color)
    doc
      .font(FONT.bold)
      .fontSize(9)
      .fillColor(n > 0 ? style.color : COLOR.faint)
      .text(String(n), chartX + w + 5, y + 3.5, { width: countW + chartW - w, lineBreak: false })
  })
  doc.y = y0 + rowH * 5 + 18
  doc.x = LEFT
}

/** A scale from 0 to a round top (≥ max, ≥ 1) in 2–5 steps of 1, 2 or 5 × 10^k. */
export function niceScale(max: number): { step: number; top: number } {
  if (max <= 4) return { step: 1, top: Math.max(max, 1) }
  const raw = max / 4
  const mag = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag
  return { step, top: Math.ceil(max / step) * step }
}
