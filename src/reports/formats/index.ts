// Export formats shared by the server (GET /scans/{id}/output) and the CI client (ward scan).
import { toCsv } from './csv.js'
import { toJson } from './json.js'
import { toJunit } from './junit.js'
import { toMarkdown } from './markdown.js'
import { toSarif } from './sarif.js'
import type { FormatWriter } from './types.js'

export * from './types.js'
export { findingFingerprint } from './fingerprint.js'
export { findingsCsv, csvCell } from './csv.js'
export { xmlEscape } from './junit.js'
export { mdText } from './markdown.js'

export const FORMATS = ['sarif', 'junit', 'json', 'csv', 'markdown'] as const
export type FormatName = (typeof FORMATS)[number]

export const WRITERS: Record<FormatName, FormatWriter> = {
  sarif: toSarif,
  junit: toJunit,
  json: toJson,
  csv: (scan, findings) => toCsv(scan, findings),
  markdown: toMarkdown,
}

export const CONTENT_TYPES: Record<Exclude<FormatName, 'json'>, string> = {
  sarif: 'application/sarif+json',
  junit: 'application/xml',
  csv: 'text/csv; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
}

export { toSarif, toJunit, toCsv, toMarkdown, toJson }
