// `npm run bench -- scale [--scans 1000] [--workers 1,2,4] [--port 17070] [--db postgres://...]`:
// real `ward worker` processes (1, 2, 4) and one `ward serve` on a fresh PostgreSQL schema each round;
// 1,000 one-port scans (tool 70, no service detection) of a TCP listener this process opens on
// 127.0.12.1 are posted through the API as fast as it takes them. Prints scans/s (first POST to last
// scan ended), claim latency p50/p99 (created_at → start_time) and the exactly-once check: every scan
// claimed once, started once, finished, and found exactly that one open port and nothing else.
import net from 'node:net'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { createPgSchema, TEST_PG_URL } from '../test/helpers/ward.js'
import { startProc, stopProc, api, type WardProc } from '../test/helpers/processes.js'
import { machine, parseArgs } from './_shared.js'

const HOST = '127.0.12.1'
// Not in the port scanner's service-name table, so no risk rule can fire on it.
const DEFAULT_PORT = 17070
const FEEDERS = 16

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN

/** The scanned service: accepts and closes; counts connections to compare with the scans. */
async function listen(port: number): Promise<{ accepted(): number; close(): Promise<void> }> {
  let accepted = 0
  const server = net.createServer((s) => {
    accepted++
    s.on('error', () => {})
    s.end()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e) => reject(new Error(`cannot listen on ${HOST}:${port} (${(e as Error).message}); pick another with --port`)))
    server.listen(port, HOST, () => resolve())
  })
  return { accepted: () => accepted, close: () => new Promise<void>((r) => server.close(() => r())) }
}

export async function run(args: string[]): Promise<void> {
  const a = parseArgs(args)
  const n = Number(a.get('scans') ?? '1000')
  const rounds = (a.get('workers') ?? '1,2,4').split(',').map(Number)
  const port = Number(a.get('port') ?? DEFAULT_PORT)
  const base = a.get('db') ?? (process.env.WARD_TEST_DATABASE_URL || TEST_PG_URL)
  const params = { ports: String(port), service_detection: false }
  console.log(
    `scale: ${n} one-port scans (tool 70, ${JSON.stringify(params)}) of ${HOST}:${port} per round; workers ${rounds.join(', ')}; ${machine()}`,
  )
  const listener = await listen(port)
  try {
    for (const workers of rounds) await round(base, workers, n, params, port, listener)
  } finally {
    await listener.close()
  }
}

async function round(base: string, workers: number, n: number, params: object, port: number, listener: { accepted(): number }) {
  const schema = await createPgSchema(base)
  const key = randomBytes(20).toString('hex')
  const env = {
    WARD_DATABASE_URL: schema.url,
    WARD_INITIAL_API_KEY: key,
    WARD_RATE_LIMIT: 'off',
    WARD_USER_MAX_RUNNING: '100000',
    WARD_WORKER_CONCURRENCY: '16',
    WARD_POLL_MS: '500',
    LOG_LEVEL: 'warn',
  }
  const procs: WardProc[] = []
  const admin = new pg.Client({ connectionString: schema.url })
  await admin.connect()
  try {
    procs.push(await startProc('serve', env))
    procs.push(...(await Promise.all(Array.from({ length: workers }, () => startProc('worker', env)))))
    const apiBase = procs[0]!.base!
    const target = await api(apiBase, key, 'POST', '/api/v2/targets', { name: HOST })
    if (target.status !== 201) throw new Error(`POST /targets: ${target.status} ${target.text}`)
    const targetId = target.json.data.created_id
    const accepted0 = listener.accepted()
    const t0 = Date.now()
    let next = 0
    let failed = 0
    await Promise.all(
      Array.from({ length: FEEDERS }, async () => {
        while (next < n) {
          next++
          const r = await api(apiBase, key, 'POST', '/api/v2/scans', { tool_id: 70, target_id: targetId, tool_params: params })
          if (r.status !== 201) failed++
        }
      }),
    )
    const fed = Date.now() - t0
    let done = 0
    while (Date.now() - t0 < 600000) {
      done = Number((await admin.query(`select count(*) as n from scans where status not in ('waiting', 'running')`)).rows[0].n)
      if (done >= n - failed) break
      await sleep(50)
    }
    const elapsed = (Date.now() - t0) / 1000
    const rows = (
      await admin.query(
        `select s.created_at, s.start_time, s.attempts, s.status,
                (select count(*) from scan_logs l where l.scan_id = s.id and l.line like '%started on%') as starts,
                (select count(*) from findings f where f.scan_id = s.id) as findings,
                (select count(*) from findings f where f.scan_id = s.id and f.vuln_id = 'open_port' and f.port = $1) as open_port
         from scans s`,
        [port],
      )
    ).rows
    const lat = rows
      .filter((r) => r.start_time)
      .map((r) => Date.parse(r.start_time) - Date.parse(r.created_at))
      .sort((x, y) => x - y)
    const bad = rows.filter(
      (r) =>
        Number(r.attempts) !== 1 ||
        Number(r.starts) !== 1 ||
        r.status !== 'finished' ||
        Number(r.open_port) !== 1 ||
        Number(r.findings) !== 1,
    )
    const once = rows.length === n && bad.length === 0
    console.log(
      `workers ${workers}: ${done}/${n} scans in ${elapsed.toFixed(1)} s = ${(done / elapsed).toFixed(0)} scans/s (API fed them in ${(fed / 1000).toFixed(1)} s, ${failed} POSTs failed); ` +
        `claim latency p50 ${pct(lat, 50)} ms, p99 ${pct(lat, 99)} ms; exactly once, one open port each: ${once ? 'yes' : `NO (${bad.length} of ${rows.length} scans differ, e.g. ${JSON.stringify(bad[0] ?? null)})`}; ` +
        `listener accepted ${listener.accepted() - accepted0} connections`,
    )
  } finally {
    await Promise.all(procs.map((p) => stopProc(p, 'SIGTERM', 5000)))
    await admin.end()
    await schema.drop()
  }
}
