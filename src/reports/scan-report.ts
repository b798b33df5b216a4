// Gathers a scan's rows into the report model and has the PDF built (in a thread, a few at a time).
import type { Db } from '../store/db.js'
import type { ScanRow } from '../store/schema.js'
import type { Readable } from 'node:stream'
import { scanTests } from '../store/results.js'
import { findingHeads, findingsOfScan } from '../store/report-findings.js'
import { getTargetById } from '../store/targets.js'
import { summaryText } from './risk.js'
import { toApiTime } from '../store/time.js'
import { decodeFinding } from '../store/finding-rows.js'
import type { Evidence } from './evidence.js'
import type { ReportFinding, ReportScan, ReportTest } from './report-model.js'
import { scanChanges } from './scan-changes.js'
import { reportOrder, reportTotals, type ReportTotals } from './pdf/content.js'
import { LIMIT } from './pdf/theme.js'
import { pdfBuilds } from './pdf-builds.js'
import { pdfInThread } from './pdf-thread.js'

/** A tool's display name: the caller knows the tool catalogue, which sits above reports. */
export type ToolNames = (toolId: number) => string
const numbered: ToolNames = (id) => `Tool ${id}`

/**
 * The report's model: the scan, its first LIMIT.overviewRows findings in report order (whole rows
 * for the ones detailed, the overview's columns for the rest) and the counts over all of them, so a
 * scan of any size costs the same to report.
 */
export async function reportModel(
  db: Db,
  s: ScanRow,
  toolName: ToolNames = numbered,
): Promise<{ scan: ReportScan; findings: ReportFinding[]; tests: ReportTest[]; totals: ReportTotals }> {
  const target = await getTargetById(db, s.target_id)
  const counts = { critical: s.count_critical, high: s.count_high, medium: s.count_medium, low: s.count_low, info: s.count_info }
  const start = s.start_time ? Date.parse(s.start_time) : null
  const end = s.end_time ? Date.parse(s.end_time) : Date.now()
  const scan: ReportScan = {
    id: s.id,
    tool_id: s.tool_id,
    tool_name: toolName(s.tool_id),
    target: { name: target?.name ?? '(deleted target)', type: target?.type ?? '' },
    status_name: s.status,
    status_message: s.status_message,
    start_time: toApiTime(s.start_time),
    end_time: toApiTime(s.end_time),
    duration: start === null ? 0 : Math.max(0, Math.floor((end - start) / 1000)),
    result_summary: { ...counts, text: summaryText(counts) },
  }
  const heads = (await findingHeads(db, s.id)).sort(reportOrder)
  const totals = reportTotals(heads)
  const rows = await findingsOfScan(
    db,
    s.id,
    heads.slice(0, LIMIT.overviewRows).map((h) => h.id),
  )
  const findings: ReportFinding[] = rows.map(decodeFinding).map((f, i) => {
    // Past the detailed ones only the overview's columns are drawn: the long texts stay behind.
    const detailed = i < LIMIT.detailedFindings
    return {
      id: f.id,
      name: f.name,
      vuln_id: f.vuln_id,
      risk_level: f.risk_level as ReportFinding['risk_level'],
      status: f.status,
      vuln_description: detailed ? f.vuln_description : '',
      risk_description: detailed ? f.risk_description : '',
      recommendation: detailed ? f.recommendation : '',
      references: detailed ? f.refs : [],
      cve: f.cve,
      cwe: f.cwe,
      owasp: f.owasp,
      vuln_evidence: detailed ? (f.vuln_evidence as Evidence | null) : null,
      port: f.port,
      protocol: f.protocol,
      service: f.service,
      confirmed: f.confirmed,
      in_cisa_catalog: f.in_cisa_catalog,
      url: f.url,
    }
  })
  const tests: ReportTest[] = (await scanTests(db, s.id)).map((t) => ({
    name: t.name,
    description: t.description,
    status: t.status,
    result: t.result,
  }))
  return { scan, findings, tests, totals }
}

/**
 * The PDF report of a scan as a stream, built in a thread once one of the process's build slots is
 * free (pdf-builds.ts): past the queue a PdfBusyError (503), unless `refuseWhenFull` is false.
 */
export async function scanPdfStream(db: Db, s: ScanRow, toolName?: ToolNames, opts: { refuseWhenFull?: boolean } = {}): Promise<Readable> {
  const release = await pdfBuilds.acquire(opts)
  try {
    const m = await reportModel(db, s, toolName)
    const changes = await scanChanges(db, s)
    return pdfInThread({ ...m, changes }, release)
  } catch (e) {
    release()
    throw e
  }
}

/** The whole PDF at once (report callbacks sign and resend the same bytes); waits for a build slot however long the queue. */
export async function scanPdf(db: Db, s: ScanRow, toolName?: ToolNames): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const c of await scanPdfStream(db, s, toolName, { refuseWhenFull: false })) chunks.push(c as Buffer)
  return Buffer.concat(chunks)
}
