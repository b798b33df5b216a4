// Progress inside a long phase: the phase owns a slice of the scan's bar and moves through it as its
// items end, and as each item under way reports how far it got (a probe of several, a suite of many),
// so the bar never sits still while work is being done.

/** Units of the whole bar handed to ScanContext.progress (fine enough for per-probe steps). */
export const PROGRESS_SCALE = 100_000

export interface PhaseProgress {
  /** How far an item under way got (0..1); only moves forward. */
  part(item: unknown, fraction: number): void
  /** An item ended. */
  done(item: unknown): void
  /** The phase ended (its whole slice is done, whatever was skipped). */
  finish(): void
}

/**
 * A phase of `items` items covering the slice [from, to] (fractions of the whole bar) of a scan whose
 * progress is reported to `report(done, total)` — ScanContext.progress.
 */
export function phaseProgress(report: (done: number, total: number) => void, from: number, to: number, items: number): PhaseProgress {
  const partial = new Map<unknown, number>()
  let ended = 0
  let shown = -1
  const emit = () => {
    let sum = ended
    for (const f of partial.values()) sum += f
    const at = Math.floor((from + (to - from) * (items > 0 ? Math.min(1, sum / items) : 1)) * PROGRESS_SCALE)
    if (at > shown) {
      shown = at
      report(at, PROGRESS_SCALE)
    }
  }
  return {
    part(item, fraction) {
      // An item is never counted as ended before done(): at most 95 % of it.
      const f = Math.max(partial.get(item) ?? 0, Math.min(0.95, Math.max(0, fraction)))
      partial.set(item, f)
      emit()
    },
    done(item) {
      partial.delete(item)
      ended++
      emit()
    },
    finish() {
      partial.clear()
      ended = items
      emit()
    },
  }
}
