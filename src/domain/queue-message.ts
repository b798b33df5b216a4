// What a waiting scan says about its wait (store/queue.ts gives its place) and a running one about
// the time it has left, for the API and the web pages.
import type { QueuePlace } from '../store/queue.js'
import type { ScanRow } from '../store/schema.js'

/** Why a waiting scan waits, and its place in the queue. */
export function waitingMessage(q: QueuePlace): string {
  if (q.place === null) return `waiting: your ${q.userRunning} running scan${q.userRunning === 1 ? ' is' : 's are'} the per-user limit`
  return `waiting for a worker slot: ${ordinal(q.place)} in queue`
}

export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th')
  return `${n}${suffix}`
}

/** Seconds until the worker expects the scan to end; null while waiting or without an estimate (or past it), 0 once ended. */
export function etaSeconds(s: Pick<ScanRow, 'status' | 'eta_at'>, now: number): number | null {
  if (s.status === 'waiting') return null
  if (s.status !== 'running') return 0
  if (!s.eta_at) return null
  const left = Math.ceil((Date.parse(s.eta_at) - now) / 1000)
  return left >= 0 ? left : null
}
