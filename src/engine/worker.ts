// The scan worker: claims waiting scans from the database, runs their tools with an AbortSignal,
// renews its leases by heartbeat, delivers stop requests, and writes each scan's final state.
import os from 'node:os'
import { randomBytes } from 'node:crypto'
import type { Logger } from 'pino'
import type { Db } from '../store/db.js'
import type { Config } from '../config/config.js'
import type { ScanRow } from '../store/schema.js'
import { getTargetById } from '../store/targets.js'
import { claimNextScan, reapExpiredLeases, renewLeases, stopRequested, transitionScan } from '../store/scans.js'
import { endOpenTests, setScanOutput } from '../store/results.js'
import { subscribe } from '../store/notify.js'
import { nowIso } from '../store/time.js'
import { createToolCatalogue } from '../tools/registry.js'
import type { ToolCatalogue } from '../toolkit/tool.js'
import { ToolStartError } from '../toolkit/errors.js'
import { resolveToolParams } from '../toolkit/params.js'
import { createScanContext, type LiveContext } from './scan-context.js'
import { ScanAbort, abortKind, type AbortKind } from './abort.js'
import { outcomeOf, type RunEnd } from './outcome.js'
import { egressForScan, EgressUnavailableError } from './scan-egress.js'
import { loadKevSnapshot } from '../domain/kev.js'
import { importedKevCves } from '../store/kev-cves.js'
import { endScanWithCallback } from '../store/callbacks.js'
import { startCallbackSender } from '../reports/callback-sender.js'
import type { ScanState } from '../domain/scan-state.js'
import { engineMetrics } from './metrics.js'

export interface Worker {
  id: string
  activeScans(): number[]
  stop(reason?: string): Promise<void>
}

export interface WorkerOptions {
  db: Db
  dbKind: 'sqlite' | 'postgres'
  config: Config
  log: Logger
  /** The tools this worker runs; by default the configured catalogue. */
  tools?: ToolCatalogue
}

const STOP_POLL_MS = 250
const END_WRITE_ATTEMPTS = 6
const yieldToIo = () => new Promise<void>((r) => setImmediate(r))
const SHUTDOWN_GRACE_MS = 5000

export async function startWorker(o: WorkerOptions): Promise<Worker> {
  const { db, config, log } = o
  const tools = o.tools ?? createToolCatalogue({ diagnostic: config.enableDiagnosticTool })
  const id = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
  const active = new Map<number, { controller: AbortController; done: Promise<void> }>()
  let closing = false
  let wake: () => void = () => {}
  const kev = loadKevSnapshot()
  for (const cve of await importedKevCves(db)) kev.add(cve)

  const reaped = await reapExpiredLeases(db)
  if (reaped.length) log.warn({ scans: reaped }, 'ended scans whose worker died as aborted')

  const abortScan = (scanId: number, kind: AbortKind, message: string) => {
    const a = active.get(scanId)
    if (a && !a.controller.signal.aborted) a.controller.abort(new ScanAbort(kind, message))
  }

  const callbackSender = startCallbackSender({ db, config, log, owner: id })

  const unsubscribe = subscribe((e) => {
    if (e.type === 'queued') wake()
    else if (e.type === 'stop') abortScan(e.scanId, 'stop', 'stop requested')
  })

  // A failed renewal (e.g. the database dropped the connection) is retried soon, not a tick later,
  // so a short outage does not let the lease expire under a scan that is still running.
  let retrying: NodeJS.Timeout | null = null
  const beat = async () => {
    try {
      const ids = [...active.keys()]
      const held = await renewLeases(db, id, ids, config.leaseMs)
      for (const sid of ids) if (!held.has(sid)) abortScan(sid, 'lease_lost', 'lease lost')
    } catch (e) {
      log.error({ err: e }, 'heartbeat failed; retrying')
      if (!retrying && !closing) {
        retrying = setTimeout(() => {
          retrying = null
          void beat()
        }, 250)
        retrying.unref()
      }
    }
  }
  const heartbeat = setInterval(() => void beat(), config.heartbeatMs)
  const stopPoll = setInterval(async () => {
    try {
      for (const sid of await stopRequested(db, [...active.keys()])) abortScan(sid, 'stop', 'stop requested')
    } catch (e) {
      log.error({ err: e }, 'stop poll failed')
    }
  }, STOP_POLL_MS)
  const reaper = setInterval(async () => {
    try {
      const r = await reapExpiredLeases(db)
      if (r.length) log.warn({ scans: r }, 'ended scans with expired leases as aborted')
    } catch (e) {
      log.error({ err: e }, 'reaper failed')
    }
  }, Math.max(1000, config.leaseMs))

  async function runScan(scan: ScanRow, controller: AbortController) {
    const signal = controller.signal
    const started = Date.now()
    let ctx: LiveContext | null = null
    let end: RunEnd
    const timers: NodeJS.Timeout[] = []
    let egressClose: (() => Promise<void>) | null = null
    const tool = tools.get(scan.tool_id)
    try {
      const target = await getTargetById(db, scan.target_id)
      if (!target) throw new ToolStartError('the target was deleted')
      if (!tool) throw new ToolStartError(`tool ${scan.tool_id} is not available in this Ward`)
      const params = resolveToolParams(tool.params, JSON.parse(scan.tool_params))
      if (!params.ok) throw new ToolStartError(params.message)
      const run = await tool.load()
      const egress = await egressForScan(db, scan, tool, signal)
      egressClose = () => egress.close()
      const minute = config.minuteMs
      if (tool.supportsMaxScanTime) timers.push(setTimeout(() => abortScan(scan.id, 'max_scan_time', 'max_scan_time reached'), scan.max_scan_time * minute))
      timers.push(setTimeout(() => abortScan(scan.id, 'hard_limit', 'hard limit reached'), config.scanHardLimitMin * minute))
      ctx = createScanContext({ db, scan, target, params: params.value, signal, net: egress, kev, settings: { dnsResolver: config.dnsResolver } })
      ctx.log(`Ward ${tool.name} (tool ${tool.id}) started on ${target.name}`)
      end = await runWithGrace(run(ctx), signal, config.toolAbortGraceMs)
    } catch (e) {
      // Failures before the tool ran: the scan never really started.
      end = { how: 'threw', error: e, abort: null, maxScanTimeMin: 0, hardLimitMin: 0, testsStarted: 0 }
    } finally {
      timers.forEach(clearTimeout)
    }
    end = { ...end, maxScanTimeMin: scan.max_scan_time, hardLimitMin: config.scanHardLimitMin, testsStarted: ctx?.testsStarted() ?? 0 }
    const { state, message }: { state: ScanState; message: string | null } =
      end.error instanceof EgressUnavailableError ? { state: 'VPN connection error', message: end.error.message } : outcomeOf(end)
    // Recording the end is retried: a dropped database connection at this moment must not turn a
    // finished scan into an aborted one. The scan stays in `active` meanwhile, so its lease is renewed.
    // Every step is idempotent (the transition is guarded by the `running` state).
    let logged = false
    for (let attempt = 1; ; attempt++) {
      try {
        if (ctx) {
          if (!logged) ctx.log(`Scan ended: ${state}${message ? ` — ${message}` : ''} after ${Math.round((Date.now() - started) / 1000)} s`)
          logged = true
          await ctx.flush()
          if (ctx.writeErrors.length) log.error({ scan: scan.id, err: ctx.writeErrors[0] }, 'some scan results could not be written')
          await setScanOutput(db, scan.id, ctx.outputData())
        }
        await endOpenTests(db, scan.id, state === 'finished' || state === 'stopped' ? 'skipped' : 'error', `scan ended: ${state}`)
        const set = { end_time: nowIso(), status_message: message, lease_owner: null, ...(state === 'finished' ? { progress: 100 } : {}) }
        // The outbox row of a report callback is written in the same transaction as the terminal state.
        const moved = await endScanWithCallback(db, scan.id, (trx) => transitionScan(trx, scan.id, state, set, ['running']))
        if (!moved) log.warn({ scan: scan.id, state }, 'scan was already ended elsewhere')
        log.info({ scan: scan.id, tool: scan.tool_id, state, ms: Date.now() - started }, 'scan ended')
        engineMetrics.toolEnded(scan.tool_id, state, Date.now() - started)
        break
      } catch (e) {
        if (attempt >= END_WRITE_ATTEMPTS) {
          log.error({ err: e, scan: scan.id }, 'could not record the end of a scan (its lease will expire and it will be reaped)')
          break
        }
        log.warn({ err: e, scan: scan.id, attempt }, 'recording the end of a scan failed; retrying')
        await new Promise((r) => setTimeout(r, 200 * attempt))
      }
    }
    await egressClose?.().catch(() => {})
  }

  const loop = (async () => {
    while (!closing) {
      let claimed = false
      try {
        while (!closing && active.size < config.workerConcurrency) {
          const scan = await claimNextScan(db, o.dbKind, id, config.leaseMs, config.userMaxRunning)
          if (!scan) break
          engineMetrics.claimed(scan.created_at)
          claimed = true
          const controller = new AbortController()
          const entry = { controller, done: Promise.resolve() }
          active.set(scan.id, entry)
          entry.done = runScan(scan, controller).finally(() => {
            active.delete(scan.id)
            wake()
          })
          // On SQLite every query completes synchronously, so a burst of claims (hundreds of free
          // slots) would run as one long chain of microtasks and starve the API sharing this event
          // loop. Yield to I/O between claims.
          await yieldToIo()
        }
      } catch (e) {
        log.error({ err: e }, 'claiming scans failed')
      }
      if (closing) break
      if (!claimed) await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, config.pollMs)
        wake = () => {
          clearTimeout(t)
          resolve()
        }
      })
    }
  })()

  return {
    id,
    activeScans: () => [...active.keys()],
    async stop(reason = 'Ward shut down while the scan was running') {
      if (closing) return
      closing = true
      unsubscribe()
      wake()
      await loop
      for (const sid of active.keys()) abortScan(sid, 'shutdown', reason)
      await Promise.allSettled([...active.values()].map((a) => a.done))
      clearInterval(heartbeat)
      if (retrying) clearTimeout(retrying)
      clearInterval(stopPoll)
      clearInterval(reaper)
      await callbackSender.stop()
    },
  }
}

/** Waits for the tool; once the signal aborts, gives it `graceMs` to return before giving up on it. */
function runWithGrace(run: Promise<void>, signal: AbortSignal, graceMs: number): Promise<RunEnd> {
  const base = { maxScanTimeMin: 0, hardLimitMin: 0, testsStarted: 0 }
  return new Promise((resolve) => {
    let graceTimer: NodeJS.Timeout | null = null
    const finish = (r: RunEnd) => {
      if (graceTimer) clearTimeout(graceTimer)
      signal.removeEventListener('abort', onAbort)
      resolve(r)
    }
    const onAbort = () => {
      // Shutdown must finish within 10 s: tools get a short grace, then their scans are ended anyway.
      const ms = abortKind(signal) === 'shutdown' ? Math.min(graceMs, SHUTDOWN_GRACE_MS) : graceMs
      graceTimer = setTimeout(() => finish({ how: 'ignored-abort', abort: abortKind(signal), ...base }), ms)
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    run.then(
      () => finish({ how: 'returned', abort: abortKind(signal), ...base }),
      (error) => finish({ how: 'threw', error, abort: abortKind(signal), ...base }),
    )
  })
}
