// How a finding is kept in the findings table: lists and objects as JSON text, flags as 0/1, and
// no NUL in plain text columns. The rest of Ward works with FindingRecord / StoredFinding and
// never sees the encoding.
import type { FindingRow, FindingsTable, NewFinding } from './schema.js'

export interface Owasp {
  owasp_2017: string
  owasp_2021: string
  owasp_2025: string
}

/** Where a new finding belongs: its scan, target, workspace and test. */
export interface FindingPlace {
  scanId: number
  targetId: number
  workspaceId: number
  testId: number | null
  testDescription: string
  now: string
}

// The columns kept encoded (JSON text, 0/1 flags) and the CVE scores a new finding may leave out;
// every other column is the table's own type, so the column list lives once, in schema.ts.
type Encoded = 'test_finished' | 'confirmed' | 'in_cisa_catalog' | 'cve' | 'vuln_evidence' | 'refs' | 'verified' | 'owasp'
type Scores = 'cvss_score' | 'cvss_vector' | 'epss_score' | 'epss_date'

/** A finding about to be stored, in plain values. */
export interface FindingRecord extends Omit<FindingsTable, 'id' | 'accepted_until' | Encoded | Scores> {
  test_finished: boolean
  confirmed: boolean
  in_cisa_catalog: boolean
  cve: string[]
  /** Evidence as reports/evidence.ts shapes it; stored as JSON. */
  vuln_evidence: object | null
  refs: string[]
  verified: boolean
  owasp: Owasp
  /** CVSS base score and vector of the finding's CVEs (the highest); absent or null when none. */
  cvss_score?: number | null
  cvss_vector?: string | null
  /** EPSS score of the finding's CVEs (the highest) and its date; absent or null when none. */
  epss_score?: number | null
  epss_date?: string | null
}

/** A stored finding read back, in plain values. */
export type StoredFinding = FindingRecord & { id: number }

// PostgreSQL text cannot hold NUL; what a service sent may contain it. JSON-encoded columns are safe
// (JSON.stringify writes \u0000 as an escape), plain text columns get U+FFFD instead.
const noNul = (s: string) => (s.includes('\u0000') ? s.replaceAll('\u0000', '\uFFFD') : s)
const noNulOrNull = (s: string | null) => (s === null ? null : noNul(s))
const flag = (b: boolean) => (b ? 1 : 0)

export function encodeFinding(f: FindingRecord): NewFinding {
  return {
    ...f,
    name: noNul(f.name),
    test_description: noNul(f.test_description),
    test_finished: flag(f.test_finished),
    confirmed: flag(f.confirmed),
    in_cisa_catalog: flag(f.in_cisa_catalog),
    cve: JSON.stringify(f.cve),
    vuln_description: noNul(f.vuln_description),
    vuln_evidence: f.vuln_evidence ? JSON.stringify(f.vuln_evidence) : null,
    refs: JSON.stringify(f.refs),
    verified: flag(f.verified),
    owasp: JSON.stringify(f.owasp),
    service: noNulOrNull(f.service),
    url: noNulOrNull(f.url),
    location: noNulOrNull(f.location),
    cvss_vector: noNulOrNull(f.cvss_vector ?? null),
  }
}

export function decodeFinding(r: FindingRow): StoredFinding {
  return {
    ...r,
    test_finished: r.test_finished === 1,
    confirmed: r.confirmed === 1,
    in_cisa_catalog: r.in_cisa_catalog === 1,
    cve: parseCves(r.cve),
    vuln_evidence: r.vuln_evidence ? (JSON.parse(r.vuln_evidence) as object) : null,
    refs: JSON.parse(r.refs) as string[],
    verified: r.verified === 1,
    owasp: JSON.parse(r.owasp) as Owasp,
  }
}

/** The cve column's CVE ids. */
export const parseCves = (column: string): string[] => JSON.parse(column) as string[]
