// Plugins, modules and themes of a CMS as data: a shipped list of slugs with the latest version known
// when the list was written, the NVD CPE (for imported CVEs) and known vulnerable ranges, and what a
// component's version says against it. Pure.
import { compareVersions, satisfies } from '../versions/version.js'
import type { VulnerabilityLookup } from '../../../toolkit/vulns.js'

export interface ComponentVuln {
  cve: string
  title: string
  /** Range in the version grammar of lib/versions ('<5.3.2', '>=6.0 <6.9'). */
  versions: string
  cvss: number
  vector: string
  fixed: string
}

export interface KnownComponent {
  slug: string
  name: string
  /** The newest release when the list was written. */
  latest: string
  /** NVD 'vendor:product' of imported CVEs. */
  cpe?: string
  vulns?: readonly ComponentVuln[]
}

export interface ComponentHit {
  cve: string
  title: string
  affected: string
  cvss: number | null
  vector: string | null
  fixed: string
  source: 'catalogue' | 'nvd'
}

/** Known vulnerabilities of `version`: the shipped ranges, then imported CVEs of the component's CPE that the list does not name. */
export async function componentVulns(
  c: KnownComponent | undefined,
  version: string,
  lookup?: VulnerabilityLookup,
): Promise<ComponentHit[]> {
  if (!c || !/^\d/.test(version)) return []
  const out: ComponentHit[] = (c.vulns ?? [])
    .filter((v) => satisfies(version, v.versions))
    .map((v) => ({
      cve: v.cve,
      title: v.title,
      affected: v.versions,
      cvss: v.cvss,
      vector: v.vector,
      fixed: v.fixed,
      source: 'catalogue' as const,
    }))
  if (lookup && c.cpe) {
    for (const k of await lookup.cves(c.cpe, version)) {
      if (out.some((o) => o.cve === k.id)) continue
      const s = k.cvss3 ?? k.cvss4
      out.push({
        cve: k.id,
        title: k.description.slice(0, 200),
        affected: k.affected,
        cvss: s?.score ?? null,
        vector: s?.vector ?? null,
        fixed: 'a release outside the affected range',
        source: 'nvd',
      })
    }
  }
  return out
}

/** Whether `version` is older than the latest release the list knows. */
export const isOutdated = (c: KnownComponent | undefined, version: string | null): boolean =>
  !!c?.latest && !!version && /^\d/.test(version) && compareVersions(version, c.latest) < 0
