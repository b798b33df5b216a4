// The scan state machine of decisions.md. Every status change goes through `canTransition`, and the
// store applies it with the source state in the WHERE clause, so no code path makes an illegal move.
export const SCAN_STATES = [
  'running',
  'finished',
  'failed to start',
  'stopped',
  'timed out',
  'waiting',
  'aborted',
  'VPN connection error',
  'auth failed',
  'connection error',
] as const
export type ScanState = (typeof SCAN_STATES)[number]

export const TRANSITIONS: Readonly<Record<ScanState, readonly ScanState[]>> = {
  waiting: ['running', 'stopped', 'aborted', 'VPN connection error'],
  // running → waiting extends decisions.md: a restartable scan whose worker died or shut down goes
  // back to the queue instead of ending `aborted` (docs/reliability.md).
  running: [
    'finished',
    'stopped',
    'timed out',
    'failed to start',
    'aborted',
    'connection error',
    'auth failed',
    'VPN connection error',
    'waiting',
  ],
  finished: [],
  'failed to start': [],
  stopped: [],
  'timed out': [],
  aborted: [],
  'VPN connection error': [],
  'auth failed': [],
  'connection error': [],
}

export const isTerminal = (s: ScanState) => TRANSITIONS[s].length === 0
export const ACTIVE_STATES: readonly ScanState[] = ['waiting', 'running']
export const TERMINAL_STATES: readonly ScanState[] = SCAN_STATES.filter((s) => isTerminal(s))

export const canTransition = (from: ScanState, to: ScanState) => TRANSITIONS[from].includes(to)

/** The states from which `to` may be reached. */
export const sourcesOf = (to: ScanState): ScanState[] => SCAN_STATES.filter((s) => canTransition(s, to))

export class IllegalTransitionError extends Error {
  override name = 'IllegalTransitionError'
  constructor(from: string, to: string) {
    super(`illegal scan state transition ${from} → ${to}`)
  }
}

/**
 * A scan that ran to its end: `finished` without a note (not cut short by max_scan_time or a
 * tool error). Only such a scan may say that something is gone.
 */
/**
 * A scan that ran to its own end: `finished` with its coverage recorded (tests that could not run are
 * then named in status_message, and the coverage says what was looked at), or — for scans written
 * before coverage was recorded — `finished` with no status_message.
 */
export const scanIsComplete = (s: { status: string; status_message: string | null; coverage?: string | null }) =>
  s.status === 'finished' && (s.coverage ? true : !s.status_message)
