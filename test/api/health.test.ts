import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import { startWard, waitForScan, isTerminal } from '../helpers/ward.js'
import { openDatabase } from '../../src/store/db.js'
import { buildApp } from '../../src/api/app.js'
import { createToolCatalogue } from '../../src/tools/registry.js'

test('/healthz and /readyz answer without auth; readyz is 503 with a pending migration', async () => {
  const w = await startWard({ worker: false })
  try {
    const h = await w.req('GET', '/healthz', { key: null })
    assert.equal(h.statusCode, 200)
    assert.deepEqual(h.json(), { status: 'ok' })
    const r = await w.req('GET', '/readyz', { key: null })
    assert.equal(r.statusCode, 200, r.body)
    assert.equal(r.json().status, 'ready')
    // Forget the last applied migration: the schema is no longer current.
    const last = await w.h.db
      .selectFrom('kysely_migration' as any)
      .select('name' as any)
      .orderBy('name' as any, 'desc')
      .executeTakeFirstOrThrow()
    await w.h.db
      .deleteFrom('kysely_migration' as any)
      .where('name' as any, '=', (last as any).name)
      .execute()
    const p = await w.req('GET', '/readyz', { key: null })
    assert.equal(p.statusCode, 503)
    assert.match(p.json().reason, new RegExp(`pending migrations: .*${(last as any).name}`))
    assert.equal((await w.req('GET', '/api/v2/targets', { key: null })).statusCode, 401, 'the API itself still needs a key')
  } finally {
    await w.close()
  }
})

test('/readyz is 503 when the database does not answer', async () => {
  // A listener of our own that drops every connection: the database is unreachable.
  const srv = net.createServer((s) => s.destroy())
  srv.listen(0, '127.0.0.1')
  await once(srv, 'listening')
  const port = (srv.address() as net.AddressInfo).port
  const w = await startWard({ worker: false })
  const h = await openDatabase(
    { kind: 'postgres', url: `postgres://ward@127.0.0.1:${port}/none`, poolMax: 1 },
    { migrate: false, notify: false },
  )
  const app = await buildApp(
    {
      db: h.db,
      dbKind: 'postgres',
      config: w.config,
      blocklist: w.app.ward.blocklist,
      tools: createToolCatalogue({ diagnostic: w.config.enableDiagnosticTool }),
    },
    { logger: false },
  )
  try {
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200)
    const r = await app.inject({ method: 'GET', url: '/readyz' })
    assert.equal(r.statusCode, 503)
    assert.match(r.json().reason, /database unreachable/)
  } finally {
    await app.close()
    await h.close()
    await w.close()
    srv.close()
  }
})

test('/metrics: requests by route and status, scans by state, queue depth, claim latency, tool durations', async () => {
  const w = await startWard()
  try {
    const t = await w.req('POST', '/api/v2/targets', { form: { name: '127.0.0.1' } })
    assert.equal(t.statusCode, 201)
    const r = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 9001, target_id: t.json().data.created_id, tool_params: { steps: 1, step_ms: 10 } },
    })
    assert.equal(r.statusCode, 201, r.body)
    await waitForScan(w, r.json().data.created_id, isTerminal)
    await w.req('GET', '/api/v2/nope')
    // A second scan stays waiting: the worker is stopped first.
    await w.worker!.stop()
    const r2 = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 9001, target_id: t.json().data.created_id, tool_params: { steps: 1 } },
    })
    assert.equal(r2.statusCode, 201)

    const m = await w.req('GET', '/metrics', { key: null })
    assert.equal(m.statusCode, 200)
    assert.match(String(m.headers['content-type']), /^text\/plain/)
    const body = m.body
    const value = (re: RegExp) => {
      const hit = body.split('\n').find((l) => re.test(l))
      assert.ok(hit, `no metric line matches ${re}\n${body.slice(0, 3000)}`)
      return Number(hit.split(' ').pop())
    }
    assert.equal(value(/^ward_http_requests_total\{method="POST",route="\/api\/v2\/scans",status="201"\}/), 2)
    assert.equal(value(/^ward_http_requests_total\{method="POST",route="\/api\/v2\/targets",status="201"\}/), 1)
    assert.ok(value(/^ward_http_requests_total\{method="GET",route="\(unmatched\)",status="404"\}/) >= 1)
    assert.equal(value(/^ward_scans\{state="finished"\}/), 1)
    assert.equal(value(/^ward_scans\{state="waiting"\}/), 1)
    assert.equal(value(/^ward_scans\{state="running"\}/), 0)
    assert.equal(value(/^ward_queue_depth /), 1)
    // Engine histograms are per process (other tests in this file may have added to them).
    assert.ok(value(/^ward_scan_claim_latency_seconds_count /) >= 1)
    assert.ok(value(/^ward_tool_duration_seconds_count\{tool_id="9001",state="finished"\}/) >= 1)
  } finally {
    await w.close()
  }
})

test('database rate-limit store: instances over one database share windows, which reset', async () => {
  const { dbRateLimitStore } = await import('../../src/store/rate-limits.js')
  const w = await startWard({ worker: false })
  try {
    // Two stores = two API processes on the same database.
    const A = dbRateLimitStore(w.h.db)
    const B = dbRateLimitStore(w.h.db)
    const a = new A()
    const b = new B()
    const incr = (s: InstanceType<typeof A>, key: string, win: number) =>
      new Promise<{ current: number; ttl: number }>((res, rej) => s.incr(key, (e, r) => (e ? rej(e) : res(r!)), win))
    assert.equal((await incr(a, 'k1', 60000)).current, 1)
    assert.equal((await incr(b, 'k1', 60000)).current, 2)
    const third = await incr(a, 'k1', 60000)
    assert.equal(third.current, 3)
    assert.ok(third.ttl > 55000 && third.ttl <= 60000, String(third.ttl))
    assert.equal((await incr(b, 'k2', 60000)).current, 1, 'keys are separate')
    // Concurrent increments are all counted.
    await Promise.all(Array.from({ length: 20 }, (_, i) => incr(i % 2 ? a : b, 'k3', 60000)))
    assert.equal((await incr(a, 'k3', 60000)).current, 21)
    // A window that ended starts over.
    await incr(a, 'short', 50)
    await new Promise((r) => setTimeout(r, 80))
    assert.equal((await incr(b, 'short', 50)).current, 1)
  } finally {
    await w.close()
  }
})
