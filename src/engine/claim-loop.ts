// Claims waiting scans while this worker has free slots; sleeps until woken (a queued-scan
// notification or a scan ending) or the poll interval passes.
import type { Logger } from 'pino'
import type { Db } from '../store/db.js'
import type { Config } from '../config/config.js'
import type { ScanRow } from '../store/schema.js'
import { claimNextScan } from '../store/scans.js'
import type { ActiveScans } from './active-scans.js'
import { engineMetrics } from './metrics.js'

export interface ClaimLoop {
  wake(): void
  /** Stops claiming; resolves when the loop has returned (running scans go on). */
  stop(): Promise<void>
}

interface ClaimOptions {
  db: Db
  dbKind: 'sqlite' | 'postgres'
  config: Config
  log: Logger
  workerId: string
  active: ActiveScans
  run(scan: ScanRow, controller: AbortController): Promise<void>
}

const yieldToIo = () => new Promise<void>((r) => setImmediate(r))

export function startClaimLoop(o: ClaimOptions): ClaimLoop {
  let closing = false
  let wake: () => void = () => {}
  const sleep = () =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, o.config.pollMs)
      wake = () => {
        clearTimeout(t)
        resolve()
      }
    })
  const loop = (async () => {
    while (!closing) {
      const claimed = await claimWhileFree(
        o,
        () => closing,
        () => wake(),
      )
      if (closing) break
      if (!claimed) await sleep()
    }
  })()
  return {
    wake: () => wake(),
    async stop() {
      closing = true
      wake()
      await loop
    },
  }
}

/** Claims scans until the slots are full or none waits; returns whether it claimed any. */
async function claimWhileFree(o: ClaimOptions, closing: () => boolean, wake: () => void): Promise<boolean> {
  let claimed = false
  try {
    while (!closing() && o.active.size < o.config.workerConcurrency) {
      const slots = { free: o.config.workerConcurrency - o.active.size, reserved: o.config.workerReservedSlots }
      const scan = await claimNextScan(o.db, o.dbKind, o.workerId, o.config.leaseMs, o.config.userMaxRunning, slots)
      if (!scan) break
      engineMetrics.claimed(scan.created_at)
      claimed = true
      o.active.start(scan.id, (controller) => o.run(scan, controller), wake)
      // On SQLite every query completes synchronously, so a burst of claims (hundreds of free
      // slots) would run as one long chain of microtasks and starve the API sharing this event
      // loop. Yield to I/O between claims.
      await yieldToIo()
    }
  } catch (e) {
    o.log.error({ err: e }, 'claiming scans failed')
  }
  return claimed
}
