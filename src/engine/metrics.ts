// What the worker observes as it runs: claim latency and tool durations. Its own registry, exposed
// by whichever listener the process has (`ward all`: the API's /metrics; `ward worker`:
// WARD_METRICS_PORT), so the engine never depends on the API.
import { Histogram, Registry } from 'prom-client'

export const engineRegistry = new Registry()

const claimLatency = new Histogram({
  name: 'ward_scan_claim_latency_seconds',
  help: 'Time from a scan being created to a worker claiming it',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
  registers: [engineRegistry],
})
const toolDuration = new Histogram({
  name: 'ward_tool_duration_seconds',
  help: 'Run time of a scan by tool, from claim to final state',
  labelNames: ['tool_id', 'state'],
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 14400],
  registers: [engineRegistry],
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
