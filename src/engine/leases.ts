// A worker's hold on its running scans: the heartbeat renews their leases (a lost lease aborts the
// scan), the stop poll delivers stop requests the notification missed, and the reaper recovers scans
// whose worker died (its lease expired): queued again when their tool is restartable, else aborted.
import type { Logger } from 'pino'
import type { Db } from '../store/db.js'
import type { Config } from '../config/config.js'
import { recoverExpiredLeases, renewLeases, stopRequested, type RecoveryPolicy } from '../store/scans.js'
import type { ActiveScans } from './active-scans.js'

const STOP_POLL_MS = 250
const RENEW_RETRY_MS = 250

export interface LeaseKeeping {
  stop(): void
}

interface LeaseOptions {
  db: Db
  config: Config
  log: Logger
  workerId: string
  active: ActiveScans
  recovery: RecoveryPolicy
}

/** Recovers scans with expired leases (queued again or ended); logs what it did. */
export async function reapDeadWorkersScans(db: Db, log: Logger, policy: RecoveryPolicy, self?: string): Promise<void> {
  const r = await recoverExpiredLeases(db, policy, self)
  if (r.requeued.length) log.warn({ scans: r.requeued }, 'queued scans whose worker died again, to restart')
  if (r.ended.length) log.warn({ scans: r.ended }, 'ended scans whose worker died')
}

export function startLeaseKeeping(o: LeaseOptions): LeaseKeeping {
  const heartbeat = startHeartbeat(o)
  const stopPoll = setInterval(() => void pollStops(o), STOP_POLL_MS)
  const reaper = setInterval(() => void reap(o), Math.max(1000, o.config.leaseMs))
  return {
    stop() {
      heartbeat.stop()
      clearInterval(stopPoll)
      clearInterval(reaper)
    },
  }
}

// A failed renewal (e.g. the database dropped the connection) is retried soon, not a tick later,
// so a short outage does not let the lease expire under a scan that is still running.
function startHeartbeat(o: LeaseOptions): LeaseKeeping {
  let stopped = false
  let retrying: NodeJS.Timeout | null = null
  const beat = async () => {
    try {
      const ids = o.active.ids()
      const held = await renewLeases(o.db, o.workerId, ids, o.config.leaseMs)
      for (const sid of ids) if (!held.has(sid)) o.active.abort(sid, 'lease_lost', 'lease lost')
    } catch (e) {
      o.log.error({ err: e }, 'heartbeat failed; retrying')
      if (!retrying && !stopped) {
        retrying = setTimeout(() => {
          retrying = null
          void beat()
        }, RENEW_RETRY_MS)
        retrying.unref()
      }
    }
  }
  const timer = setInterval(() => void beat(), o.config.heartbeatMs)
  return {
    stop() {
      stopped = true
      clearInterval(timer)
      if (retrying) clearTimeout(retrying)
    },
  }
}

async function pollStops(o: LeaseOptions): Promise<void> {
  try {
    for (const sid of await stopRequested(o.db, o.active.ids())) o.active.abort(sid, 'stop', 'stop requested')
  } catch (e) {
    o.log.error({ err: e }, 'stop poll failed')
  }
}

async function reap(o: LeaseOptions): Promise<void> {
  try {
    await reapDeadWorkersScans(o.db, o.log, o.recovery, o.workerId)
  } catch (e) {
    o.log.error({ err: e }, 'reaper failed')
  }
}
