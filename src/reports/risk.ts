// risk_level numbers and the result_summary of decisions.md.
export const RISK_NAMES = ['info', 'low', 'medium', 'high', 'critical'] as const

export interface Counts {
  critical: number
  high: number
  medium: number
  low: number
  info: number
}

/** "2 high, 1 medium, 4 info" — highest first, zero counts left out. */
export function summaryText(c: Counts): string {
  const parts = (['critical', 'high', 'medium', 'low', 'info'] as const).filter((k) => c[k] > 0).map((k) => `${c[k]} ${k}`)
  return parts.length ? parts.join(', ') : 'no findings'
}
