// Why a scan's signal was aborted; the worker turns the reason into the scan's final state.
export type AbortKind = 'stop' | 'max_scan_time' | 'hard_limit' | 'shutdown' | 'lease_lost'

export class ScanAbort extends Error {
  override name = 'AbortError'
  constructor(
    readonly kind: AbortKind,
    message: string,
  ) {
    super(message)
  }
}

export const abortKind = (signal: AbortSignal): AbortKind | null =>
  signal.aborted && signal.reason instanceof ScanAbort ? signal.reason.kind : null
