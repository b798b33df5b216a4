// What a tool may ask about a product version beyond Ward's shipped catalogue: the CVEs the operator
// imported (NVD feeds, `ward admin cve import`). The engine provides it on the ScanContext; tools
// report product, version and CPE and never read the database themselves.

/** A CVE that affects the version asked about, as the imported feed describes it. */
export interface KnownCve {
  // The same facts as store/cves.ts CveFacts: written again because tools may not import the store.
  id: string
  description: string
  /** CVSS v3.1 (or v3.0) base metrics, when NVD or the CNA scored it. */
  cvss3: { score: number; vector: string } | null
  /** CVSS v4.0 base metrics, when present. */
  cvss4: { score: number; vector: string } | null
  cwe: string[]
  references: string[]
  /** The affected range as the feed states it ('>=2.4.0 <2.4.52', '=2.4.49'). */
  affected: string
}

export interface VulnerabilityLookup {
  /**
   * Imported CVEs whose vulnerable CPE ranges of `cpe` ('vendor:product', e.g. 'apache:http_server')
   * contain `version`, ordered by id. Empty when nothing was imported.
   */
  cves(cpe: string, version: string): Promise<KnownCve[]>
}
