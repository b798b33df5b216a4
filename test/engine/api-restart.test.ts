// Fault test of the scaled-out mode: the only `ward serve` process is SIGKILLed under load from ten
// client loops and restarted on the same address, while two `ward worker` processes keep running.
// Nothing may be answered 5xx, only connection errors around the outage may fail, and nothing
// acknowledged with 201 may be lost. Runs once per `npm test` (it picks PostgreSQL itself).
// ward-test: single-run
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { createPgSchema, TEST_PG_URL, pgUnreachable } from '../helpers/ward.js'
import { startProc, stopProc, type WardProc } from '../helpers/processes.js'

const HOST = '127.0.12.5'
const CLIENTS = 10
const LOAD_BEFORE_KILL_MS = 2000
const DOWN_MS = 700
const LOAD_AFTER_RESTART_MS = 2000
const REQUEST_TIMEOUT_MS = 10000
// Diagnostic scans of 3 steps record a finding at steps 1 and 3.
const SCAN_PARAMS = { steps: 3, step_ms: 20 }
const FINDINGS_PER_SCAN = 2
// What a request sees when the server dies under it or is not listening yet.
const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

type Op = 'post-target' | 'get-targets' | 'post-scan' | 'get-findings'
interface Rec {
  op: Op
  t0: number
  t1: number
  status?: number
  json?: any
  error?: string
  name?: string
}

/** A port free on HOST now, so the API can be started (and restarted) on a known address. */
async function freePort(): Promise<number> {
  const s = net.createServer()
  await new Promise<void>((r, j) => s.once('error', j).listen(0, HOST, () => r()))
  const port = (s.address() as net.AddressInfo).port
  await new Promise<void>((r) => s.close(() => r()))
  return port
}

/** One request; a thrown fetch is recorded with the code of its cause (ECONNREFUSED, ...). */
async function call(base: string, key: string, op: Op, method: string, url: string, body?: unknown, name?: string): Promise<Rec> {
  const t0 = Date.now()
  try {
    const r = await fetch(base + url, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    const text = await r.text()
    let json: any = null
    try {
      json = JSON.parse(text)
    } catch {
      json = { raw: text.slice(0, 300) }
    }
    return { op, t0, t1: Date.now(), status: r.status, json, name }
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } }
    return { op, t0, t1: Date.now(), error: err.cause?.code ?? err.name ?? err.message, name }
  }
}

test('API process SIGKILLed and restarted under load: no 5xx, only connection errors around the outage, nothing acknowledged is lost', {
  timeout: 40000,
}, async () => {
  const why = await pgUnreachable()
  if (why) {
    console.log(
      `the API restart test needs PostgreSQL at ${TEST_PG_URL.replace(/\/\/[^@/]*@/, '//***@')}: not reachable (${why}); nothing else asserted`,
    )
    assert.ok(why.length > 0)
    return
  }
  const schema = await createPgSchema()
  const key = randomBytes(20).toString('hex')
  const port = await freePort()
  const env = {
    HOST,
    WARD_DATABASE_URL: schema.url,
    WARD_INITIAL_API_KEY: key,
    WARD_RATE_LIMIT: 'off',
    WARD_USER_MAX_RUNNING: '1000',
    WARD_WORKER_CONCURRENCY: '16',
    WARD_DB_POOL_MAX: '5',
    LOG_LEVEL: 'warn',
  }
  const procs: WardProc[] = []
  const admin = new pg.Client({ connectionString: schema.url })
  await admin.connect()
  const q = async (text: string, params: unknown[] = []) => (await admin.query(text, params)).rows
  try {
    const [w1, w2, first] = await Promise.all([
      startProc('worker', env),
      startProc('worker', env),
      startProc('serve', { ...env, PORT: String(port) }),
    ])
    procs.push(w1!, w2!, first!)
    const base = first!.base!
    assert.equal(base, `http://${HOST}:${port}`)

    // ---- load: ten loops cycling through the four requests until told to stop
    const recs: Rec[] = []
    const targetIds: number[] = []
    let seq = 0
    let running = true
    const loop = async (client: number) => {
      for (let i = client; running; i++) {
        const op: Op = (['post-target', 'get-targets', 'post-scan', 'get-findings'] as const)[i % 4]!
        let r: Rec
        if (op === 'post-target' || (op === 'post-scan' && !targetIds.length)) {
          const n = seq++
          // IP literals of the test range and names that are never resolved.
          const name = n < 200 && n % 2 === 0 ? `127.0.12.${n / 2 + 20}` : `t${n}.example.test`
          r = await call(base, key, 'post-target', 'POST', '/api/v2/targets', { name }, name)
          if (r.status === 201) targetIds.push(r.json.data.created_id)
        } else if (op === 'post-scan') {
          const targetId = targetIds[(i * 7919) % targetIds.length]!
          r = await call(base, key, op, 'POST', '/api/v2/scans', { tool_id: 9001, target_id: targetId, tool_params: SCAN_PARAMS })
        } else if (op === 'get-targets') r = await call(base, key, op, 'GET', '/api/v2/targets?limit=20')
        else r = await call(base, key, op, 'GET', '/api/v2/findings?limit=20')
        recs.push(r)
        // While the API is down, refused connections come back at once: do not spin.
        if (r.error) await sleep(20)
      }
    }
    const loops = Array.from({ length: CLIENTS }, (_, c) => loop(c))

    await sleep(LOAD_BEFORE_KILL_MS)
    const killAt = Date.now()
    first!.proc.kill('SIGKILL')
    await first!.exited
    await sleep(DOWN_MS)
    const second = await startProc('serve', { ...env, PORT: String(port) })
    procs.push(second)
    const readyAt = Date.now()
    assert.equal(second.base, base, 'restarted on the same address')
    await sleep(LOAD_AFTER_RESTART_MS)
    running = false
    await Promise.all(loops)

    // ---- every response and every failure
    const answered = recs.filter((r) => r.status !== undefined)
    const failed = recs.filter((r) => r.error !== undefined)
    const summary = `${recs.length} requests, ${answered.length} answered, ${failed.length} failed (${[...new Set(failed.map((f) => f.error))].join(', ')})`
    assert.deepEqual(
      answered.filter((r) => r.status! >= 500).map((r) => `${r.op} ${r.status} ${JSON.stringify(r.json)}`),
      [],
      `no 5xx; ${summary}`,
    )
    assert.deepEqual(
      answered
        .filter((r) => r.status !== (r.op.startsWith('post') ? 201 : 200))
        .map((r) => `${r.op} ${r.status} ${JSON.stringify(r.json)}`),
      [],
      `every answer is a success; ${summary}`,
    )
    assert.deepEqual(
      failed.filter((r) => !CONNECTION_ERRORS.has(r.error!)).map((r) => `${r.op}: ${r.error}`),
      [],
      `failures are connection errors; ${summary}`,
    )
    // In flight at the kill, or refused while down: nothing fails before the kill or after the restart.
    assert.deepEqual(
      failed.filter((r) => r.t1 < killAt || r.t0 > readyAt).map((r) => `${r.op} ${r.error} at +${r.t0 - killAt} ms`),
      [],
      summary,
    )
    assert.ok(failed.length > 0, `the outage was seen by the clients; ${summary}`)
    const okScans = answered.filter((r) => r.op === 'post-scan' && r.status === 201)
    const okTargets = answered.filter((r) => r.op === 'post-target' && r.status === 201)
    for (const [what, list] of [
      ['targets', okTargets],
      ['scans', okScans],
    ] as const) {
      assert.ok(
        list.some((r) => r.t1 < killAt),
        `${what} created before the kill; ${summary}`,
      )
      assert.ok(
        list.some((r) => r.t0 > readyAt),
        `${what} created after the restart; ${summary}`,
      )
    }

    // ---- every scan in the database ends (including any whose POST lost its answer)
    let open = -1
    for (const until = Date.now() + 20000; Date.now() < until; await sleep(100)) {
      open = Number((await q(`select count(*) as n from scans where status in ('waiting', 'running')`))[0].n)
      if (open === 0) break
    }
    assert.equal(open, 0, 'nothing stays waiting or running')

    // ---- acknowledged targets exist, in the database and through the API
    const ids = okTargets.map((r) => r.json.data.created_id as number)
    const dbTargets = new Map((await q('select id, name from targets where id = any($1)', [ids])).map((r) => [Number(r.id), r.name]))
    for (const r of okTargets) assert.equal(dbTargets.get(r.json.data.created_id), r.name, `target ${r.name} is in the database`)
    const listed = new Set<number>()
    for (let page = 1; ; page++) {
      const r = await call(base, key, 'get-targets', 'GET', `/api/v2/targets?limit=1000&page=${page}`)
      assert.equal(r.status, 200)
      for (const t of r.json.data) listed.add(t.id)
      if (r.json.data.length < 1000) break
    }
    assert.deepEqual(
      ids.filter((id) => !listed.has(id)),
      [],
      'every acknowledged target is listed by the API',
    )

    // ---- acknowledged scans ran once to the end; their findings are all readable
    const scanIds = okScans.map((r) => r.json.data.created_id as number)
    assert.equal(new Set(scanIds).size, scanIds.length)
    const rows = await q(
      `select s.id, s.status, s.attempts,
              (select count(*) from scan_logs l where l.scan_id = s.id and l.line like '%started on%') as starts,
              (select count(*) from findings f where f.scan_id = s.id) as findings
       from scans s where s.id = any($1)`,
      [scanIds],
    )
    assert.equal(rows.length, scanIds.length, 'every acknowledged scan is in the database')
    for (const r of rows) {
      assert.equal(r.status, 'finished', `scan ${r.id}`)
      assert.equal(Number(r.attempts), 1, `scan ${r.id} claimed ${r.attempts} times`)
      assert.equal(Number(r.starts), 1, `scan ${r.id} started ${r.starts} times`)
      assert.equal(Number(r.findings), FINDINGS_PER_SCAN, `scan ${r.id} findings in the database`)
    }
    const viaApi = new Map<number, number>()
    for (let i = 0; i < scanIds.length; i += CLIENTS) {
      await Promise.all(
        scanIds.slice(i, i + CLIENTS).map(async (id) => {
          const r = await call(base, key, 'get-findings', 'GET', `/api/v2/findings?task_id=${id}&limit=1000`)
          assert.equal(r.status, 200, JSON.stringify(r))
          viaApi.set(id, r.json.data.filter((f: any) => f.scan_id === id).length)
        }),
      )
    }
    const dbCount = new Map(rows.map((r) => [Number(r.id), Number(r.findings)]))
    assert.deepEqual(
      scanIds
        .filter((id) => viaApi.get(id) !== dbCount.get(id))
        .map((id) => `scan ${id}: API ${viaApi.get(id)}, database ${dbCount.get(id)}`),
      [],
      'findings via the API equal those in the database',
    )
    console.log(
      `api-restart: ${summary}; ${okTargets.length} targets and ${okScans.length} scans acknowledged; API down ${readyAt - killAt} ms`,
    )
  } finally {
    await Promise.all(procs.map((p) => stopProc(p, 'SIGTERM', 5000)))
    await admin.end()
    await schema.drop()
  }
})
