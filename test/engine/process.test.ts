// `ward all` as a real process on SQLite: SIGTERM mid-scan ends the running scan `aborted` and exits
// within 10 s, leaving waiting scans waiting; SIGKILL leaves a lease the next start-up reaps.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import SQLite from 'better-sqlite3'
import { startProc, stopProc, api, type WardProc } from '../helpers/processes.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

test('ward all: SIGTERM mid-scan, then SIGKILL and restart', { timeout: 58000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-proc-'))
  const file = path.join(dir, 'ward.db')
  const key = randomBytes(20).toString('hex')
  const env = {
    WARD_DATABASE_URL: `sqlite:${file}`,
    WARD_INITIAL_API_KEY: key,
    WARD_LEASE_MS: '1000',
    WARD_POLL_MS: '50',
    WARD_WORKER_CONCURRENCY: '1',
    WARD_RATE_LIMIT: 'off',
  }
  const procs: WardProc[] = []
  const db = () => new SQLite(file, { readonly: true })
  const row = (id: number) => {
    const d = db()
    try {
      return d.prepare('select status, status_message, lease_owner from scans where id = ?').get(id) as any
    } finally {
      d.close()
    }
  }
  const waitRow = async (id: number, pred: (r: any) => boolean, ms: number) => {
    const until = Date.now() + ms
    let r
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
    const scan = (base: string) => api(base, key, 'POST', '/api/v2/scans', { tool_id: 9001, target_id: target.json.data.created_id, tool_params: { steps: 300, step_ms: 100 } })

    await t.test('SIGTERM: the running scan ends aborted with a message, waiting scans stay waiting, exit within 10 s', async () => {
      const a = (await scan(p1.base!)).json.data.created_id
      await waitRow(a, (r) => r.status === 'running', 5000)
      const b = (await scan(p1.base!)).json.data.created_id
      assert.equal(row(b).status, 'waiting')
      const t0 = Date.now()
      p1.proc.kill('SIGTERM')
      const { code } = await p1.exited
      assert.ok(Date.now() - t0 < 10000, `exited after ${Date.now() - t0} ms`)
      assert.equal(code, 0)
      const ra = row(a)
      assert.equal(ra.status, 'aborted')
      assert.match(ra.status_message, /shut down/)
      assert.equal(row(b).status, 'waiting')
    })

    await t.test('SIGKILL leaves an expired lease that the next start-up ends aborted', async () => {
      // The waiting scan of the previous test is claimed as soon as Ward starts again.
      const p2 = await startProc('all', env)
      procs.push(p2)
      const d = db()
      const running = d.prepare(`select id from scans where status = 'running'`).all() as Array<{ id: number }>
      d.close()
      const id = running[0]?.id ?? (await scan(p2.base!)).json.data.created_id
      await waitRow(id, (r) => r.status === 'running', 5000)
      p2.proc.kill('SIGKILL')
      await p2.exited
      assert.equal(row(id).status, 'running', 'nobody is left to end it')
      await sleep(1100) // the lease (1 s) expires
      const p3 = await startProc('all', env)
      procs.push(p3)
      const r = await waitRow(id, (x) => x.status !== 'running', 3000)
      assert.equal(r.status, 'aborted')
      assert.match(r.status_message, /lease expired/)
      await stopProc(p3)
    })
  } finally {
    await Promise.all(procs.map((p) => stopProc(p, 'SIGTERM', 5000)))
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
