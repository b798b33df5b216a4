// `ward all` as a real process on SQLite: SIGTERM drains (a scan that ends within the grace period
// finishes; a longer one goes back to the queue, keeping its results) and exits in time, leaving
// waiting scans waiting; SIGKILL leaves a lease the next start-up recovers: the scan is queued again
// and resumes to `finished` without losing or repeating a finding.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import SQLite from 'better-sqlite3'
import { startProc, stopProc, api, type WardProc } from '../helpers/processes.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

test('ward all: SIGTERM mid-scan, then SIGKILL and restart', { timeout: 120000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-proc-'))
  const file = path.join(dir, 'ward.db')
  const key = randomBytes(20).toString('hex')
  const env = {
    WARD_DATABASE_URL: `sqlite:${file}`,
    WARD_INITIAL_API_KEY: key,
    WARD_LEASE_MS: '1000',
    WARD_POLL_MS: '50',
    WARD_WORKER_CONCURRENCY: '2',
    WARD_USER_MAX_RUNNING: '2',
    WARD_SHUTDOWN_GRACE_MS: '1500',
    WARD_RATE_LIMIT: 'off',
  }
  const procs: WardProc[] = []
  const db = () => new SQLite(file, { readonly: true })
  const row = (id: number) => {
    const d = db()
    try {
      return d.prepare('select status, status_message, lease_owner, attempts, count_low from scans where id = ?').get(id) as any
    } finally {
      d.close()
    }
  }
  const findingIds = (id: number) => {
    const d = db()
    try {
      return (d.prepare('select id from findings where scan_id = ? order by id').all(id) as Array<{ id: number }>).map((r) => r.id)
    } finally {
      d.close()
    }
  }
  const waitRow = async (id: number, pred: (r: any) => boolean, ms: number) => {
    const until = Date.now() + ms
    let r: ReturnType<typeof row> | undefined
    while (Date.now() < until) {
      r = row(id)
      if (pred(r)) return r
      await sleep(50)
    }
    throw new Error(`scan ${id}: condition not met in ${ms} ms; last ${JSON.stringify(r)}`)
  }
  try {
    const p1 = await startProc('all', env)
    procs.push(p1)
    const target = await api(p1.base!, key, 'POST', '/api/v2/targets', { name: '127.0.0.1' })
    assert.equal(target.status, 201, target.text)
    const scan = (base: string, steps = 300, stepMs = 100) =>
      api(base, key, 'POST', '/api/v2/scans', {
        tool_id: 9001,
        target_id: target.json.data.created_id,
        tool_params: { steps, step_ms: stepMs },
      })

    await t.test(
      'SIGTERM drains: a scan that ends within the grace period finishes, a longer one goes back to the queue with its findings, waiting scans stay waiting',
      async () => {
        const a = (await scan(p1.base!, 60, 100)).json.data.created_id
        const short = (await scan(p1.base!, 8, 100)).json.data.created_id
        await waitRow(a, (r) => r.status === 'running' && r.count_low >= 2, 5000)
        await waitRow(short, (r) => r.status === 'running', 5000)
        const b = (await scan(p1.base!)).json.data.created_id
        assert.equal(row(b).status, 'waiting')
        const t0 = Date.now()
        p1.proc.kill('SIGTERM')
        const { code } = await p1.exited
        assert.ok(Date.now() - t0 < 1500 + 10000, `exited after ${Date.now() - t0} ms`)
        assert.equal(code, 0)
        assert.equal(row(short).status, 'finished', 'the short scan ended within the grace period')
        const ra = row(a)
        assert.equal(ra.status, 'waiting', 'a restartable scan is handed back, not aborted')
        assert.match(ra.status_message, /shut down.*queued again to restart; \d+ findings found until then are kept/)
        assert.equal(ra.lease_owner, null)
        assert.equal(ra.attempts, 0, 'a drain does not count against the attempts')
        assert.equal(findingIds(a).length, ra.count_low)
        assert.equal(row(b).status, 'waiting')
      },
    )

    await t.test(
      'SIGKILL leaves an expired lease; the next start-up queues the scan again and it resumes to finished, keeping every finding once',
      async () => {
        // The scans handed back above are claimed as soon as Ward starts again; stop them.
        const p2 = await startProc('all', env)
        procs.push(p2)
        const d = db()
        for (const { id } of d.prepare(`select id from scans where status in ('running', 'waiting')`).all() as Array<{ id: number }>)
          await api(p2.base!, key, 'POST', `/api/v2/scans/${id}/stop`)
        d.close()
        const id = (await scan(p2.base!, 24, 100)).json.data.created_id
        await waitRow(id, (r) => r.status === 'running' && r.count_low >= 3, 8000)
        p2.proc.kill('SIGKILL')
        await p2.exited
        assert.equal(row(id).status, 'running', 'nobody is left to end it')
        // The tests running at the kill (usually one; none when it fell between two steps) must end interrupted.
        const d1 = db()
        const wasRunning = (
          d1.prepare(`select id from tests where scan_id = ? and status = 'running'`).all(id) as Array<{ id: number }>
        ).map((t) => t.id)
        d1.close()
        const kept = findingIds(id)
        assert.ok(kept.length >= 3)
        await sleep(1100) // the lease (1 s) expires
        const p3 = await startProc('all', env)
        procs.push(p3)
        const again = await waitRow(id, (x) => x.attempts === 2, 3000)
        assert.notEqual(again.status, 'aborted')
        const r = await waitRow(id, (x) => x.status !== 'running' && x.status !== 'waiting', 15000)
        assert.equal(r.status, 'finished', r.status_message)
        const all = findingIds(id)
        assert.equal(all.length, 12, 'each of the 12 findings once')
        for (const f of kept) assert.ok(all.includes(f), `finding ${f} kept`)
        const d2 = db()
        const logs = (d2.prepare('select line from scan_logs where scan_id = ? order by id').all(id) as Array<{ line: string }>).map(
          (l) => l.line,
        )
        const tests = d2.prepare('select id, status, message from tests where scan_id = ?').all(id) as Array<{
          id: number
          status: string
          message: string | null
        }>
        d2.close()
        assert.ok(
          logs.some((l) => /^Attempt 2 of 3: the tool starts again/.test(l)),
          logs.join('\n'),
        )
        for (const t of tests.filter((x) => wasRunning.includes(x.id)))
          assert.ok(
            t.status === 'error' && /interrupted: the worker running the scan stopped unexpectedly/.test(t.message ?? ''),
            JSON.stringify(t),
          )
        assert.ok(tests.every((x) => x.status !== 'running'))
        await stopProc(p3)
      },
    )
  } finally {
    await Promise.all(procs.map((p) => stopProc(p, 'SIGTERM', 5000)))
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
