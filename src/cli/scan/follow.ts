// Following a started scan: polling until it ends, the --timeout that stops it, and Ctrl-C (asking
// whether to stop the scan on the server, unless --yes or there is no terminal to ask on).
import { createInterface } from 'node:readline'
import { serverMessage, type V2Client } from './client.js'
import { clock, type Progress, type ProgressState } from './progress.js'
import { EXIT, type ScanIo } from './options.js'

const ACTIVE = new Set(['waiting', 'running'])

/** Ctrl-C while the client runs: the first is noted (and wakes a sleep), a second one leaves at once. */
export interface Interrupts {
  readonly interrupted: boolean
  sleep(ms: number): Promise<void>
  stop(): void
}

export function listenForInterrupts(io: ScanIo, progress: Progress, err: (s: string) => void): Interrupts {
  let interrupted = false
  let wake: (() => void) | null = null
  const stop = io.onInterrupt(() => {
    if (interrupted) {
      // A second Ctrl-C while asking or stopping: leave at once.
      progress.done()
      err('interrupted')
      process.exit(EXIT.INTERRUPTED)
    }
    interrupted = true
    wake?.()
  })
  const sleep = (ms: number) =>
    new Promise<void>((r) => {
      const t = setTimeout(() => ((wake = null), r()), ms)
      wake = () => {
        clearTimeout(t)
        wake = null
        r()
      }
    })
  return {
    get interrupted() {
      return interrupted
    },
    sleep,
    stop,
  }
}

/** The scan as GET /scans/{id} answers it (any server of the v2 interface: read defensively). */
// biome-ignore lint/suspicious/noExplicitAny: a server's answer of any version; each field is checked where it is read
export type ScanAnswer = Record<string, any> | null

function stateOf(scanId: number, s: ScanAnswer, started: number): ProgressState {
  const rs = s?.result_summary ?? {}
  return {
    scanId,
    status: String(s?.status_name ?? 'unknown'),
    progress: Number(s?.progress) || 0,
    tests: Number(s?.num_tests) || 0,
    testsDone: Number(s?.num_finished_tests) || 0,
    elapsedS: (Date.now() - started) / 1000,
    counts: {
      critical: Number(rs.critical) || 0,
      high: Number(rs.high) || 0,
      medium: Number(rs.medium) || 0,
      low: Number(rs.low) || 0,
      info: Number(rs.info) || 0,
    },
    message: typeof s?.status_message === 'string' ? s.status_message : undefined,
    etaS: typeof s?.eta_seconds === 'number' ? s.eta_seconds : null,
  }
}

export interface FollowDeps {
  client: V2Client
  progress: Progress
  interrupts: Interrupts
  pollMs: number
  timeoutMs: number | null
}

/** Polls until the scan ends or --timeout stops it; null when Ctrl-C came first. */
export async function follow(scanId: number, d: FollowDeps): Promise<{ s: ScanAnswer; timedOut: boolean } | null> {
  const started = Date.now()
  for (;;) {
    if (d.interrupts.interrupted) return null
    let s = (await d.client.data('GET', `/scans/${scanId}`)) as ScanAnswer
    const state = stateOf(scanId, s, started)
    d.progress.update(state)
    if (!ACTIVE.has(state.status)) return { s, timedOut: false }
    if (d.timeoutMs !== null && Date.now() - started >= d.timeoutMs) {
      d.progress.done()
      d.progress.note(`timed out after ${clock(d.timeoutMs / 1000)}: stopping scan ${scanId}`)
      await d.client.request('POST', `/scans/${scanId}/stop`).catch(() => null)
      // Give the stop a moment to land so the report holds what the scan found until now.
      for (let i = 0; i < 10 && ACTIVE.has(String(s?.status_name)); i++) {
        await d.interrupts.sleep(Math.min(d.pollMs, 1000))
        s = (await d.client.data('GET', `/scans/${scanId}`).catch(() => s)) as ScanAnswer
      }
      return { s, timedOut: true }
    }
    await d.interrupts.sleep(d.pollMs)
  }
}

/** After Ctrl-C: asks (on a terminal, without --yes) whether to stop the scan on the server, and does. */
export async function stopOnInterrupt(id: number, io: ScanIo, client: V2Client, yes: boolean, err: (s: string) => void): Promise<number> {
  const canAsk = !yes && !!io.stdin.isTTY && !!io.stderr.isTTY
  let stop = true
  if (canAsk) {
    const rl = createInterface({ input: io.stdin, output: io.stderr })
    // The terminal is in raw mode while asking: a second Ctrl-C arrives here, and means "just leave".
    const answer = await new Promise<string>((r) => {
      rl.once('SIGINT', () => r(''))
      rl.question(`Stop scan ${id} on the server? [y/N] `, r)
    })
    rl.close()
    stop = /^y(es)?$/i.test(answer.trim())
  }
  if (stop) {
    const r = await client.request('POST', `/scans/${id}/stop`).catch(() => null)
    err(
      r && r.status === 204
        ? `interrupted: scan ${id} stopped`
        : `interrupted: could not stop scan ${id}${r ? ` (${serverMessage(r)})` : ''}`,
    )
  } else err(`interrupted: scan ${id} keeps running on the server`)
  return EXIT.INTERRUPTED
}
