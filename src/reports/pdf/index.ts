// The scan report as a PDF (pdfkit): cover, summary with chart and overview, findings in risk
// order, tests. Pages are buffered so the footer can say "Page n of N"; output is collected
// from pdfkit's stream into one Buffer.
import PDFDocument from 'pdfkit'
import type { ReportFinding, ReportScan, ReportTest } from '../report-model.js'
import { buildContent, type ReportContent } from './content.js'
import { drawCover } from './cover.js'
import { drawFindings } from './findings.js'
import { FONT, registerFonts } from './fonts.js'
import { LEFT, RIGHT, type Doc } from './layout.js'
import { drawSummary } from './summary.js'
import { drawTests } from './tests.js'
import { drawChanges } from './changes.js'
import type { ScanChanges } from '../scan-changes.js'
import { oneLine } from './text.js'
import { COLOR, CONTENT_WIDTH, PAGE } from './theme.js'

export { buildContent, type ReportContent } from './content.js'

export interface RenderOptions {
  /** The report's "generated" time (tests pin it). */
  now?: Date
  /** What changed since the previous scan: drawn as the "Since last scan" section when given. */
  changes?: ScanChanges
}

export async function renderScanPdf(scan: ReportScan, findings: ReportFinding[], tests: ReportTest[], opts: RenderOptions = {}): Promise<Buffer> {
  const content = buildContent(scan, findings, tests, opts.now)
  const doc = new PDFDocument({
    size: PAGE.size,
    margins: PAGE.margin,
    bufferPages: true,
    autoFirstPage: true,
    compress: true,
    displayTitle: true,
    info: {
      Title: `Ward scan report: ${oneLine(scan.target.name, 200)}`,
      Author: 'Ward',
      Subject: `${oneLine(scan.tool_name, 100)} scan #${scan.id}`,
      Creator: 'Ward',
      CreationDate: opts.now ?? new Date(),
    },
  })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  try {
    registerFonts(doc)
    drawCover(doc, content)
    await drawSummary(doc, content)
    if (opts.changes) await drawChanges(doc, opts.changes)
    await drawFindings(doc, content)
    await drawTests(doc, content)
    stampPages(doc, content)
  } catch (err) {
    doc.end()
    await done.catch(() => undefined)
    throw err
  }
  doc.end()
  return done
}

/** Running header and "Page n of N" footer on every page but the cover. */
function stampPages(doc: Doc, c: ReportContent): void {
  const { start, count } = doc.bufferedPageRange()
  const target = oneLine(c.scan.target.name, 70)
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i)
    if (i === start) continue
    // Drawing in the margins: lift the bottom margin so pdfkit does not open a new page.
    const bottom = doc.page.margins.bottom
    doc.page.margins.bottom = 0
    doc.font(FONT.regular).fontSize(7.5).fillColor(COLOR.muted)
    // One line each, clipped (height + ellipsis): a long target must not run into the rule.
    const line = { width: CONTENT_WIDTH / 2 - 6, height: 10, ellipsis: true }
    doc.text(`Ward · ${oneLine(c.scan.tool_name, 60)} · scan #${c.scan.id}`, LEFT, 30, line)
    doc.text(target, LEFT + CONTENT_WIDTH / 2 + 6, 30, { ...line, align: 'right' })
    doc.moveTo(LEFT, 44).lineTo(RIGHT, 44).lineWidth(0.5).strokeColor(COLOR.rule).stroke()
    const fy = PAGE.height - 40
    doc.moveTo(LEFT, fy - 8).lineTo(RIGHT, fy - 8).lineWidth(0.5).strokeColor(COLOR.rule).stroke()
    doc.font(FONT.regular).fontSize(7.5).fillColor(COLOR.muted)
    doc.text('Confidential security report', LEFT, fy, { width: CONTENT_WIDTH / 2, lineBreak: false })
    doc.text(`Page ${i - start + 1} of ${count}`, LEFT + CONTENT_WIDTH / 2, fy, { width: CONTENT_WIDTH / 2, align: 'right', lineBreak: false })
    doc.page.margins.bottom = bottom
  }
}
