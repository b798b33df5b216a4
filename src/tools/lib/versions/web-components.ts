// Web server / runtime versions with known, widely exploited flaws, as announced in HTTP headers and
// meta tags (the Website Scanner's component check; the Network Vulnerability Scanner's banner table is
// cve-catalogue.ts). Both use the one version order of version.ts.
// Data only; matched against versions a site announces (Server, X-Powered-By, generator).
import type { Risk } from '../../../toolkit/check.js'
import { compareVersions } from './version.js'
import { PRODUCTS, productKey } from '../services/products.js'

export interface VulnerableRange {
  /** Normalised product name (see `normaliseProduct`). */
  product: string
  /** Inclusive bounds, in the order of lib/versions compareVersions (1.0.1f = 1.0.1.6). */
  min: string
  max: string
  cve: string[]
  risk: Risk
  summary: string
}

export const VULNERABLE_VERSIONS: readonly VulnerableRange[] = [
  { product: 'Apache httpd', min: '2.4.49', max: '2.4.49', cve: ['CVE-2021-41773'], risk: 'critical', summary: 'path traversal and remote code execution (CVE-2021-41773, in CISA KEV)' },
  { product: 'Apache httpd', min: '2.4.50', max: '2.4.50', cve: ['CVE-2021-42013'], risk: 'critical', summary: 'path traversal and remote code execution, incomplete fix of CVE-2021-41773 (CVE-2021-42013, in CISA KEV)' },
  { product: 'Apache httpd', min: '2.4.0', max: '2.4.48', cve: ['CVE-2021-40438'], risk: 'high', summary: 'mod_proxy server-side request forgery when mod_proxy is enabled (CVE-2021-40438, in CISA KEV)' },
  { product: 'OpenSSL', min: '1.0.1', max: '1.0.1.6', cve: ['CVE-2014-0160'], risk: 'high', summary: 'Heartbleed memory disclosure (CVE-2014-0160, in CISA KEV)' },
  { product: 'Microsoft IIS', min: '6.0', max: '6.0', cve: ['CVE-2017-7269'], risk: 'critical', summary: 'WebDAV ScStoragePathFromUrl buffer overflow (CVE-2017-7269, in CISA KEV)' },
  { product: 'PHP', min: '7.1.0', max: '7.1.32', cve: ['CVE-2019-11043'], risk: 'critical', summary: 'PHP-FPM env_path_info underflow, remote code execution with some nginx setups (CVE-2019-11043, in CISA KEV)' },
  { product: 'PHP', min: '7.2.0', max: '7.2.23', cve: ['CVE-2019-11043'], risk: 'critical', summary: 'PHP-FPM env_path_info underflow, remote code execution with some nginx setups (CVE-2019-11043, in CISA KEV)' },
  { product: 'PHP', min: '7.3.0', max: '7.3.10', cve: ['CVE-2019-11043'], risk: 'critical', summary: 'PHP-FPM env_path_info underflow, remote code execution with some nginx setups (CVE-2019-11043, in CISA KEV)' },
  { product: 'nginx', min: '0.6.18', max: '1.20.0', cve: ['CVE-2021-23017'], risk: 'high', summary: 'resolver off-by-one heap write (CVE-2021-23017) when the resolver directive is used' },
]

/** The vocabulary's label for a product name ("apache" → "Apache httpd"); unknown names as given. */
export const normaliseProduct = (p: string) => {
  const key = productKey(p.trim())
  return key ? PRODUCTS[key].label : p.trim()
}

export { compareVersions }

export function vulnerableRanges(product: string, version: string): VulnerableRange[] {
  const p = normaliseProduct(product)
  if (!/^\s*\d/.test(version)) return []
  return VULNERABLE_VERSIONS.filter((r) => r.product === p && compareVersions(version, r.min) >= 0 && compareVersions(version, r.max) <= 0)
}
