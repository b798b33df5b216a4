// Scan progress for people. On a terminal: one live line, redrawn in place (progress bar, percent,
// tests done/total, elapsed time, findings so far by severity). Elsewhere (CI logs, pipes, CI=true):
// one plain line each time something changes, without control characters, so logs stay readable.
import { plain } from './client.js'

export interface ProgressState {
  scanId: number
  status: string
  progress: number
  tests: number
  testsDone: number
  elapsedS: number
  counts: { critical: number; high: number; medium: number; low: number; info: number }
  /** The server's status_message (a waiting scan's place in the queue). */
  message?: string
  /** The server's estimate of the seconds left (eta_seconds), null when it has none. */
  etaS?: number | null
}

/** What is said after the counters: why a scan waits, or about how long a running one has left. */
const aside = (s: ProgressState) =>
  s.status === 'waiting' && s.message
    ? ` (${plain(s.message)})`
    : s.status === 'running' && typeof s.etaS === 'number'
      ? ` ~${clock(s.etaS)} left`
      : ''

export const clock = (s: number) => {
  const t = Math.max(0, Math.floor(s))
  const h = Math.floor(t / 3600)
  const m = Math.floor((t % 3600) / 60)
  const sec = String(t % 60).padStart(2, '0')
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`
}

export const countsText = (c: ProgressState['counts']) =>
  `${c.critical} critical, ${c.high} high, ${c.medium} medium, ${c.low} low, ${c.info} info`

export interface Progress {
  update(s: ProgressState): void
  /** A message line (kept above the live line on a terminal). */
  note(line: string): void
  /** Ends the live line. */
  done(): void
}

export function createProgress(out: NodeJS.WritableStream & { columns?: number }, mode: 'tty' | 'plain' | 'quiet'): Progress {
  if (mode === 'quiet') return { update() {}, note() {}, done() {} }
  if (mode === 'plain') {
    let last = ''
    return {
      update(s) {
        // Elapsed time alone is not a change worth a log line.
        // Nor is the estimate alone; a waiting scan's new place in the queue is.
        const key = `${s.status}|${s.progress}|${s.testsDone}/${s.tests}|${countsText(s.counts)}|${s.status === 'waiting' ? s.message : ''}`
        if (key === last) return
        last = key
        out.write(
          `[${clock(s.elapsedS)}] scan ${s.scanId} ${plain(s.status)} ${s.progress}% ` +
            `tests ${s.testsDone}/${s.tests} findings: ${countsText(s.counts)}${aside(s)}\n`,
        )
      },
      note(line) {
        out.write(plain(line) + '\n')
      },
      done() {},
    }
  }
  let shown = false
  let lastState: ProgressState | null = null
  const draw = (s: ProgressState) => {
    const width = Math.max(40, (out.columns || 80) - 1)
    const barW = 20
    const filled = Math.round((Math.min(100, Math.max(0, s.progress)) / 100) * barW)
    const c = s.counts
    const sev = `C${c.critical} H${c.high} M${c.medium} L${c.low} I${c.info}`
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(barW - filled)}]`
    let line = `${bar} ${String(s.progress).padStart(3)}% tests ${s.testsDone}/${s.tests} ${clock(s.elapsedS)} ${plain(s.status)} | ${sev}${aside(s)}`
    if (line.length > width) line = line.slice(0, width)
    out.write(`\r\x1b[2K${line}`)
    shown = true
  }
  return {
    update(s) {
      lastState = s
      draw(s)
    },
    note(line) {
      out.write(`${shown ? '\r\x1b[2K' : ''}${plain(line)}\n`)
      if (lastState) draw(lastState)
    },
    done() {
      if (shown) out.write('\n')
      shown = false
    },
  }
}
