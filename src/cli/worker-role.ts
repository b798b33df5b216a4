// The worker role: scan worker (claim loop, scans, leases, scheduler) and, unless told otherwise,
// the report-callback sender under the worker's id. Run in the process by `ward worker` and in a
// worker thread by `ward all` (scan-thread.ts); tests start it beside an in-process API.
import type { Config } from '../config/config.js'
import { scopesOf } from '../toolkit/scope.js'
import { findingMaker } from '../domain/findings.js'
import { toolName } from '../tools/registry.js'
import { startWorker, type Worker, type WorkerOptions } from '../engine/worker.js'
import { startCallbackSender } from '../reports/callback-sender.js'
import { startIntegrationSender } from '../reports/integrations/sender.js'
import type { IntegrationTransport } from '../reports/integrations/http.js'

/** The scan worker and, unless told otherwise, the callback sender under the worker's id; stop() ends both. */
export async function startWorkerRole(o: Omit<WorkerOptions, 'makeFinding'> & { callbacks?: boolean }): Promise<Worker> {
  const worker = await startWorker({ ...o, makeFinding: await findingMaker(o.db) })
  const sender =
    o.callbacks === false
      ? null
      : startCallbackSender({
          db: o.db,
          config: o.config,
          log: o.log,
          owner: worker.id,
          toolName,
          dispatcher: callbackDispatcher(o.config),
        })
  const integrations =
    o.callbacks === false
      ? null
      : startIntegrationSender({
          db: o.db,
          config: o.config,
          log: o.log,
          owner: worker.id,
          toolName,
          transport: integrationTransport(o.config),
        })
  return {
    id: worker.id,
    activeScans: () => worker.activeScans(),
    async stop(reason?: string, graceMs?: number) {
      await worker.stop(reason, graceMs)
      await Promise.all([sender?.stop(), integrations?.stop()])
    },
  }
}

/** The callback scope's guarded HTTP dispatcher, loaded (with the HTTP client) at the first delivery. */
export const callbackDispatcher = (cfg: Config) => async () =>
  (await import('../engine/net/scoped-dispatcher.js')).createScopedDispatcher(scopesOf(cfg).callback, cfg.callbackTimeoutMs)

/** Integrations' egress: the callback scope's dispatcher (one, made at the first request) and guarded TCP connections (SMTP). */
export function integrationTransport(cfg: Config): IntegrationTransport {
  let dispatcher: ReturnType<ReturnType<typeof callbackDispatcher>> | null = null
  return {
    dispatcher: () => (dispatcher ??= callbackDispatcher(cfg)()),
    connect: async (host, port) =>
      (await import('../engine/net/direct.js')).connectDirect({ host, port, timeoutMs: cfg.callbackTimeoutMs }, scopesOf(cfg).callback),
    close: async () => {
      if (dispatcher) await (await dispatcher).close().catch(() => {})
    },
  }
}
