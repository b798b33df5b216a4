// `ward worker`'s own /metrics and /healthz listener (WARD_METRICS_PORT): configuration, the
// listener in this process, and a real worker process on PostgreSQL that runs a scan and reports
// its claim latency and tool duration. Runs once per `npm test` (it picks PostgreSQL itself).
// ward-test: single-run
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { loadConfig, ConfigError } from '../../src/config/config.js'
import { engineMetrics } from '../../src/engine/metrics.js'
import { startMetricsServer } from '../../src/cli/worker-metrics.js'
import { createPgSchema, TEST_PG_URL, pgUnreachable } from '../helpers/ward.js'
import { startProc, stopProc, api, type WardProc } from '../helpers/processes.js'

const HOST = '127.0.12.4'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Value of one sample line (`name{labels} value`) of a Prometheus text body; NaN when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{([^}]*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]))
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4])
  }
  return NaN
}

test('WARD_METRICS_PORT: unset means no listener; a bad value stops start-up', () => {
  const base = { WARD_DATABASE_URL: 'sqlite:./x.db' }
  assert.equal(loadConfig(base).metricsPort, null)
  assert.equal(loadConfig({ ...base, WARD_METRICS_PORT: '' }).metricsPort, null)
  assert.equal(loadConfig({ ...base, WARD_METRICS_PORT: '9464' }).metricsPort, 9464)
  assert.equal(loadConfig({ ...base, WARD_METRICS_PORT: '0' }).metricsPort, 0)
  assert.throws(
    () => loadConfig({ ...base, WARD_METRICS_PORT: 'abc' }),
    (e: Error) => e instanceof ConfigError && /WARD_METRICS_PORT/.test(e.message),
  )
  assert.throws(
    () => loadConfig({ ...base, WARD_METRICS_PORT: '70000' }),
    (e: Error) => e instanceof ConfigError && /WARD_METRICS_PORT/.test(e.message),
  )
})

test('the metrics listener serves the process registry and /healthz, nothing else', async () => {
  const s = await startMetricsServer({ host: HOST, port: 0, workerId: 'w-test' })
  try {
    assert.match(s.url, /^http:\/\/127\.0\.12\.4:\d+$/)
    engineMetrics.claimed(new Date(Date.now() - 200).toISOString())
    engineMetrics.toolEnded(4242, 'finished', 1500)
    const m = await fetch(`${s.url}/metrics`)
    assert.equal(m.status, 200)
    assert.match(m.headers.get('content-type') ?? '', /text\/plain/)
    const text = await m.text()
    assert.ok(sample(text, 'ward_scan_claim_latency_seconds_count') >= 1, 'claim latency observed')
    assert.equal(sample(text, 'ward_tool_duration_seconds_count', { tool_id: '4242', state: 'finished' }), 1)
    assert.equal(sample(text, 'ward_tool_duration_seconds_sum', { tool_id: '4242', state: 'finished' }), 1.5)
    const h = await fetch(`${s.url}/healthz`)
    assert.equal(h.status, 200)
    assert.deepEqual(await h.json(), { status: 'ok', role: 'worker', worker: 'w-test' })
    assert.equal((await fetch(`${s.url}/api/v2/targets`)).status, 404)
    const post = await fetch(`${s.url}/metrics`, { method: 'POST', body: 'x' })
    assert.equal(post.status, 405)
    assert.equal(post.headers.get('allow'), 'GET, HEAD')
  } finally {
    await s.close()
  }
  await assert.rejects(fetch(`${s.url}/healthz`), 'closed listener refuses connections')
})

test('a `ward worker` with WARD_METRICS_PORT reports the claim latency and tool duration of the scan it ran', {
  timeout: 30000,
}, async () => {
  const why = await pgUnreachable()
  if (why) {
    console.log(
      `the worker process test needs PostgreSQL at ${TEST_PG_URL.replace(/\/\/[^@/]*@/, '//***@')}: not reachable (${why}); nothing else asserted`,
    )
    assert.ok(why.length > 0)
    return
  }
  const schema = await createPgSchema()
  const key = randomBytes(20).toString('hex')
  const env = {
    HOST,
    WARD_DATABASE_URL: schema.url,
    WARD_INITIAL_API_KEY: key,
    WARD_RATE_LIMIT: 'off',
    WARD_DB_POOL_MAX: '3',
    LOG_LEVEL: 'warn',
  }
  const procs: WardProc[] = []
  const admin = new pg.Client({ connectionString: schema.url })
  await admin.connect()
  try {
    const [serve, worker] = await Promise.all([startProc('serve', env), startProc('worker', { ...env, WARD_METRICS_PORT: '0' })])
    procs.push(serve!, worker!)
    const url = /Ward worker metrics at (http:\/\/[^\s]+)\/metrics/.exec(worker!.output())?.[1]
    assert.ok(url, `the worker prints its metrics URL:\n${worker!.output()}`)
    assert.match(url, /^http:\/\/127\.0\.12\.4:\d+$/)
    assert.doesNotMatch(serve!.output(), /metrics at/, 'serve opens no second listener')

    const before = await (await fetch(`${url}/metrics`)).text()
    assert.equal(sample(before, 'ward_scan_claim_latency_seconds_count'), 0, 'nothing claimed yet')
    const health = await fetch(`${url}/healthz`)
    assert.equal(health.status, 200)
    assert.match((await health.json()).worker, new RegExp(`:${worker!.pid}:`))

    const target = await api(serve!.base!, key, 'POST', '/api/v2/targets', { name: 'metrics.example.test' })
    assert.equal(target.status, 201, target.text)
    const scan = await api(serve!.base!, key, 'POST', '/api/v2/scans', {
      tool_id: 9001,
      target_id: target.json.data.created_id,
      tool_params: { steps: 2, step_ms: 10 },
    })
    assert.equal(scan.status, 201, scan.text)
    const id = scan.json.data.created_id
    let status = ''
    for (const until = Date.now() + 15000; Date.now() < until; await sleep(50)) {
      status = (await admin.query('select status from scans where id = $1', [id])).rows[0].status
      if (status !== 'waiting' && status !== 'running') break
    }
    assert.equal(status, 'finished')

    // The histogram is observed right after the final state is written: allow a moment.
    let text = ''
    for (const until = Date.now() + 3000; Date.now() < until; await sleep(50)) {
      text = await (await fetch(`${url}/metrics`)).text()
      if (sample(text, 'ward_tool_duration_seconds_count', { tool_id: '9001', state: 'finished' }) >= 1) break
    }
    assert.equal(sample(text, 'ward_scan_claim_latency_seconds_count'), 1)
    assert.equal(sample(text, 'ward_tool_duration_seconds_count', { tool_id: '9001', state: 'finished' }), 1)
    assert.ok(sample(text, 'ward_tool_duration_seconds_sum', { tool_id: '9001', state: 'finished' }) > 0)
    assert.ok(sample(text, 'ward_process_resident_memory_bytes') > 0, 'default process metrics are included')

    await stopProc(worker!, 'SIGTERM', 10000)
    assert.deepEqual(await worker!.exited, { code: 0, signal: null })
    await assert.rejects(fetch(`${url}/healthz`), 'the listener closes with the worker')
  } finally {
    await Promise.all(procs.map((p) => stopProc(p, 'SIGTERM', 5000)))
    await admin.end()
    await schema.drop()
  }
})
