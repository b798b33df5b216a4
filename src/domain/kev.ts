// CISA Known Exploited Vulnerabilities: Ward ships a snapshot of the catalogue's CVE ids
// (kev-snapshot.json, beside this file) and `ward admin kev import FILE` refreshes it from the
// official JSON feed. A finding is `in_cisa_catalog` when any of its CVEs is in the set.
import { readFileSync } from 'node:fs'

export const KEV_FEED_URL = 'https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json'

export interface KevSnapshot {
  source: string
  note: string
  generated: string
  cves: string[]
}

export class KevFeedError extends Error {
  override name = 'KevFeedError'
}

const CVE_ID = /^CVE-\d{4}-\d{4,}$/

/** Upper-cased, trimmed CVE id, or null when the string is not one. */
export function normaliseCve(id: string): string | null {
  const s = id.trim().toUpperCase()
  return CVE_ID.test(s) ? s : null
}

let snapshotCache: readonly string[] | undefined

/** The shipped snapshot's CVE ids. A fresh Set per call, so callers may add to it. */
export function loadKevSnapshot(): Set<string> {
  snapshotCache ??= readSnapshotFile()
  return new Set(snapshotCache)
}

function readSnapshotFile(): readonly string[] {
  const file = new URL('./kev-snapshot.json', import.meta.url)
  const snapshot = parseKevSnapshot(JSON.parse(readFileSync(file, 'utf8')))
  return Object.freeze(snapshot.cves)
}

/** Validates Ward's own snapshot format ({ source, note, generated, cves }). */
export function parseKevSnapshot(json: unknown): KevSnapshot {
  if (!isObject(json) || !Array.isArray(json.cves)) throw new KevFeedError('KEV snapshot must be an object with a "cves" array')
  const cves = json.cves.map((c, i) => {
    const id = typeof c === 'string' ? normaliseCve(c) : null
    if (!id) throw new KevFeedError(`KEV snapshot cves[${i}] is not a CVE id: ${JSON.stringify(c)}`)
    return id
  })
  return {
    source: typeof json.source === 'string' ? json.source : '',
    note: typeof json.note === 'string' ? json.note : '',
    generated: typeof json.generated === 'string' ? json.generated : '',
    cves,
  }
}

/**
 * CVE ids of the official CISA feed (`{ title, catalogVersion, dateReleased, count,
 * vulnerabilities: [{ cveID, vendorProject, product, ... }] }`), upper-cased, de-duplicated and
 * sorted. Throws KevFeedError naming the first problem: not an object, no `vulnerabilities` array,
 * an empty catalogue (refreshing to nothing is never what the operator meant), or an entry whose
 * `cveID` is missing or not a CVE id. Other fields are not required.
 */
export function parseKevFeed(json: unknown): string[] {
  if (!isObject(json)) throw new KevFeedError('KEV feed must be a JSON object (the CISA known_exploited_vulnerabilities.json file)')
  const vulns = json.vulnerabilities
  if (!Array.isArray(vulns))
    throw new KevFeedError('KEV feed has no "vulnerabilities" array; is this the CISA known_exploited_vulnerabilities.json file?')
  if (vulns.length === 0) throw new KevFeedError('KEV feed lists no vulnerabilities')
  const ids = new Set<string>()
  vulns.forEach((v, i) => {
    const raw = isObject(v) ? v.cveID : undefined
    const id = typeof raw === 'string' ? normaliseCve(raw) : null
    if (!id) throw new KevFeedError(`KEV feed vulnerabilities[${i}].cveID is not a CVE id: ${JSON.stringify(raw ?? null)}`)
    ids.add(id)
  })
  return [...ids].sort(compareCve)
}

/** A snapshot object (the shape of kev-snapshot.json) built from an official feed file. */
export function kevSnapshotFromFeed(json: unknown, source: string, now = new Date()): KevSnapshot {
  const cves = parseKevFeed(json)
  const version = isObject(json) && typeof json.catalogVersion === 'string' ? ` (catalogVersion ${json.catalogVersion})` : ''
  return {
    source: `${source}${version}`,
    note: 'imported from the official CISA feed with `ward admin kev import FILE`',
    generated: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    cves,
  }
}

/** True when any of the CVEs is in the catalogue (ids compared case-insensitively). */
export function isInKev(cves: readonly string[], kev: ReadonlySet<string>): boolean {
  return cves.some((c) => {
    const id = normaliseCve(c)
    return id !== null && kev.has(id)
  })
}

/** Chronological order: by year, then by number (CVE-2021-4034 before CVE-2021-44228). */
export function compareCve(a: string, b: string): number {
  const [, ya = '0', na = '0'] = a.split('-')
  const [, yb = '0', nb = '0'] = b.split('-')
  return Number(ya) - Number(yb) || Number(na) - Number(nb) || a.localeCompare(b)
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
