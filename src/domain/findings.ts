// A finding is made from a check (catalogue data) and what the tool saw: map once, here.
import { RISK_LEVEL } from '../toolkit/check.js'
import type { FindingInput } from '../toolkit/tool.js'
import type { Db } from '../store/db.js'
import type { FindingPlace, FindingRecord } from '../store/finding-rows.js'
import { importedKevCves } from '../store/kev-cves.js'
import { epssOf, nvdCvssOf } from '../store/cves.js'
import { dedupKey } from './finding-identity.js'
import { isInKev, loadKevSnapshot } from './kev.js'

/** vuln_id prefix of the findings of check templates (decisions.md "Templates"). */
const TEMPLATE_PREFIX = 'template.'

export type { FindingPlace } from '../store/finding-rows.js'

/** The EPSS score a finding carries: the highest of its CVEs', with the date FIRST scored it. */
export type FindingEpss = { score: number; date: string } | null

export function buildFinding(f: FindingInput, at: FindingPlace, kev: ReadonlySet<string>, epss: FindingEpss = null): FindingRecord {
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
    name: f.name ?? c.name,
    test_description: at.testDescription,
    test_finished: false,
    confirmed: !!f.confirmed,
    in_cisa_catalog: isInKev(cve, kev),
    cve,
    vuln_description: f.detail ? `${c.description}\n\n${f.detail}` : c.description,
    vuln_evidence: f.evidence ?? null,
    risk_description: c.impact,
    risk_level: RISK_LEVEL[f.risk ?? c.risk],
    status: 'open',
    recommendation: c.recommendation,
    refs: [...c.references],
    verified: false,
    owasp,
    cwe: c.cwe[0] ?? '',
    port,
    protocol,
    service: f.service ?? null,
    url: f.url ?? null,
    location: f.location ?? null,
    created_at: at.now,
    cvss_score: f.cvss?.score ?? null,
    cvss_vector: f.cvss?.vector ?? null,
    epss_score: epss?.score ?? null,
    epss_date: epss?.date ?? null,
  }
}

/** The highest EPSS score among these CVEs, from the imported EPSS table; null when none is scored. */
export async function findingEpss(db: Db, cves: readonly string[]): Promise<FindingEpss> {
  const rows = await epssOf(
    db,
    cves.map((c) => c.toUpperCase()),
  )
  if (!rows.length) return null
  const top = rows.reduce((a, b) => (b.score > a.score ? b : a))
  return { score: top.score, date: top.score_date }
}

/**
 * buildFinding with the KEV catalogue as it is now (the shipped snapshot plus imported ids): what a
 * worker hands its scans, so a catalogue import is seen by workers started after it. EPSS scores are
 * read per finding with CVEs (an indexed lookup), so an EPSS import is seen at once.
 */
export async function findingMaker(db: Db): Promise<(f: FindingInput, at: FindingPlace) => Promise<FindingRecord>> {
  const kev = loadKevSnapshot()
  for (const cve of await importedKevCves(db)) kev.add(cve)
  return async (f, at) => {
    const cves = [...(f.check.cve ?? []), ...(f.cve ?? [])]
    const imported = cves.length ? await findingEpss(db, cves) : null
    // A template's CVSS is what its author wrote; the imported NVD record of its CVEs wins.
    const nvd = f.check.id.startsWith(TEMPLATE_PREFIX)
      ? await nvdCvssOf(
          db,
          cves.map((c) => c.toUpperCase()),
        )
      : null
    const input = nvd ? { ...f, cvss: nvd } : f
    // A score the check states itself has no date of its own: it is dated the day the scan read it.
    return buildFinding(input, at, kev, imported ?? (f.epss != null ? { score: f.epss, date: at.now.slice(0, 10) } : null))
  }
}
