// The `ports` parameter: a named list or "22,80,8000-8100", turned into the ports to scan.
import { TOP_100, TOP_1000 } from './top-ports.js'

/** What the params schema accepts; parsePorts then checks the numbers themselves. */
export const PORT_SPEC_PATTERN = '^(top100|top1000|all|\\s*\\d+(\\s*-\\s*\\d+)?\\s*(,\\s*\\d+(\\s*-\\s*\\d+)?\\s*)*)$'

export const MAX_PORT = 65535

/**
 * Ports to scan, in scan order: named lists keep their frequency order, explicit lists the order given
 * (duplicates dropped). Throws an Error whose message names the bad part.
 */
export function parsePorts(spec: string): number[] {
  const s = spec.trim().toLowerCase()
  if (s === 'top100') return [...TOP_100]
  if (s === 'top1000') return [...TOP_1000]
  if (s === 'all') return Array.from({ length: MAX_PORT }, (_, i) => i + 1)
  if (!s) throw new Error('ports is empty: use "top100", "top1000", "all" or a list such as "22,80,8000-8100"')
  const seen = new Set<number>()
  for (const raw of s.split(',')) {
    const part = raw.trim()
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part)
    if (!m) throw new Error(`ports: "${part}" is not a port or a range (expected e.g. 22 or 8000-8100)`)
    const from = Number(m[1])
    const to = m[2] === undefined ? from : Number(m[2])
    for (const p of [from, to]) {
      if (p < 1 || p > MAX_PORT) throw new Error(`ports: ${p} is out of range (ports are 1..${MAX_PORT})`)
    }
    if (to < from) throw new Error(`ports: range ${part} ends before it starts`)
    for (let p = from; p <= to; p++) seen.add(p)
  }
  return [...seen]
}

/** What is wrong with a `ports` value, or undefined: the check a scan would fail on, made before queueing. */
export function portSpecProblem(spec: string): string | undefined {
  try {
    parsePorts(spec)
    return undefined
  } catch (e) {
    return (e as Error).message
  }
}
