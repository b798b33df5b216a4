// Fault tests of the scaled-out mode: real `ward worker` and `ward serve` processes on one PostgreSQL
// schema. Runs once per `npm test` (it picks PostgreSQL itself). ward-test: single-run
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { createPgSchema, TEST_PG_URL, pgUnreachable } from '../helpers/ward.js'
import { startProc, stopProc, api, type WardProc } from '../helpers/processes.js'

const LEASE_MS = 4000
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

test('scale-out on PostgreSQL: two workers and two APIs; worker killed mid-scan; 100 concurrent scans run once; backends terminated', {
  timeout: 150000,
}, async (t) => {
  const why = await pgUnreachable()
  if (why) {
    console.log(
      `scale-out tests need PostgreSQL at ${TEST_PG_URL.replace(/\/\/[^@/]*@/, '//***@')}: not reachable (${why}); nothing else asserted`,
    )
    assert.ok(why.length > 0)
    return
  }
  const schema = await createPgSchema()
  const appName = schema.schema
  const url = new URL(schema.url)
  url.searchParams.set('application_name', appName)
  const key = randomBytes(20).toString('hex')
  const env = {
    WARD_DATABASE_URL: url.toString(),
    WARD_INITIAL_API_KEY: key,
    WARD_LEASE_MS: String(LEASE_MS),
    // Long poll: a quick claim proves the LISTEN/NOTIFY wake-up.
    WARD_POLL_MS: '4000',
    WARD_USER_MAX_RUNNING: '1000',
    WARD_WORKER_CONCURRENCY: '32',
    WARD_RATE_LIMIT_WRITE: '100000',
    WARD_RATE_LIMIT_GET: '100000',
    WARD_DB_POOL_MAX: '5',
  }
  const procs: WardProc[] = []
  const admin = new pg.Client({ connectionString: schema.url })
  await admin.connect()
  const q = async (text: string, params: unknown[] = []) => (await admin.query(text, params)).rows
  try {
    // Four processes starting together: migrations run once under the advisory lock.
    const [w1, w2, a1, a2] = await Promise.all([
      startProc('worker', env),
      startProc('worker', env),
      startProc('serve', env),
      startProc('serve', env),
    ])
    procs.push(w1!, w2!, a1!, a2!)
    const apis = [a1!.base!, a2!.base!]
    assert.equal(Number((await q('select count(*) as n from kysely_migration'))[0].n) > 0, true)
    assert.equal(Number((await q('select count(*) as n from users'))[0].n), 1, 'one first user despite four processes')

    const target = await api(apis[0]!, key, 'POST', '/api/v2/targets', { name: '127.0.0.1' })
    assert.equal(target.status, 201, target.text)
    const targetId = target.json.data.created_id
    const startScan = (base: string, params: object) =>
      api(base, key, 'POST', '/api/v2/scans', { tool_id: 9001, target_id: targetId, tool_params: params })
    const scanRow = async (id: number) =>
      (await q('select status, status_message, lease_owner, attempts from scans where id = $1', [id]))[0]
    const waitRow = async (id: number, pred: (r: any) => boolean, ms: number) => {
      const until = Date.now() + ms
      let r: Awaited<ReturnType<typeof scanRow>> | undefined
      while (Date.now() < until) {
        r = await scanRow(id)
        if (pred(r)) return r
        await sleep(50)
      }
      throw new Error(`scan ${id}: condition not met in ${ms} ms; last ${JSON.stringify(r)}`)
    }

    await t.test('a queued scan is claimed at once through NOTIFY (workers poll only every 4 s)', async () => {
      await sleep(300)
      const s = await startScan(apis[1]!, { steps: 1, step_ms: 10 })
      assert.equal(s.status, 201, s.text)
      const t0 = Date.now()
      await waitRow(s.json.data.created_id, (r) => r.status === 'finished', 10000)
      assert.ok(Date.now() - t0 < 2000, `took ${Date.now() - t0} ms`)
    })

    await t.test(
      'SIGKILL of the worker running a scan: the other worker queues it again within the lease time and runs it to the end',
      async () => {
        const s = await startScan(apis[0]!, { steps: 30, step_ms: 100 })
        assert.equal(s.status, 201, s.text)
        const id = s.json.data.created_id
        const running = await waitRow(id, (r) => r.status === 'running' && r.lease_owner, 5000)
        const owner = [w1!, w2!].find((w) => String(running.lease_owner).includes(`:${w.pid}:`))
        const other = [w1!, w2!].find((w) => w !== owner)!
        assert.ok(owner, `lease owner ${running.lease_owner} is one of our workers`)
        owner.proc.kill('SIGKILL')
        await owner.exited
        const t0 = Date.now()
        const again = await waitRow(id, (r) => r.attempts === 2, LEASE_MS * 4)
        assert.ok(Date.now() - t0 <= LEASE_MS * 2 + 1500, `recovered after ${Date.now() - t0} ms (lease ${LEASE_MS} ms)`)
        assert.match(String(again.lease_owner ?? `:${other.pid}:`), new RegExp(`:${other.pid}:`))
        const ended = await waitRow(id, (r) => r.status !== 'running' && r.status !== 'waiting', 10000)
        assert.equal(ended.status, 'finished', ended.status_message)
        assert.equal(Number((await q('select count(*) as n from findings where scan_id = $1', [id]))[0].n), 15, 'every finding once')
        // Replace the dead worker for the next tests.
        const w3 = await startProc('worker', env)
        procs.push(w3)
      },
    )

    await t.test('100 scans started concurrently through two API processes each run exactly once', async () => {
      const before = Number((await q('select coalesce(max(id), 0) as m from scans'))[0].m)
      const posts = await Promise.all(Array.from({ length: 100 }, (_, i) => startScan(apis[i % 2]!, { steps: 1, step_ms: 5 })))
      assert.deepEqual(
        posts.map((p) => p.status).filter((s) => s !== 201),
        [],
      )
      const ids = posts.map((p) => p.json.data.created_id as number)
      assert.equal(new Set(ids).size, 100)
      const until = Date.now() + 25000
      let done = 0
      while (Date.now() < until) {
        done = Number((await q(`select count(*) as n from scans where id > $1 and status = 'finished'`, [before]))[0].n)
        if (done === 100) break
        await sleep(100)
      }
      assert.equal(done, 100, 'all 100 finished')
      const rows = await q(
        `select s.id, s.attempts, (select count(*) from tests t where t.scan_id = s.id) as tests,
                (select count(*) from scan_logs l where l.scan_id = s.id and l.line like '%started on%') as starts
         from scans s where s.id > $1`,
        [before],
      )
      assert.equal(rows.length, 100)
      for (const r of rows) {
        assert.equal(Number(r.attempts), 1, `scan ${r.id} claimed ${r.attempts} times`)
        assert.equal(Number(r.tests), 1, `scan ${r.id} has ${r.tests} tests`)
        assert.equal(Number(r.starts), 1, `scan ${r.id} started ${r.starts} times`)
      }
    })

    await t.test('terminated database connections: processes reconnect and carry on', async () => {
      const long = await startScan(apis[0]!, { steps: 30, step_ms: 100 })
      assert.equal(long.status, 201)
      const longId = long.json.data.created_id
      await waitRow(longId, (r) => r.status === 'running', 5000)
      const killed = await q(
        `select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and application_name = $1 and pid <> pg_backend_pid()`,
        [appName],
      )
      assert.ok(killed.length >= 3, `terminated ${killed.length} connections`)
      await sleep(500)
      // Requests may fail while pools notice; then both APIs answer again.
      for (const base of apis) {
        let r = await api(base, key, 'GET', '/api/v2/targets')
        if (r.status !== 200) r = await api(base, key, 'GET', '/api/v2/targets')
        assert.equal(r.status, 200, r.text)
      }
      // The scan that was running keeps its lease (heartbeats reconnect) and finishes.
      const ended = await waitRow(longId, (r) => r.status !== 'running', 10000)
      const why = () =>
        procs
          .flatMap((p) =>
            p
              .output()
              .split('\n')
              .filter((l) => /"level":(40|50)/.test(l))
              .slice(-8),
          )
          .join('\n')
      // No process died of the dropped connections (an unhandled pg 'error' event once killed workers).
      const died = procs.filter((p) => p.proc.exitCode !== null || (p.proc.signalCode !== null && p.proc.signalCode !== 'SIGKILL'))
      assert.deepEqual(
        died.map((p) => `${p.role} ${p.pid}: ${p.output().slice(-600)}`),
        [],
      )
      assert.equal(ended.status, 'finished', `${JSON.stringify(ended)}\nwarnings and errors of the processes:\n${why()}`)
      // New scans are claimed promptly again: LISTEN reconnected (workers poll only every 4 s).
      const s = await startScan(apis[1]!, { steps: 1, step_ms: 10 })
      assert.equal(s.status, 201, s.text)
      const t0 = Date.now()
      await waitRow(s.json.data.created_id, (r) => r.status === 'finished', 10000)
      assert.ok(Date.now() - t0 < 2500, `claimed after ${Date.now() - t0} ms`)
      const ready = await fetch(`${apis[0]}/readyz`)
      assert.equal(ready.status, 200)
    })
  } finally {
    await Promise.all(procs.map((p) => stopProc(p, 'SIGTERM', 5000)))
    await admin.end()
    await schema.drop()
  }
})
