// Accept header → the output kind, or null (406). No header, */* and application/* mean JSON, so
// clients that never asked for anything keep getting JSON.
export type OutputKind = 'json' | 'pdf' | 'sarif' | 'csv' | 'junit' | 'markdown'

/** Media types of GET /scans/{id}/output, in the order the 406 message and OpenAPI list them. */
export const OUTPUT_TYPES: ReadonlyArray<readonly [string, OutputKind]> = [
  ['application/json', 'json'],
  ['application/pdf', 'pdf'],
  ['application/sarif+json', 'sarif'],
  ['text/csv', 'csv'],
  ['application/xml', 'junit'],
  ['text/markdown', 'markdown'],
]

function ranges(accept: string) {
  return accept
    .split(',')
    .map((part, i) => {
      const [type, ...params] = part.trim().toLowerCase().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return { type: type!.trim(), q: q ? Number(q.slice(2)) : 1, i }
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
}

export function negotiateOutput(accept: string | undefined): OutputKind | null {
  if (!accept?.trim()) return 'json'
  for (const r of ranges(accept)) {
    if (r.type === '*/*' || r.type === 'application/*') return 'json'
    const hit = OUTPUT_TYPES.find(([t]) => t === r.type)
    if (hit) return hit[1]
  }
  return null
}

/**
 * GET /findings: CSV when the client prefers text/csv, JSON otherwise — including for types it cannot
 * have, as the list always answered JSON before it had a second format.
 */
export function wantsCsv(accept: string | undefined): boolean {
  if (!accept) return false
  for (const r of ranges(accept)) {
    if (r.type === 'text/csv') return true
    if (r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*') return false
  }
  return false
}
