// Product version → catalogue families: the one matcher of every tool, and CVSS → risk. Pure.
import type { Risk } from '../../../toolkit/check.js'
import type { ProductKey } from '../services/products.js'
import { CATALOGUE, type CatalogueCve, type CveFamily, type EolBranch } from './catalogue.js'
import { satisfies } from './version.js'

/** CVSS qualitative bands: 9.0+ critical, 7.0+ high, 4.0+ medium, >0 low. */
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
export function normalizeVersion(product: ProductKey, version: string): string {
  const v = version.trim()
  if (product === 'openssh') return v.replace(/p\d+$/i, '')
  return v
}

/** A family that affects a version: the CVEs of the family that do, and the highest of their scores. */
export type FamilyMatch = Readonly<{ family: CveFamily; cves: readonly CatalogueCve[]; cvss: number; vector: string | null }>

/** Whether a string reads as a version number at all ('2.4.49', '8.9p1'; not 'unknown'). */
export const looksLikeVersion = (version: string) => /^\d/.test(version.trim())

/** Families with at least one CVE whose range contains this product version. */
export function matchFamilies(product: ProductKey, version: string, families: readonly CveFamily[] = CATALOGUE.families): FamilyMatch[] {
  if (!looksLikeVersion(version)) return []
  const v = normalizeVersion(product, version)
  const out: FamilyMatch[] = []
  for (const family of families) {
    if (family.product !== product) continue
    const cves = family.cves.filter((c) => satisfies(v, c.versions))
    if (!cves.length) continue
    const worst = cves.reduce((a, b) => (b.cvss > a.cvss ? b : a))
    out.push({ family, cves, cvss: worst.cvss, vector: worst.vector })
  }
  return out
}

/**
 * The end-of-life branch this version belongs to, when its end of life is on or before `today`
 * ('YYYY-MM-DD'; a month-only date counts from the month's first day).
 */
export function matchEol(
  product: ProductKey,
  version: string,
  today = new Date().toISOString().slice(0, 10),
  branches: readonly EolBranch[] = CATALOGUE.eol,
): EolBranch | null {
  if (!looksLikeVersion(version)) return null
  const v = normalizeVersion(product, version)
  return branches.find((b) => b.product === product && b.date.padEnd(10, '-01').slice(0, 10) <= today && satisfies(v, b.versions)) ?? null
}
