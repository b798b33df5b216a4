// Version → CVE matching against the catalogue, and CVSS → risk. Pure.
import type { Risk } from '../../../toolkit/check.js'
import { CVE_CATALOGUE, type CveEntry, type Product } from './cve-catalogue.js'
import { satisfies } from './version.js'

/** CVSS v3 qualitative bands: 9.0+ critical, 7.0+ high, 4.0+ medium, >0 low. */
export function riskFromCvss(score: number): Risk {
  if (score >= 9) return 'critical'
  if (score >= 7) return 'high'
  if (score >= 4) return 'medium'
  if (score > 0) return 'low'
  return 'info'
}

/**
 * The version as the catalogue ranges expect it. Portable OpenSSH's "p1" is packaging of the same code
 * release (OpenBSD's 9.8 = portable 9.8p1), so ranges are written on the release number.
 */
export function normalizeVersion(product: Product, version: string): string {
  const v = version.trim()
  if (product === 'openssh') return v.replace(/p\d+$/i, '')
  return v
}

/** Catalogue entries whose range contains this product version. */
export function matchCves(product: Product, version: string, catalogue: readonly CveEntry[] = CVE_CATALOGUE): CveEntry[] {
  if (!/^\d/.test(version.trim())) return []
  const v = normalizeVersion(product, version)
  return catalogue.filter((e) => e.product === product && satisfies(v, e.versions))
}
