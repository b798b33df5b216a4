// Gathers a scan's rows into the report model and renders the PDF.
import type { Db } from '../store/db.js'
import type { ScanRow } from '../store/schema.js'
import { scanFindings, scanTests } from '../store/results.js'
import { getTargetById } from '../store/targets.js'
import { summaryText } from './risk.js'
import { toApiTime } from '../store/time.js'
import { decodeFinding } from '../store/finding-rows.js'
import type { Evidence } from './evidence.js'
import type { ReportFinding, ReportScan, ReportTest } from './report-model.js'
import { scanChanges } from './scan-changes.js'

/** A tool's display name: the caller knows the tool catalogue, which sits above reports. */
export type ToolNames = (toolId: number) => string
const numbered: ToolNames = (id) => `Tool ${id}`

export async function reportModel(db: Db, s: ScanRow, toolName: ToolNames = numbered): Promise<{ scan: ReportScan; findings: ReportFinding[]; tests: ReportTest[] }> {
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
  const findings: ReportFinding[] = (await scanFindings(db, s.id)).map(decodeFinding).map((f) => ({
    id: f.id,
    name: f.name,
    vuln_id: f.vuln_id,
    risk_level: f.risk_level as ReportFinding['risk_level'],
    status: f.status,
    vuln_description: f.vuln_description,
    risk_description: f.risk_description,
    recommendation: f.recommendation,
    references: f.refs,
    cve: f.cve,
    cwe: f.cwe,
    owasp: f.owasp,
    vuln_evidence: f.vuln_evidence as Evidence | null,
    port: f.port,
    protocol: f.protocol,
    service: f.service,
    confirmed: f.confirmed,
    in_cisa_catalog: f.in_cisa_catalog,
    url: f.url,
  }))
  const tests: ReportTest[] = (await scanTests(db, s.id)).map((t) => ({ name: t.name, description: t.description, status: t.status, result: t.result }))
  return { scan, findings, tests }
}

export async function scanPdf(db: Db, s: ScanRow, toolName?: ToolNames): Promise<Buffer> {
  const m = await reportModel(db, s, toolName)
  const changes = await scanChanges(db, s)
  const { renderScanPdf } = await import('./pdf/index.js')
  return renderScanPdf(m.scan, m.findings, m.tests, { changes })
}
