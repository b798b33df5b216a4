// Schedules through the API and the scheduler with an injected clock: next_run_at, skip while the
// previous scan still runs (recorded), missed slots fire once, two schedulers fire a slot once.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { pino } from 'pino'
import { openDatabase, type DbHandle } from '../../src/store/db.js'
import { startScheduler } from '../../src/engine/scheduler.js'
import { startWard, TEST_BACKEND, type TestWard } from '../helpers/ward.js'

const log = pino({ level: 'silent' })
let w: TestWard
let targetId: number
const MIN = 60_000

before(async () => {
  w = await startWard({ worker: false })
  targetId = (await w.req('POST', '/api/v2/targets', { form: { name: '127.0.26.1' } })).json().data.created_id
})
after(() => w.close())

async function create(body: Record<string, unknown>, key?: string) {
  const r = await w.req('POST', '/api/v2/schedules', {
    body: { tool_id: 9001, target_id: targetId, tool_params: { steps: 1, step_ms: 1 }, ...body },
    key,
  })
  assert.equal(r.statusCode, 201, r.body)
  return r.json().data.created_id as number
}
const read = async (id: number) => (await w.req('GET', `/api/v2/schedules/${id}`)).json().data
const scheduler = (now: () => Date, db = w.h.db, workerId = 'test-scheduler') =>
  startScheduler({ db, dbKind: w.h.kind, log, workerId, tickMs: 60_000, now }, false)
const scansOf = (id: number) => w.h.db.selectFrom('scans').select(['id', 'status']).where('schedule_id', '=', id).orderBy('id').execute()

describe(`schedules API (${TEST_BACKEND})`, () => {
  test('create with cron and timezone: next_run_at is the next slot in that zone; read, list, patch, pause, resume, delete', async () => {
    const id = await create({ name: 'nightly', cron: '30 2 * * *', timezone: 'Europe/Berlin' })
    const s = await read(id)
    assert.equal(s.name, 'nightly')
    assert.equal(s.cron, '30 2 * * *')
    assert.equal(s.timezone, 'Europe/Berlin')
    assert.equal(s.interval_minutes, null)
    assert.equal(s.paused, false)
    assert.equal(s.target_id, targetId)
    assert.deepEqual(
      { steps: s.tool_params.steps, step_ms: s.tool_params.step_ms },
      { steps: 1, step_ms: 1 },
      'tool_params as resolved (defaults filled in)',
    )
    // 02:30 in Berlin is 01:30 UTC in winter, 00:30 UTC in summer.
    assert.match(s.next_run_at, /^\d{4}-\d\d-\d\dT0[01]:30:00Z$/)
    const next = Date.parse(s.next_run_at)
    assert.ok(next > Date.now() && next <= Date.now() + 24 * 60 * MIN)
    assert.deepEqual(s.last_scans, [])

    assert.ok((await w.req('GET', '/api/v2/schedules')).json().data.some((x: any) => x.id === id))

    const p = await w.req('PATCH', `/api/v2/schedules/${id}`, { body: { interval_minutes: 15, name: 'quarterly hour' } })
    assert.equal(p.statusCode, 200, p.body)
    assert.equal(p.json().data.cron, null)
    assert.equal(p.json().data.interval_minutes, 15)
    const n2 = Date.parse(p.json().data.next_run_at)
    assert.ok(Math.abs(n2 - (Date.now() + 15 * MIN)) < 5000, p.json().data.next_run_at)

    const paused = await w.req('POST', `/api/v2/schedules/${id}/pause`)
    assert.equal(paused.statusCode, 200)
    assert.equal(paused.json().data.paused, true)
    assert.equal(paused.json().data.next_run_at, null)
    const resumed = await w.req('POST', `/api/v2/schedules/${id}/resume`)
    assert.equal(resumed.json().data.paused, false)
    assert.ok(resumed.json().data.next_run_at)

    assert.equal((await w.req('DELETE', `/api/v2/schedules/${id}`)).statusCode, 204)
    assert.equal((await w.req('GET', `/api/v2/schedules/${id}`)).statusCode, 404)
  })

  test('a bad cron expression or time zone is a 400 naming it; nothing is created', async () => {
    const before = await w.h.db
      .selectFrom('schedules')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    for (const [body, named] of [
      [{ cron: '61 * * * *' }, '61 * * * *'],
      [{ cron: 'every night' }, 'every night'],
      [{ cron: '* * * * * *' }, '* * * * * *'],
      [{ cron: '0 3 * * *', timezone: 'Mars/Olympus' }, 'Mars/Olympus'],
      [{ cron: '0 3 * * *', interval_minutes: 5 }, 'either cron or interval_minutes'],
      [{}, 'cron'],
    ] as const) {
      const r = await w.req('POST', '/api/v2/schedules', { body: { tool_id: 9001, target_id: targetId, ...body } })
      assert.equal(r.statusCode, 400, JSON.stringify(body))
      assert.equal(r.json().status, 400)
      assert.ok(r.json().message.includes(named), r.json().message)
    }
    const patch = await w.req('PATCH', `/api/v2/schedules/${await create({ interval_minutes: 60 })}`, { body: { cron: '0 0 31 2 *' } })
    assert.equal(patch.statusCode, 400)
    assert.ok(patch.json().message.includes('0 0 31 2 *'), patch.json().message)
    const after = await w.h.db
      .selectFrom('schedules')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    assert.equal(Number(after.n), Number(before.n) + 1)
  })

  test("another user's schedule answers like a missing one", async () => {
    const id = await create({ interval_minutes: 60 })
    const bob = await w.user('bob-schedules')
    for (const [m, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['POST', '/pause'],
      ['POST', '/resume'],
      ['POST', '/run'],
      ['DELETE', ''],
    ] as const) {
      const opts = m === 'PATCH' ? { body: { name: 'x' } } : {}
      const foreign = await w.req(m, `/api/v2/schedules/${id}${path}`, { key: bob.key, ...opts })
      const missing = await w.req(m, `/api/v2/schedules/999999${path}`, { key: bob.key, ...opts })
      assert.equal(foreign.statusCode, 404, `${m} ${path}`)
      assert.deepEqual(foreign.json(), missing.json())
    }
    assert.deepEqual((await w.req('GET', '/api/v2/schedules', { key: bob.key })).json().data, [])
    assert.equal((await read(id)).name, '')
  })
})

describe(`scheduler with an injected clock (${TEST_BACKEND})`, () => {
  test('fires once per slot, skips (and records) while the previous scan waits, fires missed slots once', async () => {
    const id = await create({ interval_minutes: 60 })
    const first = Date.parse((await read(id)).next_run_at)
    let now = new Date(first - MIN)
    const sch = scheduler(() => now)
    const s = { tick: async () => (await sch.tick()).filter((r) => r.scheduleId === id), stop: () => sch.stop() }
    assert.deepEqual(await s.tick(), [], 'not due yet')

    now = new Date(first + 1000)
    const fired = await s.tick()
    assert.equal(fired.length, 1)
    assert.equal(fired[0]!.outcome, 'queued')
    assert.deepEqual(await s.tick(), [], 'the slot fired already')
    const scans = await scansOf(id)
    assert.equal(scans.length, 1)
    assert.equal(scans[0]!.status, 'waiting')
    let view = await read(id)
    assert.equal(Date.parse(view.next_run_at), first + 60 * MIN)
    assert.deepEqual(
      view.last_scans.map((x: any) => x.id),
      [scans[0]!.id],
    )

    // The next slot comes while the first scan still waits: skipped, and the run says so.
    now = new Date(first + 60 * MIN + 1000)
    const skipped = await s.tick()
    assert.equal(skipped.length, 1)
    assert.equal(skipped[0]!.outcome, 'skipped')
    assert.match(skipped[0]!.message!, /still waiting or running/)
    assert.equal((await scansOf(id)).length, 1)
    view = await read(id)
    assert.equal(view.last_runs[0].outcome, 'skipped')
    assert.match(view.last_runs[0].message, /still waiting or running/)

    // Ward "down" for five slots: the previous scan ended meanwhile; one run, not five.
    assert.equal((await w.req('POST', `/api/v2/scans/${scans[0]!.id}/stop`)).statusCode, 204)
    now = new Date(first + 6 * 60 * MIN + 30 * MIN)
    const missed = await s.tick()
    assert.equal(missed.length, 1)
    assert.equal(missed[0]!.outcome, 'queued')
    assert.equal((await scansOf(id)).length, 2)
    assert.equal(Date.parse((await read(id)).next_run_at), first + 7 * 60 * MIN, 'the rhythm is kept: next slot after now')
    await s.stop()
  })

  test('run now queues a scan at once and leaves the rhythm alone; a paused schedule does not fire', async () => {
    const id = await create({ interval_minutes: 30 })
    const next = (await read(id)).next_run_at
    const r = await w.req('POST', `/api/v2/schedules/${id}/run`)
    assert.equal(r.statusCode, 201, r.body)
    assert.equal(r.json().data.created_ids.length, 1)
    assert.equal((await read(id)).next_run_at, next)
    const again = await w.req('POST', `/api/v2/schedules/${id}/run`)
    assert.equal(again.json().data.skipped, true)
    assert.deepEqual(again.json().data.created_ids, [])

    await w.req('POST', `/api/v2/schedules/${id}/pause`)
    const s = scheduler(() => new Date(Date.parse(next) + 10 * MIN))
    const fired = await s.tick()
    assert.ok(!fired.some((f) => f.scheduleId === id))
    await s.stop()
  })

  test('every target of a type in the workspace: one scan per target', async () => {
    const ws = (await w.req('POST', '/api/v2/workspaces', { body: { name: 'typed' } })).json().data.created_id
    for (const n of ['a.typed.example', 'b.typed.example', '127.0.26.9'])
      assert.equal((await w.req('POST', '/api/v2/targets', { form: { name: n, workspace_id: String(ws) } })).statusCode, 201)
    const r = await w.req('POST', '/api/v2/schedules', {
      body: { tool_id: 9001, target_type: 'hostname', workspace_id: ws, interval_minutes: 60 },
    })
    assert.equal(r.statusCode, 201, r.body)
    const run = await w.req('POST', `/api/v2/schedules/${r.json().data.created_id}/run`)
    assert.equal(run.json().data.created_ids.length, 2)
  })

  test('two schedulers on their own connections, ticking together on many due schedules: each slot fires once', async () => {
    const ids: number[] = []
    for (let i = 0; i < 12; i++) ids.push(await create({ interval_minutes: 5 }))
    const due = new Date(Math.max(...(await Promise.all(ids.map(read))).map((s) => Date.parse(s.next_run_at))) + 1000)
    const other: DbHandle = await openDatabase(w.config.db, { notify: false, secrets: w.config })
    try {
      const a = scheduler(() => due, w.h.db, 'worker-a')
      const b = scheduler(() => due, other.db, 'worker-b')
      const [ra, rb] = await Promise.all([a.tick(), b.tick()])
      const fired = [...ra, ...rb].filter((r) => ids.includes(r.scheduleId))
      assert.equal(fired.length, ids.length, 'every due schedule fired')
      assert.equal(new Set(fired.map((r) => r.scheduleId)).size, ids.length, 'none twice')
      for (const id of ids) assert.equal((await scansOf(id)).length, 1)
      await Promise.all([a.stop(), b.stop()])
    } finally {
      await other.close()
    }
  })
})
