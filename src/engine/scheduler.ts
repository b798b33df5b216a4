// The scheduler of the worker role: fires due schedules (store/schedules.ts claims each slot
// exactly once across workers) and wakes the claim loop for the scans it queued. Once a minute it
// also re-opens accepted risks whose expiry date has passed, and on PostgreSQL it folds the findings
// change rows (store/findings-version.ts). The clock is
// injectable so tests can move time without waiting for it.
import type { Logger } from 'pino'
import type { Db } from '../store/db.js'
import { claimDueSchedule, type ClaimOptions, type FiredRun } from '../store/schedules.js'
import { publish } from '../store/notify.js'
import { reopenExpiredAcceptances } from '../store/finding-history.js'
import { foldFindingsChanges } from '../store/findings-version.js'

/** How often expired acceptances are looked for: they expire by the day. */
const ACCEPTANCE_SWEEP_MS = 60_000

export interface SchedulerOptions {
  db: Db
  dbKind: 'sqlite' | 'postgres'
  log: Logger
  workerId: string
  /** How often to look for due schedules (ms). */
  tickMs: number
  now?: () => Date
  claim?: ClaimOptions
}

export interface Scheduler {
  /** Fires every schedule due now; returns the runs fired. */
  tick(): Promise<FiredRun[]>
  stop(): Promise<void>
}

export function startScheduler(o: SchedulerOptions, autostart = true): Scheduler {
  const now = o.now ?? (() => new Date())
  let closing = false
  let timer: NodeJS.Timeout | null = null
  let running: Promise<FiredRun[]> | null = null
  let lastSweep = Number.NEGATIVE_INFINITY

  const sweepAcceptances = async () => {
    const at = now()
    if (at.getTime() - lastSweep < ACCEPTANCE_SWEEP_MS) return
    lastSweep = at.getTime()
    try {
      const n = await reopenExpiredAcceptances(o.db, at.toISOString().slice(0, 10))
      if (n) o.log.info({ groups: n }, 'accepted risks past their date re-opened')
    } catch (e) {
      o.log.error({ err: e }, 're-opening expired acceptances failed')
    }
  }

  // PostgreSQL appends a row per write to a workspace's findings (migration 031); folded here, off
  // the read path.
  const foldChanges = async () => {
    try {
      await foldFindingsChanges(o.db)
    } catch (e) {
      o.log.error({ err: e }, 'folding findings changes failed')
    }
  }

  const tick = async (): Promise<FiredRun[]> => {
    const fired: FiredRun[] = []
    try {
      for (;;) {
        if (closing) break
        const run = await claimDueSchedule(o.db, o.dbKind, o.workerId, now(), o.claim)
        if (!run) break
        fired.push(run)
        o.log.info(
          { schedule: run.scheduleId, slot: run.slotAt, outcome: run.outcome, scans: run.scanIds },
          run.message ?? 'schedule fired',
        )
      }
    } catch (e) {
      o.log.error({ err: e }, 'firing schedules failed')
    }
    if (fired.some((r) => r.scanIds.length)) publish({ type: 'queued' })
    if (!closing) await sweepAcceptances()
    if (!closing && o.dbKind === 'postgres') await foldChanges()
    return fired
  }
  const loop = () => {
    if (closing) return
    running = tick().finally(() => {
      running = null
      if (!closing) timer = setTimeout(loop, o.tickMs)
    })
  }
  if (autostart) loop()
  return {
    tick: () => (running ? running.then(() => tick()) : tick()),
    async stop() {
      closing = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
