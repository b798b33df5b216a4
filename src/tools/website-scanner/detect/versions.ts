// A small curated catalogue of web server / runtime versions with known, widely exploited flaws.
// Data only; matched against versions the site announces (Server, X-Powered-By, generator).
import type { Risk } from '../../../toolkit/check.js'

export interface VulnerableRange {
  /** Normalised product name (see `normaliseProduct`). */
  product: string
  /** Inclusive bounds, dotted numeric versions. */
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

const ALIASES: Record<string, string> = {
  apache: 'Apache httpd',
  'apache httpd': 'Apache httpd',
  httpd: 'Apache httpd',
  'microsoft-iis': 'Microsoft IIS',
  'microsoft iis': 'Microsoft IIS',
  php: 'PHP',
  openssl: 'OpenSSL',
  nginx: 'nginx',
}

export const normaliseProduct = (p: string) => ALIASES[p.trim().toLowerCase()] ?? p.trim()

/** OpenSSL letter releases (1.0.1f) become a fourth number (1.0.1.6) so they compare numerically. */
export function versionParts(v: string): number[] {
  const m = /^(\d+(?:\.\d+)*)([a-z])?/i.exec(v.trim())
  if (!m) return []
  const parts = m[1]!.split('.').map(Number)
  if (m[2]) parts.push(m[2].toLowerCase().charCodeAt(0) - 96)
  return parts
}

export function compareVersions(a: string, b: string): number {
  const x = versionParts(a)
  const y = versionParts(b)
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0)
    if (d) return Math.sign(d)
  }
  return 0
}

export function vulnerableRanges(product: string, version: string): VulnerableRange[] {
  const p = normaliseProduct(product)
  if (!versionParts(version).length) return []
  return VULNERABLE_VERSIONS.filter((r) => r.product === p && compareVersions(version, r.min) >= 0 && compareVersions(version, r.max) <= 0)
}
