// Prometheus metrics at /metrics (no auth, outside /api/v2; installed on the root app so its hook
// sees every route). Two registries:
// - per app: HTTP requests by route and status, and DB-backed gauges collected on each scrape
//   (scans by state, queue depth), so every API process reports the shared queue;
// - per process (`engineMetrics`): histograms the worker observes as it runs (claim latency,
//   tool durations); `ward all` exposes them with the rest, `ward worker` on WARD_METRICS_PORT.
import type { FastifyInstance } from 'fastify'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { SCAN_STATES } from '../domain/scan-state.js'
import { queueDepth, scanCountsByState } from '../store/scans.js'

/** Per-process registry; also served by `ward worker`'s own listener (src/cli/worker-metrics.ts). */
export const processRegistry = new Registry()
collectDefaultMetrics({ register: processRegistry, prefix: 'ward_' })

const claimLatency = new Histogram({
  name: 'ward_scan_claim_latency_seconds',
  help: 'Time from a scan being created to a worker claiming it',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
  registers: [processRegistry],
})
const toolDuration = new Histogram({
  name: 'ward_tool_duration_seconds',
  help: 'Run time of a scan by tool, from claim to final state',
  labelNames: ['tool_id', 'state'],
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 14400],
  registers: [processRegistry],
})

/** Called by the worker: observations of this process's engine. */
export const engineMetrics = {
  claimed(createdAtIso: string, now = Date.now()) {
    const t = Date.parse(createdAtIso)
    if (Number.isFinite(t)) claimLatency.observe(Math.max(0, (now - t) / 1000))
  },
  toolEnded(toolId: number, state: string, ms: number) {
    toolDuration.observe({ tool_id: String(toolId), state }, ms / 1000)
  },
}

export function installMetrics(app: FastifyInstance) {
  const registry = new Registry()
  const requests = new Counter({
    name: 'ward_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  })
  new Gauge({
    name: 'ward_scans',
    help: 'Scans in the database by state (collected on scrape)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const rows = await scanCountsByState(app.ward.db)
      const by = new Map(rows.map((r) => [r.status, Number(r.n)]))
      for (const s of SCAN_STATES) this.set({ state: s }, by.get(s) ?? 0)
    },
  })
  new Gauge({
    name: 'ward_queue_depth',
    help: 'Scans waiting for a worker (collected on scrape)',
    registers: [registry],
    async collect() {
      this.set(await queueDepth(app.ward.db))
    },
  })

  // Root-level hook: counts every route of the app, /api/v2 included; unknown paths share one label.
  app.addHook('onResponse', async (req, reply) => {
    requests.inc({ method: req.method, route: req.routeOptions.url ?? '(unmatched)', status: String(reply.statusCode) })
  })

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    const [own, proc] = await Promise.all([registry.metrics(), processRegistry.metrics()])
    reply.header('content-type', registry.contentType)
    return own + proc
  })
}
