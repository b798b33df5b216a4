// CSV, one row per finding (RFC 4180: quoted fields, CRLF). Spreadsheet-safe: a cell a spreadsheet
// would read as a formula (starting with =, +, -, @, tab or CR) gets a leading apostrophe, because
// finding text comes from the scanned service and is attacker-controlled.
import { findingFingerprint } from './fingerprint.js'
import { findingLocation, severityOf, type ScanInfo, type WireFinding } from './types.js'

export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : Array.isArray(v) ? v.join(' ') : String(v)
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s
}

const COLUMNS = [
  'scan_id',
  'target',
  'finding_id',
  'severity',
  'risk_level',
  'vuln_id',
  'name',
  'status',
  'confirmed',
  'host',
  'port',
  'protocol',
  'service',
  'url',
  'cve',
  'cwe',
  'owasp_2021',
  'in_cisa_catalog',
  'recommendation',
  'references',
  'fingerprint',
] as const

/** Rows of findings; `scanOf` gives each finding's scan (one scan for a scan export, many for GET /findings). */
export function findingsCsv(findings: readonly WireFinding[], scanOf: (f: WireFinding) => ScanInfo): string {
  const lines = [COLUMNS.join(',')]
  for (const f of findings) {
    const scan = scanOf(f)
    const loc = findingLocation(scan, f)
    const row: Record<(typeof COLUMNS)[number], unknown> = {
      scan_id: f.scan_id ?? scan.id,
      target: scan.target,
      finding_id: f.id,
      severity: severityOf(f.risk_level),
      risk_level: f.risk_level,
      vuln_id: f.vuln_id,
      name: f.name,
      status: f.status ?? '',
      confirmed: f.confirmed ?? '',
      host: loc.host,
      port: loc.port,
      protocol: loc.protocol,
      service: f.service ?? '',
      url: loc.url,
      cve: f.cve ?? [],
      cwe: f.cwe ?? '',
      owasp_2021: f.owasp?.owasp_2021 ?? '',
      in_cisa_catalog: f.in_cisa_catalog ?? '',
      recommendation: f.recommendation ?? '',
      references: f.references ?? [],
      fingerprint: findingFingerprint(scan.target, f),
    }
    lines.push(COLUMNS.map((c) => csvCell(row[c])).join(','))
  }
  return lines.join('\r\n') + '\r\n'
}

export const toCsv = (scan: ScanInfo, findings: readonly WireFinding[]) => findingsCsv(findings, () => scan)
