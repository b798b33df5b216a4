// Accept header → 'json' | 'pdf' | null (406). No header, */* and application/* mean JSON.
export function negotiateOutput(accept: string | undefined): 'json' | 'pdf' | null {
  if (!accept || !accept.trim()) return 'json'
  const ranges = accept
    .split(',')
    .map((part, i) => {
      const [type, ...params] = part.trim().toLowerCase().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return { type: type.trim(), q: q ? Number(q.slice(2)) : 1, i }
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
  for (const r of ranges) {
    if (r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*') return 'json'
    if (r.type === 'application/pdf') return 'pdf'
  }
  return null
}
