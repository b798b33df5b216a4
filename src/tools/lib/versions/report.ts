// What a version match says in a finding, written once for every tool: the check, its CVEs, the risk of
// the matching CVEs' CVSS, the name with the version, and the detail. Tools add place and evidence.
import type { FindingInput } from '../../../toolkit/tool.js'
import { checkForFamily, productLabel } from './checks.js'
import { riskFromCvss, type FamilyMatch } from './match.js'

export type VersionFinding = Required<Pick<FindingInput, 'check' | 'cve' | 'risk' | 'name' | 'detail' | 'confirmed'>>

/** `seen` says where the version was read ("the Server header", "the banner on 21/tcp"). */
export function versionFinding(m: FamilyMatch, version: string, seen: string): VersionFinding {
  const f = m.family
  const label = `${productLabel(f)} ${version}`
  const ids = m.cves.map((c) => c.id)
  const affected = m.cves.map((c) => `${c.id}: ${c.versions}, CVSS ${c.cvss}`).join('; ')
  return {
    check: checkForFamily(f),
    cve: ids,
    risk: riskFromCvss(m.cvss),
    name: `${label}: ${f.title} (${ids.join(', ')})`,
    detail: `${label} was identified from ${seen}. Affected versions: ${affected}. Inferred from the version, not exploited.`,
    confirmed: false,
  }
}
