// Maps how a tool run ended to the scan's terminal state and status_message (decisions.md).
import type { ScanState } from '../store/scan-states.js'
import { AuthFailedError, TargetUnreachableError, ToolStartError } from '../toolkit/errors.js'
import type { AbortKind } from './abort.js'

export interface RunEnd {
  /** The tool returned, threw, or ignored the abort for the whole grace period. */
  how: 'returned' | 'threw' | 'ignored-abort'
  error?: unknown
  abort: AbortKind | null
  maxScanTimeMin: number
  hardLimitMin: number
  testsStarted: number
}

export function outcomeOf(e: RunEnd): { state: ScanState; message: string | null } {
  if (e.how === 'threw' && !e.abort) {
    const err = e.error as Error
    if (err instanceof TargetUnreachableError) return { state: 'connection error', message: err.message }
    if (err instanceof AuthFailedError) return { state: 'auth failed', message: err.message }
    if (err instanceof ToolStartError || e.testsStarted === 0) return { state: 'failed to start', message: err?.message ?? String(err) }
    return { state: 'finished', message: `The tool stopped early on an error: ${err?.message ?? err}; results gathered until then are kept` }
  }
  if (e.how === 'ignored-abort') {
    if (e.abort === 'stop') return { state: 'stopped', message: 'Stopped; the tool did not finish its clean-up in time' }
    if (e.abort === 'shutdown' || e.abort === 'lease_lost') return { state: 'aborted', message: 'Ward shut down while the scan was running' }
    return { state: 'timed out', message: `The tool did not stop within its grace period after the time limit (${e.abort === 'hard_limit' ? e.hardLimitMin : e.maxScanTimeMin} min)` }
  }
  switch (e.abort) {
    case 'stop':
      return { state: 'stopped', message: 'Stopped by request; results gathered until then are kept' }
    case 'max_scan_time':
      return { state: 'finished', message: `Reached max_scan_time of ${e.maxScanTimeMin} min; the scan ended gracefully with the results gathered until then` }
    case 'hard_limit':
      return { state: 'timed out', message: `Reached the service-wide hard limit of ${e.hardLimitMin} min` }
    case 'shutdown':
    case 'lease_lost':
      return { state: 'aborted', message: 'Ward shut down while the scan was running; results gathered until then are kept' }
    default:
      return { state: 'finished', message: null }
  }
}
