// `npm run bench -- scale [--scans 1000] [--workers 1,2,4] [--db postgres://...]`: real `ward worker`
// processes (1, 2, 4) and one `ward serve` on a fresh PostgreSQL schema each round; 1,000 short
// diagnostic scans are posted through the API as fast as it takes them. Prints scans/s (first POST
// to last scan finished), claim latency p50/p99 (created_at → start_time) and the exactly-once check.
import os from 'node:os'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { createPgSchema, TEST_PG_URL } from '../test/helpers/ward.js'
import { startProc, stopProc, api, type WardProc } from '../test/helpers/processes.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN

function arg(args: string[], name: string, def: string) {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] ? args[i + 1]! : def
}

export async function run(args: string[]): Promise<void> {
  const n = Number(arg(args, 'scans', '1000'))
  const rounds = arg(args, 'workers', '1,2,4').split(',').map(Number)
  const base = arg(args, 'db', process.env.WARD_TEST_DATABASE_URL || TEST_PG_URL)
  console.log(`scale: ${n} diagnostic scans (steps 1, step_ms 0) per round; workers ${rounds.join(', ')}; ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${new Date().toISOString()}`)
  for (const workers of rounds) {
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
      const target = await api(apiBase, key, 'POST', '/api/v2/targets', { name: '127.0.0.1' })
      const targetId = target.json.data.created_id
      const t0 = Date.now()
      let next = 0
      let failed = 0
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < n) {
            next++
            const r = await api(apiBase, key, 'POST', '/api/v2/scans', { tool_id: 9001, target_id: targetId, tool_params: { steps: 1, step_ms: 0 } })
            if (r.status !== 201) failed++
          }
        }),
      )
      const fed = Date.now() - t0
      let done = 0
      while (Date.now() - t0 < 300000) {
        done = Number((await admin.query(`select count(*) as n from scans where status not in ('waiting', 'running')`)).rows[0].n)
        if (done >= n - failed) break
        await sleep(50)
      }
      const elapsed = (Date.now() - t0) / 1000
      const rows = (await admin.query(`select s.created_at, s.start_time, s.attempts, s.status, (select count(*) from tests t where t.scan_id = s.id) as tests from scans s`)).rows
      const lat = rows.filter((r) => r.start_time).map((r) => Date.parse(r.start_time) - Date.parse(r.created_at)).sort((a, b) => a - b)
      const once = rows.every((r) => Number(r.attempts) === 1 && Number(r.tests) === 1 && r.status === 'finished')
      console.log(
        `workers ${workers}: ${done}/${n} scans in ${elapsed.toFixed(1)} s = ${(done / elapsed).toFixed(0)} scans/s (API fed them in ${(fed / 1000).toFixed(1)} s, ${failed} POSTs failed); ` +
          `claim latency p50 ${pct(lat, 50)} ms, p99 ${pct(lat, 99)} ms; exactly once: ${once ? 'yes' : 'NO'}`,
      )
    } finally {
      await Promise.all(procs.map((p) => stopProc(p, 'SIGTERM', 5000)))
      await admin.end()
      await schema.drop()
    }
  }
}
