// The fault test's bed and run (test/engine/crash-fault*.test.ts, one file per backend so each stays
// within the runner's per-file limit): `kill -9` of a `ward worker` mid-scan, 10 times in a row
// (WARD_CRASH_KILLS=20 for the figures in docs/reliability.md),
// while diagnostic scans keep running (queued through one `ward serve` that stays up). After every
// kill: each finding a scan's log claims is in the database. At the end: no scan stuck, no finding
// lost or repeated, every (restartable) scan `finished`.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { createPgSchema } from './ward.js'
import { startProc, stopProc, api, type WardProc } from './processes.js'

// Ten in `npm test` (the suite's time is CPU-bound on CI's two cores); each kill costs a worker start-up.
export const KILLS = Number(process.env.WARD_CRASH_KILLS ?? 10)
const ACTIVE = 6
const STEPS = 16
const LEASE_MS = 1000
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

type Query = <T = any>(text: string, params?: unknown[]) => Promise<T[]>

interface Bed {
  url: string
  q: Query
  close(): Promise<void>
}

export async function sqliteBed(): Promise<Bed> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-fault-'))
  const file = path.join(dir, 'ward.db')
  return {
    url: `sqlite:${file}`,
    async q(text, params = []) {
      if (!fs.existsSync(file)) return []
      const d = new SQLite(file, { readonly: true })
      try {
        return d.prepare(text.replace(/\$\d+/g, '?')).all(...params) as any[]
      } finally {
        d.close()
      }
    },
    async close() {
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

export async function postgresBed(): Promise<Bed> {
  const schema = await createPgSchema()
  const c = new pg.Client({ connectionString: schema.url })
  await c.connect()
  return {
    url: schema.url,
    q: async (text, params = []) => (await c.query(text, params)).rows,
    async close() {
      await c.end()
      await schema.drop()
    },
  }
}

export async function faultRun(bed: Bed) {
  const key = randomBytes(20).toString('hex')
  const env = {
    WARD_DATABASE_URL: bed.url,
    WARD_INITIAL_API_KEY: key,
    WARD_LEASE_MS: String(LEASE_MS),
    WARD_POLL_MS: '50',
    WARD_WORKER_CONCURRENCY: String(ACTIVE),
    WARD_USER_MAX_RUNNING: '1000',
    WARD_SCAN_MAX_ATTEMPTS: '1000',
    WARD_RATE_LIMIT: 'off',
    WARD_DB_POOL_MAX: '4',
    LOG_LEVEL: 'warn',
  }
  const figures = {
    kills: 0,
    killsMidScan: 0,
    scans: 0,
    resumed: 0,
    maxAttempts: 0,
    findingsKeptAtKills: 0,
    findingsAtEnd: 0,
    seconds: 0,
    startupMs: 0,
  }
  const started = Date.now()
  const seen = new Set<number>()
  const stepsOf = new Map<number, number>()
  const procs: WardProc[] = []
  try {
    const apiProc = await startProc('serve', env)
    procs.push(apiProc)
    const base = apiProc.base!
    const t = await api(base, key, 'POST', '/api/v2/targets', { name: '127.0.21.2' })
    assert.equal(t.status, 201, t.text)
    const targetId = t.json.data.created_id
    for (let i = 0; i <= KILLS; i++) {
      const t0 = Date.now()
      const p = await startProc('worker', env)
      figures.startupMs = Math.max(figures.startupMs, Date.now() - t0)
      procs.push(p)
      if (i === KILLS) {
        // The last start-up: everything left runs to its end.
        const until = Date.now() + 60000
        while (
          Date.now() < until &&
          Number((await bed.q(`select count(*) as n from scans where status in ('waiting', 'running')`))[0].n) > 0
        )
          await sleep(100)
        await stopProc(p)
        break
      }
      const active = Number((await bed.q(`select count(*) as n from scans where status in ('waiting', 'running')`))[0].n)
      for (let k = active; k < ACTIVE; k++) {
        // Short scans may end between two kills; long ones are cut short every time until the last start-up.
        const steps = figures.scans % 2 ? 6 : STEPS
        const s = await api(base, key, 'POST', '/api/v2/scans', { tool_id: 9001, target_id: targetId, tool_params: { steps, step_ms: 80 } })
        assert.equal(s.status, 201, s.text)
        stepsOf.set(s.json.data.created_id, steps)
        figures.scans++
      }
      await sleep(200 + Math.floor(Math.random() * 700))
      const running = Number((await bed.q(`select count(*) as n from scans where status = 'running'`))[0].n)
      p.proc.kill('SIGKILL')
      await p.exited
      figures.kills++
      if (running) figures.killsMidScan++

      // Every finding a log claims is stored (findings are written before their log line).
      const claimed = await bed.q<{ scan_id: number; line: string }>(`select scan_id, line from scan_logs where line like 'finding at %'`)
      const stored = new Set(
        (await bed.q<{ scan_id: number; location: string }>('select scan_id, location from findings')).map(
          (f) => `${f.scan_id} ${f.location}`,
        ),
      )
      for (const c of claimed)
        assert.ok(
          stored.has(`${c.scan_id} ${c.line.slice('finding at '.length)}`),
          `scan ${c.scan_id}: "${c.line}" is in the log but not among its findings (kill ${i + 1})`,
        )
      const ids = (await bed.q<{ id: number }>('select id from findings')).map((f) => f.id)
      figures.findingsKeptAtKills += ids.filter((id) => !seen.has(id)).length
      for (const id of ids) seen.add(id)
      // The next start-up (longer than a lease) recovers the dead process's scans as soon as it runs.
    }
    const scans = await bed.q<{ id: number; status: string; status_message: string | null; attempts: number }>(
      'select id, status, status_message, attempts from scans order by id',
    )
    const stuck = scans.filter((s) => s.status === 'running' || s.status === 'waiting')
    assert.deepEqual(stuck, [], 'no scan is stuck')
    for (const s of scans) assert.equal(s.status, 'finished', `scan ${s.id}: ${s.status} (${s.status_message})`)
    const findings = await bed.q<{ id: number; scan_id: number; location: string }>('select id, scan_id, location from findings')
    const now = new Set(findings.map((f) => f.id))
    const lost = [...seen].filter((id) => !now.has(id))
    assert.deepEqual(lost, [], 'no finding kept at a kill is lost')
    for (const s of scans) {
      const locs = findings
        .filter((f) => f.scan_id === s.id)
        .map((f) => f.location)
        .sort()
      assert.deepEqual(
        locs,
        Array.from({ length: stepsOf.get(s.id)! / 2 }, (_, k) => `step-${2 * k + 1}`).sort(),
        `scan ${s.id}: each finding once`,
      )
    }
    const tests = await bed.q<{ n: number }>(`select count(*) as n from tests where status = 'running'`)
    assert.equal(Number(tests[0]!.n), 0, 'no test is left running')
    figures.resumed = scans.filter((s) => s.attempts > 1).length
    figures.maxAttempts = Math.max(...scans.map((s) => s.attempts))
    figures.findingsAtEnd = findings.length
    figures.seconds = Math.round((Date.now() - started) / 1000)
    assert.ok(figures.killsMidScan >= KILLS - 2, `${figures.killsMidScan} of ${KILLS} kills hit running scans`)
    assert.ok(figures.resumed >= 5, `${figures.resumed} scans resumed`)
    return figures
  } finally {
    await Promise.all(procs.map((p) => stopProc(p, 'SIGKILL', 1000)))
  }
}
