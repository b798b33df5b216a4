// vuln_evidence shapes of decisions.md: text, or a table whose cells are strings.
export type TextEvidence = { type: 'text'; data: { text: string } }
export type TableEvidence = { type: 'table'; data: { headers: string[]; rows: string[][] } }
export type Evidence = TextEvidence | TableEvidence

export const textEvidence = (text: string): TextEvidence => ({ type: 'text', data: { text } })

export const tableEvidence = (headers: string[], rows: unknown[][]): TableEvidence => ({
  type: 'table',
  data: { headers, rows: rows.map((r) => r.map((c) => (c == null ? '' : String(c)))) },
})
