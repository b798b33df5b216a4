// The VulnerabilityLookup a scan's tools get: imported NVD ranges of a product (store/cves.ts), read
// once per product per scan, filtered by the one version order of lib/versions.
import type { Db } from '../store/db.js'
import { cveRangesOf, type CveRangeRow } from '../store/cves.js'
import type { KnownCve, VulnerabilityLookup } from '../toolkit/vulns.js'
import { compareVersions } from '../tools/lib/versions/version.js'

/** The range a row states, in the catalogue's range grammar ('>=2.4.0 <2.4.52'). */
export function rangeText(
  r: Pick<CveRangeRow, 'version' | 'start_including' | 'start_excluding' | 'end_including' | 'end_excluding'>,
): string {
  if (r.version) return `=${r.version}`
  const parts = [
    r.start_including && `>=${r.start_including}`,
    r.start_excluding && `>${r.start_excluding}`,
    r.end_including && `<=${r.end_including}`,
    r.end_excluding && `<${r.end_excluding}`,
  ]
  return parts.filter(Boolean).join(' ')
}

/**
 * Whether a seen version is in a row's range. A CPE naming one version matches that release; the
 * portable "p1" packaging suffix (OpenSSH 7.4p1) counts as its release (NVD writes 7.4 with update p1).
 */
export function inRange(
  version: string,
  r: Pick<CveRangeRow, 'version' | 'start_including' | 'start_excluding' | 'end_including' | 'end_excluding'>,
): boolean {
  if (!/^\d/.test(version.trim())) return false
  const v = version.trim()
  if (r.version) return compareVersions(v, r.version) === 0 || compareVersions(v.replace(/p\d+$/i, ''), r.version) === 0
  if (r.start_including && compareVersions(v, r.start_including) < 0) return false
  if (r.start_excluding && compareVersions(v, r.start_excluding) <= 0) return false
  if (r.end_including && compareVersions(v, r.end_including) > 0) return false
  if (r.end_excluding && compareVersions(v, r.end_excluding) >= 0) return false
  return true
}

const parseList = (s: string): string[] => {
  try {
    const v = JSON.parse(s) as unknown
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
  } catch {
    return []
  }
}

export function createVulnLookup(db: Db): VulnerabilityLookup {
  const byProduct = new Map<string, Promise<CveRangeRow[]>>()
  return {
    async cves(cpe: string, version: string): Promise<KnownCve[]> {
      const [vendor, product] = cpe.toLowerCase().split(':')
      if (!vendor || !product) return []
      let rows = byProduct.get(`${vendor}:${product}`)
      if (!rows) byProduct.set(`${vendor}:${product}`, (rows = cveRangesOf(db, vendor, product)))
      const found = new Map<string, KnownCve>()
      for (const r of await rows) {
        if (found.has(r.cve) || !inRange(version, r)) continue
        found.set(r.cve, {
          id: r.cve,
          description: r.description,
          cvss3: r.cvss3_score !== null && r.cvss3_vector ? { score: r.cvss3_score, vector: r.cvss3_vector } : null,
          cvss4: r.cvss4_score !== null && r.cvss4_vector ? { score: r.cvss4_score, vector: r.cvss4_vector } : null,
          cwe: parseList(r.cwe),
          references: parseList(r.refs),
          affected: rangeText(r),
        })
      }
      return [...found.values()].sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }))
    },
  }
}
