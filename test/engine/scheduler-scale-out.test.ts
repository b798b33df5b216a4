// The scheduler on PostgreSQL with real processes: a worker killed while it holds a schedule's
// claim leaves it due, and two `ward worker` processes then fire every due slot exactly once.
// Runs once per `npm test` (it picks PostgreSQL itself). ward-test: single-run
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPgSchema, TEST_PG_URL, pgUnreachable } from '../helpers/ward.js'
import { startProc, stopProc, type WardProc } from '../helpers/processes.js'
import { loadConfig } from '../../src/config/config.js'
import { openDatabase } from '../../src/store/db.js'
import { createUser } from '../../src/store/accounts.js'
import { insertTarget } from '../../src/store/targets.js'
import { insertSchedule } from '../../src/store/schedules.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const SCHEDULES = 20
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

test('scheduler on PostgreSQL: a worker killed holding a claim, then two workers; every due slot fires exactly once', {
  timeout: 90000,
}, async () => {
  const why = await pgUnreachable()
  if (why) {
    console.log(
      `scheduler scale-out test needs PostgreSQL at ${TEST_PG_URL.replace(/\/\/[^@/]*@/, '//***@')}: not reachable (${why}); nothing else asserted`,
    )
    assert.ok(why.length > 0)
    return
  }
  const schema = await createPgSchema()
  const cfg = loadConfig({ WARD_DATABASE_URL: schema.url, LOG_LEVEL: 'silent' })
  const h = await openDatabase(cfg.db, { notify: false })
  const procs: WardProc[] = []
  try {
    const u = await createUser(h.db, { name: 'alice', maxTargets: 100 })
    const targetId = await insertTarget(h.db, {
      workspaceId: u.workspaceId,
      userId: u.userId,
      name: '127.0.26.40',
      nameKey: '127.0.26.40',
      type: 'ip_address',
      description: '',
    })
    // Due an hour ago: slots missed "while Ward was down", each to fire once.
    const due = new Date(Date.now() - 3600_000).toISOString()
    const ids: number[] = []
    for (let i = 0; i < SCHEDULES; i++)
      ids.push(
        await insertSchedule(h.db, {
          workspace_id: u.workspaceId,
          user_id: u.userId,
          name: `s${i}`,
          target_id: targetId,
          target_type: null,
          tool_id: 9001,
          tool_params: JSON.stringify({ steps: 1, step_ms: 1, ignore_abort: false, fail: 'none' }),
          max_scan_time: 5,
          vpn_profile_uuid: null,
          report_callback: null,
          cron: null,
          timezone: 'UTC',
          interval_minutes: 15,
          paused: 0,
          next_run_at: due,
        }),
      )

    // 1. A scheduler that claims one schedule and is killed while holding it.
    const holder = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/helpers/scheduler-holder.ts')], {
      cwd: ROOT,
      env: { ...process.env, WARD_DATABASE_URL: schema.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    holder.stdout.on('data', (d) => (out += d))
    holder.stderr.on('data', (d) => (out += d))
    const exited = new Promise((r) => holder.on('exit', r))
    const until = Date.now() + 30000
    while (!/held \d+/.test(out)) {
      assert.ok(Date.now() < until && holder.exitCode === null, `the holder did not claim a schedule: ${out}`)
      await sleep(50)
    }
    const heldId = Number(/held (\d+)/.exec(out)![1])
    assert.ok(ids.includes(heldId))
    // While it holds the claim, the schedule's row is locked: SKIP LOCKED passes over it.
    const locked = await h.db.selectFrom('schedules').select('next_run_at').where('id', '=', heldId).executeTakeFirstOrThrow()
    assert.equal(locked.next_run_at, due, 'the claim is not committed')
    holder.kill('SIGKILL')
    await exited
    assert.equal(
      (await h.db.selectFrom('schedule_runs').select('id').where('schedule_id', '=', heldId).execute()).length,
      0,
      'the killed claim left no run',
    )

    // 2. Two real workers, scheduler ticking every 50 ms.
    const env = {
      WARD_DATABASE_URL: schema.url,
      WARD_SCHEDULER_MS: '50',
      WARD_POLL_MS: '200',
      WARD_USER_MAX_RUNNING: '100',
      WARD_DB_POOL_MAX: '4',
      WARD_INITIAL_API_KEY: 'x'.repeat(40),
    }
    const [w1, w2] = await Promise.all([startProc('worker', env), startProc('worker', env)])
    procs.push(w1!, w2!)
    const done = Date.now() + 30000
    for (;;) {
      const n = Number(
        (
          await h.db
            .selectFrom('schedule_runs')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
      if (n >= SCHEDULES) break
      assert.ok(Date.now() < done, `only ${n} of ${SCHEDULES} schedules fired`)
      await sleep(100)
    }
    await sleep(1000) // time for a second firing, if there were one
    const runs = await h.db.selectFrom('schedule_runs').selectAll().execute()
    assert.equal(runs.length, SCHEDULES, 'one run per schedule: the missed slot fired once')
    assert.deepEqual(
      [...new Set(runs.map((r) => r.schedule_id))].sort((a, b) => a - b),
      ids,
    )
    assert.ok(runs.every((r) => r.outcome === 'queued'))
    const scans = await h.db.selectFrom('scans').select(['id', 'schedule_id']).execute()
    assert.equal(scans.length, SCHEDULES, 'one scan per schedule')
    assert.equal(new Set(scans.map((s) => s.schedule_id)).size, SCHEDULES)
    assert.ok(
      scans.some((s) => s.schedule_id === heldId),
      'the schedule whose claim was killed fired',
    )
    const next = await h.db.selectFrom('schedules').select('next_run_at').execute()
    assert.ok(
      next.every((s) => Date.parse(s.next_run_at) > Date.now()),
      'every next_run_at moved past now',
    )
    console.log(
      `scheduler scale-out: ${SCHEDULES} due schedules, fired by workers ${JSON.stringify(Object.fromEntries([...new Set(runs.map((r) => r.worker_id))].map((wid) => [wid, runs.filter((r) => r.worker_id === wid).length])))}`,
    )
  } finally {
    await Promise.all(procs.map((p) => stopProc(p)))
    await h.close()
    await schema.drop()
  }
})
