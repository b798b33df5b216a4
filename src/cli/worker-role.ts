// The worker role: scan worker (claim loop, scans, leases, scheduler) and, unless told otherwise,
// the report-callback sender under the worker's id. Run in the process by `ward worker` and in a
// worker thread by `ward all` (scan-thread.ts); tests start it beside an in-process API.
import type { Config } from '../config/config.js'
import { scopesOf } from '../toolkit/scope.js'
import { findingMaker } from '../domain/findings.js'
import { toolName } from '../tools/registry.js'
import { startWorker, type Worker, type WorkerOptions } from '../engine/worker.js'
import { startCallbackSender } from '../reports/callback-sender.js'

/** The scan worker and, unless told otherwise, the callback sender under the worker's id; stop() ends both. */
export async function startWorkerRole(o: Omit<WorkerOptions, 'makeFinding'> & { callbacks?: boolean }): Promise<Worker> {
  const worker = await startWorker({ ...o, makeFinding: await findingMaker(o.db) })
  const sender = o.callbacks === false ? null : startCallbackSender({ db: o.db, config: o.config, log: o.log, owner: worker.id, toolName, dispatcher: callbackDispatcher(o.config) })
  return {
    id: worker.id,
    activeScans: () => worker.activeScans(),
    async stop(reason?: string, graceMs?: number) {
      await worker.stop(reason, graceMs)
      await sender?.stop()
    },
  }
}

/** The callback scope's guarded HTTP dispatcher, loaded (with the HTTP client) at the first delivery. */
export const callbackDispatcher = (cfg: Config) => async () =>
  (await import('../engine/net/scoped-dispatcher.js')).createScopedDispatcher(scopesOf(cfg).callback, cfg.callbackTimeoutMs)
