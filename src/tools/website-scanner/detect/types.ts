// Shapes shared by the pure detectors: what the scanner observed, and what a detector concluded.

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

/** A detector's conclusion: the toolkit's one Hit (port and service default to the scanned page's). */
export type { Hit } from '../../../toolkit/hit.js'

export const isHtml = (p: Pick<PageObs, 'headers' | 'body'>) => {
  const ct = p.headers['content-type']
  if (ct) return /html/i.test(ct)
  return /<html|<!doctype html/i.test(p.body.slice(0, 1024))
}

/** The header lines a finding quotes as evidence (name: value), missing ones marked. */
export const headerLines = (p: PageObs, names: string[]) => names.map((n) => `${n}: ${p.headers[n] ?? '(not sent)'}`).join('\n')
