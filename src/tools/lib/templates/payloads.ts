// Payload attacks: batteringram (one list, the same value everywhere), pitchfork (lists walked in
// step), clusterbomb (every combination). The count is known before anything is built, so a
// template asking for too many combinations fails at once instead of after a flood of requests.
import type { Attack } from './model.js'

export class PayloadLimitError extends Error {
  override name = 'PayloadLimitError'
}

export const MAX_PAYLOAD_COMBINATIONS = 1000

export function combinationCount(payloads: Record<string, string[]>, attack: Attack): number {
  const lists = Object.values(payloads)
  if (lists.length === 0) return 1
  if (attack === 'clusterbomb') return lists.reduce((n, l) => n * l.length, 1)
  if (attack === 'pitchfork') return Math.min(...lists.map((l) => l.length))
  return Math.max(...lists.map((l) => l.length))
}

/** The variable sets to run the requests with; throws when their count is above `cap`. */
export function* combinations(
  payloads: Record<string, string[]>,
  attack: Attack,
  cap = MAX_PAYLOAD_COMBINATIONS,
): Generator<Record<string, string>> {
  const names = Object.keys(payloads)
  const n = combinationCount(payloads, attack)
  if (n > cap) throw new PayloadLimitError(`${n} payload combinations (${attack}) exceed the cap of ${cap}`)
  if (names.length === 0) {
    yield {}
    return
  }
  if (attack === 'clusterbomb') {
    const idx = names.map(() => 0)
    for (let k = 0; k < n; k++) {
      yield Object.fromEntries(names.map((name, i) => [name, payloads[name]![idx[i]!]!]))
      for (let i = names.length - 1; i >= 0; i--) {
        if (++idx[i]! < payloads[names[i]!]!.length) break
        idx[i] = 0
      }
    }
    return
  }
  for (let k = 0; k < n; k++) {
    // batteringram: each list in turn feeds every variable its own value at k (a lone list, usually).
    yield Object.fromEntries(names.map((name) => [name, payloads[name]![Math.min(k, payloads[name]!.length - 1)]!]))
  }
}
