// What a report is made of: the shapes the API produces for a scan, its findings and its tests
// (spec/decisions.md field meanings). The PDF renderer and callback delivery read only these.
import type { Evidence } from './evidence.js'

export type RiskLevel = 0 | 1 | 2 | 3 | 4

export interface ReportFinding {
  id: number
  name: string
  vuln_id: string
  risk_level: RiskLevel
  status: string
  vuln_description: string
  risk_description: string
  recommendation: string
  references: string[]
  cve: string[]
  cwe: string
  owasp: { owasp_2017: string; owasp_2021: string; owasp_2025: string }
  vuln_evidence: Evidence | null
  port: number | null
  protocol: string | null
  service: string | null
  confirmed: boolean
  in_cisa_catalog: boolean
  url?: string | null
}

export interface ReportTest {
  name: string
  description: string
  status: string
  result: string | null
}

export interface ReportScan {
  id: number
  tool_id: number
  tool_name: string
  target: { name: string; type: string }
  status_name: string
  status_message: string | null
  start_time: string | null
  end_time: string | null
  duration: number
  result_summary: { critical: number; high: number; medium: number; low: number; info: number; text: string }
}
