// Maps how a tool run ended to the scan's terminal state and status_message (decisions.md).
import type { ScanState } from '../store/scan-states.js'
import { AuthFailedError, TargetUnreachableError, ToolStartError } from '../toolkit/errors.js'
import type { AbortKind } from './abort.js'
import { keptWords } from '../store/results.js'
import type { TestTally } from '../store/test-tally.js'
import { BLOCKED_CODE } from '../toolkit/scope.js'

export interface RunEnd {
  /** The tool returned, threw, or ignored the abort for the whole grace period. */
  how: 'returned' | 'threw' | 'ignored-abort'
  error?: unknown
  abort: AbortKind | null
  maxScanTimeMin: number
  hardLimitMin: number
  testsStarted: number
  /** Findings the scan holds now (all attempts): status messages say what was kept, never more. */
  findingsKept: number
  /** How the scan's tests ended (absent: not read, e.g. the tool never started). */
  tally?: TestTally
}

export function outcomeOf(e: RunEnd): { state: ScanState; message: string | null } {
  const kept = keptWords(e.findingsKept)
  if (e.how === 'threw' && !e.abort) {
    const err = e.error as Error
    if (err instanceof TargetUnreachableError) return { state: 'connection error', message: err.message }
    if (err instanceof AuthFailedError) return { state: 'auth failed', message: err.message }
    if (err instanceof ToolStartError || e.testsStarted === 0 || (err as { code?: string })?.code === BLOCKED_CODE)
      return { state: 'failed to start', message: err?.message ?? String(err) }
    return { state: 'finished', message: `The tool stopped early on an error: ${err?.message ?? err}; ${kept}` }
  }
  if (e.how === 'ignored-abort') {
    if (e.abort === 'stop') return { state: 'stopped', message: 'Stopped; the tool did not finish its clean-up in time' }
    if (e.abort === 'shutdown' || e.abort === 'lease_lost')
      return { state: 'aborted', message: `Ward shut down while the scan was running and the tool did not stop in time; ${kept}` }
    return {
      state: 'timed out',
      message: `The tool did not stop within its grace period after the time limit (${e.abort === 'hard_limit' ? e.hardLimitMin : e.maxScanTimeMin} min)`,
    }
  }
  switch (e.abort) {
    case 'stop':
      return { state: 'stopped', message: `Stopped by request; ${kept}` }
    case 'max_scan_time':
      return { state: 'finished', message: `Reached max_scan_time of ${e.maxScanTimeMin} min; the scan ended gracefully and ${kept}` }
    case 'hard_limit':
      return { state: 'timed out', message: `Reached the service-wide hard limit of ${e.hardLimitMin} min` }
    case 'shutdown':
    case 'lease_lost':
      return { state: 'aborted', message: `Ward shut down while the scan was running; ${kept}` }
    default:
      return returnedOutcome(e.tally)
  }
}

const BLOCKED_WORDS = 'blocked: outside the allowed scope'

/**
 * A tool that returned by itself: `finished` only when at least one test ran to a result, else the
 * scan tested nothing — `failed to start` when every attempt was refused by the scope guard (nothing
 * was sent), `connection error` otherwise. A finished scan with tests that could not run says how many.
 */
function returnedOutcome(t: TestTally | undefined): { state: ScanState; message: string | null } {
  if (!t || t.total === 0) return { state: 'finished', message: null }
  if (t.ran === 0) {
    const blocked =
      t.notes.length > 0 &&
      t.notes.filter((n) => n.status === 'error').every((n) => n.message.includes(BLOCKED_WORDS)) &&
      t.notes.some((n) => n.message.includes(BLOCKED_WORDS))
    if (blocked) return { state: 'failed to start', message: t.notes.find((n) => n.message.includes(BLOCKED_WORDS))!.message }
    return {
      state: 'connection error',
      message: `No test ran to a result (${
        t.total === 1 ? 'the only test errored or was skipped' : `all ${t.total} tests errored or were skipped`
      }): ${notesWords(t)}`,
    }
  }
  if (t.notRun > 0) return { state: 'finished', message: `${t.notRun} of ${t.total} tests could not run: ${notesWords(t)}` }
  return { state: 'finished', message: null }
}

const notesWords = (t: TestTally) => {
  const words = t.notes.map((n) => `${n.name} (${n.status === 'error' ? 'error' : 'skipped'}: ${n.message})`).join('; ')
  return t.notRun > t.notes.length ? `${words}; and ${t.notRun - t.notes.length} more` : words
}
