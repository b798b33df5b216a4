// The scan report as a PDF (pdfkit): cover, summary with chart and overview, findings in risk
// order, tests. Pages stream out as they are done (page-stamps.ts fills in "of N" at the end).
import PDFDocument from 'pdfkit'
import type { ReportFinding, ReportScan, ReportTest } from '../report-model.js'
import { buildContent, type ReportTotals } from './content.js'
import { drawCover } from './cover.js'
import { drawFindings } from './findings.js'
import { registerFonts } from './fonts.js'
import { drawSummary } from './summary.js'
import { drawTests } from './tests.js'
import { drawChanges } from './changes.js'
import type { ScanChanges } from '../scan-changes.js'
import { oneLine } from './text.js'
import { PAGE } from './theme.js'
import { stampPages } from './page-stamps.js'

export { buildContent, reportOrder, reportTotals, type ReportContent, type ReportTotals } from './content.js'

export interface RenderOptions {
  /** The report's "generated" time (tests pin it). */
  now?: Date
  /** What changed since the previous scan: drawn as the "Since last scan" section when given. */
  changes?: ScanChanges
  /** Counts over all findings, when `findings` holds only those the report draws (the first LIMIT.overviewRows in report order). */
  totals?: ReportTotals
}

/** Renders the report, handing each piece of the PDF to `write` as soon as pdfkit has it. */
export async function writeScanPdf(
  write: (chunk: Buffer) => void,
  scan: ReportScan,
  findings: ReportFinding[],
  tests: ReportTest[],
  opts: RenderOptions = {},
): Promise<void> {
  const content = buildContent(scan, findings, tests, opts.now, opts.totals)
  const doc = new PDFDocument({
    size: PAGE.size,
    margins: PAGE.margin,
    // Each page is written out when the next one starts: memory holds one page, not the report.
    bufferPages: false,
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
  const done = new Promise<void>((resolve, reject) => {
    doc.on('data', write)
    doc.on('end', resolve)
    doc.on('error', reject)
  })
  try {
    registerFonts(doc)
    drawCover(doc, content)
    const stamps = stampPages(doc, content)
    await drawSummary(doc, content)
    if (opts.changes) await drawChanges(doc, opts.changes)
    await drawFindings(doc, content)
    await drawTests(doc, content)
    stamps.finish()
  } catch (err) {
    doc.end()
    await done.catch(() => undefined)
    throw err
  }
  doc.end()
  return done
}

/** The whole report in one Buffer (tests, and callers that need the bytes at once). */
export async function renderScanPdf(
  scan: ReportScan,
  findings: ReportFinding[],
  tests: ReportTest[],
  opts: RenderOptions = {},
): Promise<Buffer> {
  const chunks: Buffer[] = []
  await writeScanPdf((c) => chunks.push(c), scan, findings, tests, opts)
  return Buffer.concat(chunks)
}
