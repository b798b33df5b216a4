// The one wire shape of a finding (decisions.md "Finding fields"): the API's finding resources, the
// JSON scan output and JSON report callbacks all write this object. finding-json.ts writes the same
// text straight from stored rows on the findings routes' hot path.
import type { FindingGroupColumns, FindingRow } from '../store/schema.js'
import { decodeFinding } from '../store/finding-rows.js'
import { toApiTime } from '../store/time.js'
import type { Evidence } from './evidence.js'

export type FindingStatus = 'open' | 'fixed' | 'accepted' | 'false_positive'

/**
 * The life cycle fields of a finding: its duplicate group's, or (a finding older than the groups)
 * seen once, by its own scan.
 */
export function lifecycleView(row: Pick<FindingRow, 'created_at'> & FindingGroupColumns) {
  return {
    first_seen: toApiTime(row.group_first_seen ?? row.created_at)!,
    last_seen: toApiTime(row.group_last_seen ?? row.created_at)!,
    lifecycle: (row.group_state === 'fixed' ? 'fixed' : 'open') as 'open' | 'fixed',
    regression: row.group_regression === 1,
  }
}

export function findingView(row: FindingRow & FindingGroupColumns) {
  const f = decodeFinding(row)
  return {
    id: f.id,
    name: f.name,
    test_description: f.test_description,
    test_finished: f.test_finished,
    confirmed: f.confirmed,
    in_cisa_catalog: f.in_cisa_catalog,
    cve: f.cve,
    vuln_description: f.vuln_description,
    vuln_evidence: f.vuln_evidence as Evidence | null,
    risk_description: f.risk_description,
    risk_level: f.risk_level,
    status: f.status as FindingStatus,
    recommendation: f.recommendation,
    references: f.refs,
    verified: f.verified,
    vuln_id: f.vuln_id,
    owasp: f.owasp,
    cwe: f.cwe,
    port: f.port,
    protocol: f.protocol,
    service: f.service,
    url: f.url,
    scan_id: f.scan_id,
    target_id: f.target_id,
    created_at: toApiTime(f.created_at)!,
    // Extensions beside the spec's fields: CVSS of the finding's CVEs and their EPSS score.
    cvss_score: f.cvss_score ?? null,
    cvss_vector: f.cvss_vector ?? null,
    epss: f.epss_score === null || f.epss_score === undefined ? null : { score: f.epss_score, date: f.epss_date ?? '' },
    ...lifecycleView(row),
  }
}
