// A detector's conclusion: a check failed here. Pure detectors return hits; the recorder
// (toolkit/recorder.ts) attaches them to the test that ran, as findings. One shape for every tool.
import type { Check, Risk } from './check.js'
import type { Evidence } from './evidence.js'

export interface Hit {
  check: Check
  /** Specific detail of this occurrence, appended to the check's description. */
  detail?: string
  evidence?: Evidence
  port?: number | null
  protocol?: 'tcp' | 'udp' | null
  service?: string | null
  /** Affected URL; part of the finding's identity (normalised). */
  url?: string | null
  /** Non-URL location that distinguishes occurrences (a hostname, a cipher, a cookie name...). */
  location?: string | null
  /** CVE ids of this occurrence, added to the check's own. */
  cve?: string[]
  /** The tool proved it (an active check got a proof) rather than inferring it. */
  confirmed?: boolean
  /** Overrides the check's risk (e.g. CVSS-based for version matches). */
  risk?: Risk
  /** Overrides the check's name (e.g. "Apache httpd 2.4.49: path traversal"). */
  name?: string
  /** CVSS base score and vector of this occurrence's CVEs (the highest), for version findings. */
  cvss?: { score: number; vector: string | null } | null
  /** An EPSS probability the check's source states (a template's classification); an imported score of its CVEs wins. */
  epss?: number | null
}

/** Where a test's hits are when they do not say (the port and service the test looked at). */
export type HitDefaults = Partial<Omit<Hit, 'check'>>

/** `hit` with the members it leaves out taken from `defaults`. */
export function placeHit(hit: Hit, defaults: HitDefaults | undefined): Hit {
  if (!defaults) return hit
  const out: Hit = { ...defaults, check: hit.check }
  for (const [k, v] of Object.entries(hit)) if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v
  return out
}
