// The worker thread of `ward all` (scan-thread.ts starts it): the worker role on its own database
// handle and event loop. It reads the configuration from the same environment as the main thread,
// which has already opened (and migrated) the database and made the secret key file.
import { parentPort, workerData } from 'node:worker_threads'
import { pino } from 'pino'
import { loadConfig } from '../config/config.js'
import { openDatabase } from '../store/db.js'
import { publish } from '../store/notify.js'
import { createToolCatalogue } from '../tools/registry.js'
import { engineRegistry } from '../engine/metrics.js'
import { startWorkerRole } from './worker-role.js'
import { BEAT_MS, type FromThread, type ToThread } from './scan-thread.js'

const port = parentPort!
const send = (m: FromThread) => port.postMessage(m)
const cfg = loadConfig()
const log = pino({ level: cfg.logLevel }).child({ thread: 'scans' })
const h = await openDatabase(cfg.db, { secrets: cfg })
const worker = await startWorkerRole({
  db: h.db,
  dbKind: h.kind,
  config: cfg,
  log,
  tools: createToolCatalogue({ diagnostic: cfg.enableDiagnosticTool }),
  callbacks: (workerData as { callbacks: boolean }).callbacks,
})

// The watchdog's heartbeat: a thread stuck in synchronous code stops sending it.
const beat = setInterval(() => send({ type: 'beat' }), BEAT_MS)
port.on('message', (m: ToThread) => {
  if (m.type === 'event') publish(m.event)
  else if (m.type === 'metrics') void engineRegistry.metrics().then((text) => send({ type: 'metrics', n: m.n, text }))
  else if (m.type === 'stop') void stop(m.reason, m.graceMs)
})
send({ type: 'ready', id: worker.id })

async function stop(reason?: string, graceMs?: number) {
  clearInterval(beat)
  try {
    await worker.stop(reason, graceMs)
    await h.close()
  } finally {
    send({ type: 'stopped' })
    port.close()
  }
}
