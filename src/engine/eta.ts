// When a running scan will end, estimated from how far its tool got: the rest of the work at the
// pace of the work done so far, never past the time the scan must stop (max_scan_time, hard limit).

/** Below this much running time an estimate says more about start-up than about the scan. */
const MIN_ELAPSED_MS = 2000

export interface EtaClock {
  /** The expected end (epoch ms) for `fraction` of the work done, or null when it cannot be told yet. */
  at(fraction: number, now?: number): number | null
}

export function etaClock(startedAt: number, deadline: number | null): EtaClock {
  return {
    at(fraction, now = Date.now()) {
      const elapsed = now - startedAt
      if (!(fraction > 0) || elapsed < MIN_ELAPSED_MS) return null
      const end = fraction >= 1 ? now : now + (elapsed * (1 - fraction)) / fraction
      return Math.round(deadline === null ? end : Math.min(end, Math.max(now, deadline)))
    },
  }
}

/** Whether a new estimate differs enough from the written one to be worth a write (1 s, or 2 % of what remains). */
export function etaMoved(written: number | null, next: number | null, now = Date.now()): boolean {
  if (written === null || next === null) return written !== next
  return Math.abs(next - written) > Math.max(1000, 0.02 * Math.max(0, next - now))
}
