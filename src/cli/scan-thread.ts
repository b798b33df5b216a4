// `ward all` runs its worker role (claim loop, scans, leases, scheduler, callback sender) in a
// worker thread with its own database handle, so a scan that burns CPU costs its own thread, never
// the event loop serving the API and pages (a hostile page once held the API for minutes). API and engine meet only through the
// database, as between `ward serve` and `ward worker`; this side adds what a shared process gave:
// in-process wake-ups (SQLite), the engine's metrics for /metrics, the drain on shutdown, and a
// watchdog that ends a thread stuck in synchronous code (its scans are then recovered like those of
// a dead worker).
import { Worker } from 'node:worker_threads'
import type { Logger } from 'pino'
import type { Db } from '../store/db.js'
import type { Config } from '../config/config.js'
import { subscribe, type StoreEvent } from '../store/notify.js'
import { expireLeasesOf } from '../store/scans.js'
import { EXIT_MARGIN_MS } from '../toolkit/timeouts.js'

/** Messages to the thread. */
export type ToThread =
  | { type: 'event'; event: StoreEvent }
  | { type: 'metrics'; n: number }
  | { type: 'stop'; reason?: string; graceMs?: number }
/** Messages from the thread. */
export type FromThread =
  | { type: 'ready'; id: string }
  | { type: 'beat' }
  | { type: 'metrics'; n: number; text: string }
  | { type: 'stopped' }

/** How often the thread says it is alive, and how long a silence means it is stuck. */
export const BEAT_MS = 1000
const METRICS_WAIT_MS = 1000

export interface ScanThreadOptions {
  config: Config
  db: Db
  dbKind: 'sqlite' | 'postgres'
  log: Logger
  callbacks: boolean
}

export interface ScanThread {
  /** The worker id of the thread running now. */
  id(): string
  /** The engine registry of the thread as Prometheus text ('' when the thread does not answer in time). */
  metrics(): Promise<string>
  /** Drains like Worker.stop (running scans get `graceMs`), then ends the thread. */
  stop(reason?: string, graceMs?: number): Promise<void>
}

const THREAD_URL = new URL('./worker-thread.js', import.meta.url)

/**
 * The thread inherits the process's Node options (Node drops the per-process ones such as
 * --max-semi-space-size, which a Worker refuses when given explicitly), except a script given inline
 * (`node -e …`), which a thread must not run again: only then are the options passed, without it.
 */
function threadExecArgv(): { execArgv?: string[] } {
  const args = process.execArgv
  if (!args.some((a) => /^(?:-e|--eval|-p|--print)(?:=|$)/.test(a))) return {}
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (a === '-e' || a === '--eval' || a === '-p' || a === '--print') i++
    else if (!/^(?:-e|--eval|-p|--print|--input-type)(?:=|$)/.test(a)) out.push(a)
  }
  return { execArgv: out }
}

/** One running thread, as its parent sees it. */
interface ThreadHandle {
  thread: Worker
  id: string
  lastBeat: number
  /** Set when the parent ends the thread: its exit is not a crash. */
  expected: boolean
  n: number
  waiting: Map<number, (text: string) => void>
  stopped: null | (() => void)
  post(m: ToThread): void
}

/** Starts one thread and waits until its worker runs; `stopping` tells an expected exit from a crash. */
async function spawnThread(o: ScanThreadOptions, stopping: () => boolean): Promise<ThreadHandle> {
  const thread = new Worker(THREAD_URL, { workerData: { callbacks: o.callbacks }, ...threadExecArgv() })
  const waiting = new Map<number, (text: string) => void>()
  const h: ThreadHandle = {
    thread,
    id: '',
    lastBeat: Date.now(),
    expected: false,
    n: 0,
    waiting,
    stopped: null,
    post: (m: ToThread) => thread.postMessage(m),
  }
  const ready = new Promise<void>((resolve, reject) => {
    thread.on('message', (m: FromThread) => {
      if (h.lastBeat !== Infinity) h.lastBeat = Date.now()
      if (m.type === 'ready') {
        h.id = m.id
        resolve()
      } else if (m.type === 'metrics') {
        waiting.get(m.n)?.(m.text)
        waiting.delete(m.n)
      } else if (m.type === 'stopped') h.stopped?.()
    })
    thread.once('error', (e) => {
      reject(e)
      o.log.error({ err: e }, 'the scan thread failed')
    })
    thread.once('exit', (code) => {
      reject(new Error(`the scan thread exited (${code}) before it started`))
      for (const f of waiting.values()) f('')
      // A thread that ends on its own (an uncaught error in scan code) ends the process, as it
      // would have without the thread: the supervisor restarts it and leases recover the scans.
      if (!h.expected && !stopping()) {
        o.log.fatal({ code }, 'the scan thread ended unexpectedly; stopping')
        process.exit(1)
      }
    })
  })
  await ready
  return h
}

export async function startScanThread(o: ScanThreadOptions): Promise<ScanThread> {
  const stallMs = o.config.workerStallMs
  let stopping = false
  const spawn = () => spawnThread(o, () => stopping)
  let current = await spawn()
  // Wake-ups published by the API (scan queued, stop requested) reach the thread's claim loop. On
  // PostgreSQL the thread's own LISTEN connection hears them already.
  const unsubscribe = o.dbKind === 'sqlite' ? subscribe((event) => current.post({ type: 'event', event })) : () => {}

  const watchdog = setInterval(() => {
    if (stopping || Date.now() - current.lastBeat < stallMs) return
    void replaceStuck()
  }, BEAT_MS)
  watchdog.unref()

  async function replaceStuck() {
    const stuck = current
    stuck.lastBeat = Infinity // once
    o.log.error({ worker: stuck.id, silentMs: stallMs }, 'the scan thread is stuck in synchronous code; ending it and starting another')
    stuck.expected = true
    await stuck.thread.terminate()
    // Its scans are recovered at once, as a dead worker's: restartable ones queued again, the rest ended.
    const n = await expireLeasesOf(o.db, stuck.id)
    if (stopping) return
    current = await spawn()
    o.log.warn({ worker: current.id, scans: n }, 'a new scan thread took over')
  }

  return {
    id: () => current.id,
    metrics() {
      const h = current
      const n = ++h.n
      return new Promise<string>((resolve) => {
        const t = setTimeout(() => {
          h.waiting.delete(n)
          resolve('')
        }, METRICS_WAIT_MS)
        h.waiting.set(n, (text) => {
          clearTimeout(t)
          resolve(text)
        })
        h.post({ type: 'metrics', n })
      })
    },
    async stop(reason, graceMs = 0) {
      if (stopping) return
      stopping = true
      clearInterval(watchdog)
      unsubscribe()
      const h = current
      h.expected = true
      const done = new Promise<void>((r) => {
        h.stopped = r
        h.thread.once('exit', () => r())
      })
      h.post({ type: 'stop', reason, graceMs })
      // A thread that cannot drain (stuck) is ended after the grace period and a few seconds more.
      const hard = setTimeout(() => void h.thread.terminate(), graceMs + EXIT_MARGIN_MS)
      await done
      clearTimeout(hard)
      await h.thread.terminate()
    },
  }
}
