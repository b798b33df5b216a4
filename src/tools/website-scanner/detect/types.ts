// Shapes shared by the pure detectors: what the scanner observed, and what a detector concluded.
import type { Check, Risk } from '../../../toolkit/check.js'
import type { Evidence } from '../../../toolkit/evidence.js'

/** One HTTP response as the detectors see it (body already decoded and size-bounded). */
export interface PageObs {
  url: string
  status: number
  /** Lower-case header names. */
  headers: Record<string, string>
  setCookies: string[]
  body: string
}

/** A piece of software a page announces, with its version and where it was seen. */
export interface Component {
  product: string
  version: string
  source: string
}

/** A detector's conclusion: the check failed here. The scanner turns it into a finding. */
export interface Hit {
  check: Check
  detail?: string
  evidence?: Evidence
  /** Affected URL (defaults to the scanned page). */
  url?: string
  location?: string
  cve?: string[]
  risk?: Risk
  name?: string
  confirmed?: boolean
  /** CVSS of a version finding's CVEs. */
  cvss?: { score: number; vector: string | null } | null
  /** Where the occurrence is when it is not the scanned page's port (e.g. the plain-HTTP twin on 80). */
  port?: number
  service?: 'http' | 'https'
}

export const isHtml = (p: Pick<PageObs, 'headers' | 'body'>) => {
  const ct = p.headers['content-type']
  if (ct) return /html/i.test(ct)
  return /<html|<!doctype html/i.test(p.body.slice(0, 1024))
}

/** The header lines a finding quotes as evidence (name: value), missing ones marked. */
export const headerLines = (p: PageObs, names: string[]) =>
  names.map((n) => `${n}: ${p.headers[n] ?? '(not sent)'}`).join('\n')
