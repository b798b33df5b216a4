// The jq subset json extractors of templates use: paths (.a.b, ."x-y", .a["b"], .[0], .[], .a[]),
// pipes between paths (.items[] | .id) and `keys`/`length`. Anything else is refused at load time.
export class JqError extends Error {
  override name = 'JqError'
}

type Step = { k: 'key'; name: string } | { k: 'index'; i: number } | { k: 'each' } | { k: 'fn'; name: 'keys' | 'length' }
export type JqProgram = Step[][]

export function parseJq(src: string): JqProgram {
  return src.split('|').map((part) => {
    const s = part.trim()
    if (s === 'keys' || s === 'length') return [{ k: 'fn', name: s }]
    if (s === '.') return []
    const steps: Step[] = []
    const re = /\.([A-Za-z_][A-Za-z0-9_]*)|\."((?:[^"\\]|\\.)*)"|\.?\[\s*(?:"((?:[^"\\]|\\.)*)"|(-?\d+))?\s*\]|(\.)$/y
    let i = 0
    while (i < s.length) {
      re.lastIndex = i
      const m = re.exec(s)
      if (!m || m[0] === '')
        throw new JqError(
          `jq expression ${JSON.stringify(src.slice(0, 60))} uses more than the supported subset (paths, [], [n], |, keys, length)`,
        )
      if (m[1] !== undefined) steps.push({ k: 'key', name: m[1] })
      else if (m[2] !== undefined) steps.push({ k: 'key', name: m[2] })
      else if (m[3] !== undefined) steps.push({ k: 'key', name: m[3] })
      else if (m[4] !== undefined) steps.push({ k: 'index', i: Number(m[4]) })
      else if (m[5] === undefined) steps.push({ k: 'each' })
      i = re.lastIndex
    }
    return steps
  })
}

export function runJq(p: JqProgram, input: unknown): unknown[] {
  let values: unknown[] = [input]
  for (const steps of p)
    for (const st of steps) {
      const next: unknown[] = []
      for (const v of values) {
        if (st.k === 'key')
          next.push(v && typeof v === 'object' && !Array.isArray(v) ? ((v as Record<string, unknown>)[st.name] ?? null) : null)
        else if (st.k === 'index') next.push(Array.isArray(v) ? (v.at(st.i) ?? null) : null)
        else if (st.k === 'each') {
          if (Array.isArray(v)) next.push(...v)
          else if (v && typeof v === 'object') next.push(...Object.values(v))
        } else if (st.name === 'keys') next.push(v && typeof v === 'object' ? Object.keys(v).sort() : null)
        else
          next.push(Array.isArray(v) ? v.length : typeof v === 'string' ? v.length : v && typeof v === 'object' ? Object.keys(v).length : 0)
        if (next.length > 10_000) break
      }
      values = next
    }
  return values.filter((v) => v !== null && v !== undefined)
}
