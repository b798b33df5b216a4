// What a tool may ask about a product version beyond Ward's shipped catalogue: the CVEs the operator
// imported (NVD feeds, `ward admin cve import`). The engine provides it on the ScanContext; tools
// report product, version and CPE and never read the database themselves.
// The facts are the stored shape (a type only: the toolkit ranks above the store, as
// toolkit/coverage.ts does; tools still reach the data only through this lookup).
import type { CveFacts } from '../store/cves.js'

/** A CVE that affects the version asked about, as the imported feed describes it. */
export interface KnownCve extends CveFacts {
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
