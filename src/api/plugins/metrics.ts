// Prometheus metrics at /metrics (no auth, outside /api/v2; installed on the root app so its hook
// sees every route). Two registries:
// - per app: HTTP requests by route and status, and DB-backed gauges collected on each scrape
//   (scans by state, queue depth), so every API process reports the shared queue;
// - per process (`engineMetrics`): histograms the worker observes as it runs (claim latency,
//   tool durations); `ward all` exposes them with the rest, `ward worker` on WARD_METRICS_PORT.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client'
import { SCAN_STATES } from '../../domain/scan-state.js'
import { queueDepth, scanCountsByState } from '../../store/scans.js'
import { pdfBuilds } from '../../reports/pdf-builds.js'
import { addRouteHook } from '../route-hooks.js'

/** Per-process registry; also served by `ward worker`'s own listener (src/cli/worker-metrics.ts). */
export const processRegistry = new Registry()
collectDefaultMetrics({ register: processRegistry, prefix: 'ward_' })
new Gauge({
  name: 'ward_pdf_builds',
  help: 'PDF reports of this process being built and waiting for a build slot (WARD_PDF_BUILDS, WARD_PDF_QUEUE)',
  labelNames: ['state'],
  registers: [processRegistry],
  collect() {
    const s = pdfBuilds.stats()
    this.set({ state: 'running' }, s.running)
    this.set({ state: 'waiting' }, s.waiting)
  },
})
new Gauge({
  name: 'ward_pdf_builds_refused',
  help: 'PDF report requests this process refused (503) because the queue was full, since start',
  registers: [processRegistry],
  collect() {
    this.set(pdfBuilds.stats().refused)
  },
})

/** A source of Prometheus text: a prom-client Registry, or the engine's registry in `ward all`'s scan thread. */
export interface MetricsSource {
  metrics(): Promise<string>
}

async function metricsPlugin(app: FastifyInstance, opts: { registries?: MetricsSource[] }) {
  const extra = opts.registries ?? []
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

  // Each route counts its own answers (a hook given to it as it is added: nothing asks a request
  // which route it is on), a counter per status looked up once — prom-client hashes its label object
  // on every inc(), a visible share of a small read's cost. Answers no route matched (404s of the
  // not-found handler) are counted by a root hook, which passes the others by.
  const counterOf = (method: string, route: string) => {
    const byStatus = new Map<number, { inc(): void }>()
    return (status: number) => {
      let c = byStatus.get(status)
      if (!c) {
        c = requests.labels({ method, route, status: String(status) })
        if (byStatus.size < 100) byStatus.set(status, c)
      }
      return c
    }
  }
  app.addHook('onRoute', (route) => {
    const url = route.url
    const counters = new Map<string, (status: number) => { inc(): void }>()
    const hook = (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
      let count = counters.get(req.method)
      if (!count) counters.set(req.method, (count = counterOf(req.method, url)))
      count(reply.statusCode).inc()
      done()
    }
    addRouteHook(route, 'onResponse', hook, 'first')
  })
  const unmatched = new Map<string, (status: number) => { inc(): void }>()
  app.addHook('onResponse', (req, reply, done) => {
    if (req.is404) {
      let count = unmatched.get(req.method)
      if (!count) {
        count = counterOf(req.method, '(unmatched)')
        if (unmatched.size < 64) unmatched.set(req.method, count)
      }
      count(reply.statusCode).inc()
    }
    done()
  })

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    const texts = await Promise.all([registry, processRegistry, ...extra].map((r) => r.metrics()))
    reply.header('content-type', registry.contentType)
    return texts.join('')
  })
}

/** Registered on the root app, so its hook sees every route. */
export default fp(metricsPlugin, { name: 'ward-metrics', fastify: '5.x' })
