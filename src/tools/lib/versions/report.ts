// What a product version says in findings, written once for every tool: the shipped catalogue's CVE
// families, its end-of-life branches and the CVEs the operator imported (through the ScanContext's
// lookup), each as a finding with its check, CVEs, CVSS-based risk, name and detail, plus the rows of
// an evidence table. Tools add place (port, URL) and build the evidence.
import type { FindingInput } from '../../../toolkit/tool.js'
import { tableEvidence } from '../../../toolkit/evidence.js'
import { uniqueProducts, type ProductVersion } from './fingerprint.js'
import type { VulnerabilityLookup } from '../../../toolkit/vulns.js'
import { PRODUCTS, type ProductKey } from '../services/products.js'
import { CATALOGUE } from './catalogue.js'
import { checkForEol, checkForFamily, checkForImportedCve, cvssOf, productLabel } from './checks.js'
import { matchEol, matchFamilies, riskFromCvss, type FamilyMatch } from './match.js'

export type VersionFinding = Required<Pick<FindingInput, 'check' | 'cve' | 'risk' | 'name' | 'detail' | 'confirmed' | 'cvss'>>

/** One CVE (or the end-of-life branch) behind a version finding, for its evidence table. */
export type VersionRow = { cve: string; affected: string; cvss: string }

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
    cvss: { score: m.cvss, vector: m.vector },
  }
}

/** Every CVE id of the shipped catalogue: imported CVEs among them are reported by their family. */
const CATALOGUE_CVES: ReadonlySet<string> = new Set(CATALOGUE.families.flatMap((f) => f.cves.map((c) => c.id)))

/**
 * All version findings of one product version: catalogue families, the end-of-life branch, then the
 * imported CVEs of the product's CPE names that no family covers.
 */
export async function productVersionFindings(
  product: ProductKey,
  version: string,
  seen: string,
  lookup?: VulnerabilityLookup,
  today?: string,
): Promise<Array<{ finding: VersionFinding; rows: VersionRow[] }>> {
  const label = `${PRODUCTS[product].label} ${version}`
  const out = matchFamilies(product, version).map((m) => ({
    finding: versionFinding(m, version, seen),
    rows: m.cves.map((c) => ({ cve: c.id, affected: c.versions, cvss: String(c.cvss) })),
  }))
  const eol = matchEol(product, version, today)
  if (eol)
    out.push({
      finding: {
        check: checkForEol(product),
        cve: [],
        risk: checkForEol(product).risk,
        name: `${PRODUCTS[product].label} ${eol.branch} is past end of life (${eol.date})`,
        detail: `${label} was identified from ${seen}; the ${eol.branch} branch (${eol.versions}) reached its end of life on ${eol.date}.`,
        confirmed: false,
        cvss: null,
      },
      rows: [{ cve: '', affected: `${eol.branch}: end of life ${eol.date}`, cvss: '' }],
    })
  if (!lookup) return out
  const seenCves = new Set<string>()
  for (const cpe of PRODUCTS[product].cpe) {
    for (const c of await lookup.cves(cpe, version)) {
      if (CATALOGUE_CVES.has(c.id) || seenCves.has(c.id)) continue
      seenCves.add(c.id)
      const check = checkForImportedCve(c, product)
      const cvss = cvssOf(c)
      out.push({
        finding: {
          check,
          cve: [c.id],
          risk: check.risk,
          name: `${label}: ${c.id}`,
          detail:
            `${label} was identified from ${seen}; ${c.id} affects ${cpe} ${c.affected}${cvss ? ` (CVSS ${cvss.score})` : ''}. ` +
            'Inferred from the version, not exploited.',
          confirmed: false,
          cvss: cvss ? { score: cvss.score, vector: cvss.vector } : null,
        },
        rows: [{ cve: c.id, affected: c.affected, cvss: cvss ? String(cvss.score) : '' }],
      })
    }
  }
  return out
}

/** The version findings of one TCP port (network and port scanners): each product once, evidence a table per finding. */
export async function portVersionFindings(
  port: number,
  service: string | null,
  products: ProductVersion[],
  lookup?: VulnerabilityLookup,
  protocol: 'tcp' | 'udp' = 'tcp',
): Promise<FindingInput[]> {
  const out: FindingInput[] = []
  for (const pv of uniqueProducts(products)) {
    for (const { finding, rows } of await productVersionFindings(
      pv.product,
      pv.version,
      `the ${pv.source} on ${port}/${protocol}`,
      lookup,
    )) {
      out.push({
        ...finding,
        port,
        protocol,
        service,
        evidence: tableEvidence(
          ['Port', 'Service', 'Product', 'Version', 'Source', 'CVE', 'Affected versions', 'CVSS'],
          rows.map((r) => [
            `${port}/${protocol}`,
            service ?? '',
            PRODUCTS[pv.product].label,
            pv.version,
            pv.source,
            r.cve,
            r.affected,
            r.cvss,
          ]),
        ),
      })
    }
  }
  return out
}
