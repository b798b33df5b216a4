// A finding is made from a check (catalogue data) and what the tool saw: map once, here.
import { RISK_LEVEL } from '../toolkit/check.js'
import type { FindingInput } from '../toolkit/tool.js'
import type { NewFinding } from '../store/schema.js'
import { dedupKey } from './finding-identity.js'
import { isInKev } from './kev.js'

export interface FindingPlace {
  scanId: number
  targetId: number
  workspaceId: number
  testId: number | null
  testDescription: string
  now: string
}

// PostgreSQL text cannot hold NUL; what a service sent may contain it. JSON-encoded columns are safe
// (JSON.stringify writes \u0000 as an escape), plain text columns get U+FFFD instead.
const noNul = (s: string) => (s.includes('\u0000') ? s.replaceAll('\u0000', '\uFFFD') : s)
const noNulOrNull = (s: string | null) => (s === null ? null : noNul(s))

export function buildFinding(f: FindingInput, at: FindingPlace, kev: ReadonlySet<string>): NewFinding {
  const c = f.check
  const cve = [...new Set([...(c.cve ?? []), ...(f.cve ?? [])])]
  const owasp = { owasp_2017: c.owasp['2017'] ?? '', owasp_2021: c.owasp['2021'] ?? '', owasp_2025: c.owasp['2025'] ?? '' }
  const port = f.port ?? null
  const protocol = f.protocol ?? null
  return {
    scan_id: at.scanId,
    target_id: at.targetId,
    workspace_id: at.workspaceId,
    test_id: at.testId,
    dedup_key: dedupKey({ targetId: at.targetId, vulnId: c.id, port, protocol, url: f.url ?? null, location: f.location ?? null }),
    vuln_id: c.id,
    name: noNul(f.name ?? c.name),
    test_description: noNul(at.testDescription),
    test_finished: 0,
    confirmed: f.confirmed ? 1 : 0,
    in_cisa_catalog: isInKev(cve, kev) ? 1 : 0,
    cve: JSON.stringify(cve),
    vuln_description: noNul(f.detail ? `${c.description}\n\n${f.detail}` : c.description),
    vuln_evidence: f.evidence ? JSON.stringify(f.evidence) : null,
    risk_description: c.impact,
    risk_level: RISK_LEVEL[f.risk ?? c.risk],
    status: 'open',
    recommendation: c.recommendation,
    refs: JSON.stringify(c.references),
    verified: 0,
    owasp: JSON.stringify(owasp),
    cwe: c.cwe[0] ?? '',
    port,
    protocol,
    service: noNulOrNull(f.service ?? null),
    url: noNulOrNull(f.url ?? null),
    location: noNulOrNull(f.location ?? null),
    created_at: at.now,
  }
}
