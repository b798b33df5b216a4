// The scan worker: claims waiting scans from the database (claim-loop.ts), runs each one
// (run-scan.ts) and holds their leases (leases.ts). Report callbacks are a separate role
// (reports/callback-sender.ts) the CLI starts beside it.
import os from 'node:os'
import { randomBytes } from 'node:crypto'
import type { Logger } from 'pino'
import type { Db } from '../store/db.js'
import type { Config } from '../config/config.js'
import { subscribe } from '../store/notify.js'
import { ActiveScans } from './active-scans.js'
import { startClaimLoop } from './claim-loop.js'
import { reapDeadWorkersScans, startLeaseKeeping } from './leases.js'
import { runScan } from './run-scan.js'
import type { MakeFinding } from './scan-context.js'
import { createToolCatalogue } from '../tools/registry.js'
import { startScheduler, type SchedulerOptions } from './scheduler.js'
import type { ToolCatalogue } from '../toolkit/tool.js'

export interface Worker {
  id: string
  activeScans(): number[]
  /**
   * Stops claiming; running scans go on for up to `graceMs` (0: none), then the rest are aborted
   * with `shutdown`: restartable ones go back to the queue, the others end `aborted`.
   */
  stop(reason?: string, graceMs?: number): Promise<void>
}

export interface WorkerOptions {
  db: Db
  dbKind: 'sqlite' | 'postgres'
  config: Config
  log: Logger
  /** Builds each finding a tool reports (the CLI passes the domain's rule). */
  makeFinding: MakeFinding
  /** The tools this worker runs; by default the configured catalogue. */
  tools?: ToolCatalogue
  /** Fire due schedules in this worker (default on); `now` injects the scheduler's clock. */
  scheduler?: boolean | Pick<SchedulerOptions, 'now' | 'claim'>
}

export const newWorkerId = () => `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`

export async function startWorker(o: WorkerOptions): Promise<Worker> {
  const { db, config, log } = o
  const tools = o.tools ?? createToolCatalogue({ diagnostic: config.enableDiagnosticTool })
  const id = newWorkerId()
  const recovery = { restartable: (toolId: number) => tools.get(toolId)?.restartable ?? false, maxAttempts: config.scanMaxAttempts }
  await reapDeadWorkersScans(db, log, recovery)

  const active = new ActiveScans()
  const abort = active.abort.bind(active)
  const loop = startClaimLoop({
    ...o,
    workerId: id,
    active,
    run: (scan, controller) => runScan({ db, config, log, makeFinding: o.makeFinding, tools, abort }, scan, controller),
  })
  const unsubscribe = subscribe((e) => {
    if (e.type === 'queued') loop.wake()
    else if (e.type === 'stop') abort(e.scanId, 'stop', 'stop requested')
  })
  const leases = startLeaseKeeping({ db, config, log, workerId: id, active, recovery })
  const scheduler =
    o.scheduler === false
      ? null
      : startScheduler({
          db,
          dbKind: o.dbKind,
          log,
          workerId: id,
          tickMs: config.schedulerMs,
          ...(typeof o.scheduler === 'object' ? o.scheduler : {}),
        })

  let closing = false
  return {
    id,
    activeScans: () => active.ids(),
    async stop(reason = 'Ward shut down while the scan was running', graceMs = 0) {
      if (closing) return
      closing = true
      await scheduler?.stop()
      await loop.stop()
      // Drain: running scans may end on their own; stop requests still reach them meanwhile.
      if (graceMs > 0 && active.size) {
        log.info({ scans: active.ids(), graceMs }, 'waiting for running scans to end')
        let timer: NodeJS.Timeout | undefined
        await Promise.race([active.settled(), new Promise<void>((r) => (timer = setTimeout(r, graceMs)))])
        clearTimeout(timer)
      }
      active.abortAll('shutdown', reason)
      await active.settled()
      unsubscribe()
      leases.stop()
    },
  }
}
