// `ward worker`'s optional listener (WARD_METRICS_PORT): GET /metrics (the process registry: claim
// latency, tool durations, Node runtime) and GET /healthz. A worker has no API server, and without
// this its engine histograms would be visible nowhere. No auth, like the API's /metrics.
import http from 'node:http'
import { Registry } from 'prom-client'
import { processRegistry } from '../api/plugins/metrics.js'
import { engineRegistry } from '../engine/metrics.js'
import { KEEP_ALIVE_TIMEOUT_MS } from '../toolkit/timeouts.js'

const registry = Registry.merge([processRegistry, engineRegistry])

export interface MetricsServer {
  /** http://host:port of the listener (the real port when 0 was asked). */
  url: string
  close(): Promise<void>
}

export async function startMetricsServer(o: { host: string; port: number; workerId?: string }): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (path !== '/metrics' && path !== '/healthz') return send(res, 404, 'application/json', JSON.stringify({ error: 'not found' }))
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD')
      return send(res, 405, 'application/json', JSON.stringify({ error: 'method not allowed' }))
    }
    if (path === '/healthz')
      return send(res, 200, 'application/json', JSON.stringify({ status: 'ok', role: 'worker', worker: o.workerId ?? null }))
    registry.metrics().then(
      (text) => send(res, 200, registry.contentType, text),
      (e: Error) => send(res, 500, 'text/plain', `metrics unavailable: ${e.message}\n`),
    )
  })
  // Scrapers keep connections open; they must not hold the worker's shutdown.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port, o.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const addr = server.address()
  const port = typeof addr === 'object' && addr ? addr.port : o.port
  return {
    url: `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function send(res: http.ServerResponse, status: number, type: string, body: string) {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) })
  res.end(res.req.method === 'HEAD' ? undefined : body)
}
