// Starts the roles of one command in this process (API, scan worker, callback sender) and stops
// them cleanly on SIGTERM/SIGINT (a worker drains: its running scans get a grace period to end).
import { pino, type Logger } from 'pino'
import type { Db } from '../store/db.js'
import type { Config } from '../config/config.js'
import { scopesOf } from '../toolkit/scope.js'
import { resolveVpnProfile } from '../domain/vpn.js'
import { openDatabase } from '../store/db.js'
import { createToolCatalogue, toolName } from '../tools/registry.js'
import { buildApp } from '../api/app.js'
import { ensureFirstUser, firstPasswordLink } from './bootstrap.js'
import { webBase } from './admin-accounts.js'
import { newWorkerId, type Worker } from '../engine/worker.js'
import { callbackDispatcher, integrationTransport, startWorkerRole } from './worker-role.js'
import { startScanThread } from './scan-thread.js'

import { syncShippedTemplates } from './shipped-templates.js'
export { startWorkerRole } from './worker-role.js'
import { startCallbackSender, type CallbackSender } from '../reports/callback-sender.js'
import { startIntegrationSender } from '../reports/integrations/sender.js'
import { engineRegistry } from '../engine/metrics.js'
import { startMetricsServer, type MetricsServer } from './worker-metrics.js'
import { ROLES_EXIT_MARGIN_MS } from '../toolkit/timeouts.js'

export type Role = 'all' | 'serve' | 'worker' | 'callbacks'
export const ROLES: readonly Role[] = ['all', 'serve', 'worker', 'callbacks']

/**
 * What each command runs. The callback outbox needs exactly one kind of process draining it: every
 * worker process does by default, so a scaled-out deployment (N × serve, M × worker) delivers
 * callbacks without another service; `ward callbacks` runs the sender alone for those who separate it.
 */
export function partsOf(role: Role, flags: { noCallbacks?: boolean } = {}): { api: boolean; worker: boolean; callbacks: boolean } {
  const callbacks = role === 'callbacks' || ((role === 'all' || role === 'worker') && !flags.noCallbacks)
  return { api: role === 'all' || role === 'serve', worker: role === 'all' || role === 'worker', callbacks }
}

export async function startRoles(role: Role, cfg: Config, flags: { noCallbacks?: boolean } = {}) {
  const parts = partsOf(role, flags)
  const log = pino({ level: cfg.logLevel })
  const h = await openDatabase(cfg.db, { secrets: cfg })
  const tools = createToolCatalogue({ diagnostic: cfg.enableDiagnosticTool })
  // The API lists the shipped templates from the database: this release's library, before it serves.
  if (parts.api) await syncShippedTemplates(h.db)
  // `ward all` runs the worker role in a thread of its own (scan-thread.ts), off the API's event
  // loop; an in-memory SQLite database cannot be shared by two threads, so it keeps one loop.
  const threaded = role === 'all' && !(cfg.db.kind === 'sqlite' && cfg.db.file === ':memory:')
  // The thread starts (loads the scanners, opens its database handle) while the API is built.
  const starting = threaded ? startScanThread({ config: cfg, db: h.db, dbKind: h.kind, log, callbacks: parts.callbacks }) : null
  // The API does not wait for the thread: scans queued meanwhile wait in the database. A thread
  // that cannot start stops the process, as a failed worker start always did.
  starting?.catch((e) => {
    process.stderr.write(`ward: the scan thread did not start: ${e?.stack ?? e}\n`)
    process.exit(1)
  })
  const engineMetrics = starting ? [{ metrics: async () => (await starting).metrics() }] : [engineRegistry]
  const app = !parts.api
    ? null
    : await buildApp(
        { db: h.db, dbKind: h.kind, config: cfg, blocklist: scopesOf(cfg).target, tools, resolveVpnProfile },
        role === 'all' ? { metricsRegistries: engineMetrics } : {},
      )
  const worker: Worker | null =
    parts.worker && !starting
      ? await startWorkerRole({ db: h.db, dbKind: h.kind, config: cfg, log, tools, callbacks: parts.callbacks })
      : null
  const stopScans = async (reason: string, graceMs: number) =>
    starting ? (await starting).stop(reason, graceMs) : worker?.stop(reason, graceMs)
  const { sender, integrations } = startSenders(parts, h.db, cfg, log)
  if (sender) process.stdout.write(`Ward callback sender started (database: ${h.kind})\n`)
  const metrics = await startOwnMetrics(role, worker, cfg, log, () => h.close())
  if (role === 'worker' && worker) process.stdout.write(`Ward worker ${worker.id} started (database: ${h.kind})\n`)
  if (app) {
    await app.listen({ host: cfg.host, port: cfg.port })
    // Only now: a key shown by a process that then failed to listen (EADDRINUSE) would be the
    // only sight of it, with the user left behind holding it.
    const addr = app.server.address()
    const port = typeof addr === 'object' && addr ? addr.port : cfg.port
    await showFirstKey(h.db, cfg, log, webBase({ host: cfg.host, port }))
    process.stdout.write(
      `Ward is listening on ${webBase({ host: cfg.host, port })}/api/v2 (docs at /api/v2/docs)\nWeb interface: ${webBase({ host: cfg.host, port })}/\n`,
    )
  }

  if (!app) await showFirstKey(h.db, cfg, log)

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'shutting down')
    // The drain (running scans may end within the grace period), then 10 s for the rest.
    const hard = setTimeout(() => process.exit(1), (parts.worker ? cfg.shutdownGraceMs : 0) + ROLES_EXIT_MARGIN_MS)
    hard.unref()
    try {
      await Promise.all([
        app?.close(),
        metrics?.close(),
        stopScans(`Ward shut down (${signal}) while the scan was running`, cfg.shutdownGraceMs),
        sender?.stop(),
        integrations?.stop(),
      ])
      await h.close()
    } finally {
      clearTimeout(hard)
      process.exit(0)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

/** On an empty database, creates the first user and prints its key once; otherwise says how to get one. */
async function showFirstKey(db: Db, cfg: Config, log: Logger, web?: string) {
  const first = await ensureFirstUser(db, cfg)
  if (first?.generated) process.stdout.write(`\nWard created the first user. API key (shown once, keep it):\n\n    ${first.apiKey}\n\n`)
  else if (first) log.info('created the first user with WARD_INITIAL_API_KEY')
  else if (!cfg.initialApiKey)
    process.stdout.write(
      'Ward has users already, so no API key is shown: create one with `npx ward admin key create --user ID` (ids: `npx ward admin user list`)\n',
    )
  // Independent of the key: while no user can sign in to the web interface, a set-password link.
  const link = web ? await firstPasswordLink(db) : null
  if (link)
    process.stdout.write(
      `\nOpen this link to set the password of the web interface's first user, "${link.name}" (one use, valid 24 hours):\n\n` +
        `    ${web}/set-password/${link.token}\n\n`,
    )
}

/** A process that sends callbacks without being a worker runs the two outbox senders itself (a worker runs its own). */
function startSenders(parts: ReturnType<typeof partsOf>, db: Db, cfg: Config, log: Logger) {
  if (!parts.callbacks || parts.worker) return { sender: null, integrations: null }
  const sender: CallbackSender = startCallbackSender({
    db,
    config: cfg,
    log,
    owner: `${newWorkerId()}:callbacks`,
    toolName,
    dispatcher: callbackDispatcher(cfg),
  })
  const integrations = startIntegrationSender({
    db,
    config: cfg,
    log,
    owner: `${newWorkerId()}:integrations`,
    toolName,
    transport: integrationTransport(cfg),
  })
  return { sender, integrations }
}

/** Only a bare worker needs its own metrics listener: serve and all expose /metrics on the API port. */
async function startOwnMetrics(role: Role, worker: Worker | null, cfg: Config, log: Logger, closeDb: () => Promise<void>) {
  let metrics: MetricsServer | null = null
  if (role === 'worker' && worker && cfg.metricsPort !== null) {
    try {
      metrics = await startMetricsServer({ host: cfg.host, port: cfg.metricsPort, workerId: worker.id })
    } catch (e) {
      await worker.stop('Ward worker could not open its metrics port')
      await closeDb()
      throw e
    }
    process.stdout.write(`Ward worker metrics at ${metrics.url}/metrics\n`)
  } else if (role !== 'worker' && cfg.metricsPort !== null)
    log.warn(
      role === 'callbacks'
        ? 'WARD_METRICS_PORT is ignored by ward callbacks: it serves no metrics'
        : `WARD_METRICS_PORT is ignored by ward ${role}: its /metrics is on the API port`,
    )
  return metrics
}
