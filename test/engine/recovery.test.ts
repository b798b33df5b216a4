// Recovery of scans whose worker died (store/scans.ts recoverExpiredLeases), on each backend: queued
// again while attempts remain, then `aborted`; a tool that cannot restart, or a stop request, ends the
// scan at once. Every status message says how many findings were kept.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pino } from 'pino'
import { startWard, waitForScan, isTerminal } from '../helpers/ward.js'
import { startWorkerRole } from '../../src/cli/roles.js'
import { getScanById, recoverExpiredLeases } from '../../src/store/scans.js'

test('expired leases: re-queued while attempts remain, then aborted with an honest message; non-restartable and stop-requested scans end', async () => {
  const w = await startWard({ worker: false })
  try {
    const ids: number[] = []
    for (let i = 0; i < 4; i++) {
      const r = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: '127.0.21.3', tool_params: { steps: 1 } } })
      assert.equal(r.statusCode, 201, r.body)
      ids.push(r.json().data.created_id)
    }
    const [again, last, fixed, stopped] = ids as [number, number, number, number]
    const past = new Date(Date.now() - 60000).toISOString()
    const run = (id: number, attempts: number, extra: Record<string, unknown> = {}) =>
      w.h.db
        .updateTable('scans')
        .set({ status: 'running', lease_owner: 'dead-worker', lease_expires_at: past, start_time: past, attempts, count_low: 2, ...extra })
        .where('id', '=', id)
        .execute()
    await run(again, 1)
    await run(last, 3)
    await run(fixed, 1, { tool_id: 70 })
    await run(stopped, 1, { stop_requested: 1 })
    const policy = { restartable: (toolId: number) => toolId === 9001, maxAttempts: 3 }
    // The worker's own scans are never its to recover.
    assert.deepEqual(await recoverExpiredLeases(w.h.db, policy, 'dead-worker'), { requeued: [], ended: [] })
    const r = await recoverExpiredLeases(w.h.db, policy, 'live-worker')
    assert.deepEqual(r.requeued, [again])
    assert.deepEqual(
      r.ended.sort((a, b) => a - b),
      [last, fixed, stopped].sort((a, b) => a - b),
    )
    const row = async (id: number) => (await getScanById(w.h.db, id))!
    const a = await row(again)
    assert.deepEqual([a.status, a.lease_owner, a.end_time], ['waiting', null, null])
    assert.match(a.status_message!, /attempt 1 of 3; queued again to restart; 2 findings found until then are kept$/)
    const l = await row(last)
    assert.equal(l.status, 'aborted')
    assert.match(l.status_message!, /attempt 3 of 3, the last one allowed; 2 findings found until then are kept$/)
    const f = await row(fixed)
    assert.equal(f.status, 'aborted')
    assert.match(f.status_message!, /cannot be restarted; 2 findings found until then are kept$/)
    const s = await row(stopped)
    assert.equal(s.status, 'stopped')
    // Recovery is done once: a second pass finds nothing.
    assert.equal((await recoverExpiredLeases(w.h.db, policy)).requeued.length, 0)
  } finally {
    await w.close()
  }
})

test('a scan queued again keeps its first start time and counts max_scan_time from it', async () => {
  const w = await startWard({ worker: false, env: { WARD_MINUTE_MS: '1000' } })
  let worker: Awaited<ReturnType<typeof startWorkerRole>> | null = null
  try {
    const r = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 9001, target_name: '127.0.21.4', tool_params: { steps: 1000, step_ms: 50 }, max_scan_time: 30 },
    })
    const id = r.json().data.created_id as number
    // As left by a recovery: waiting again after a first attempt that started 60 s (60 "minutes") ago.
    const first = new Date(Date.now() - 60000).toISOString().slice(0, 19) + 'Z'
    await w.h.db.updateTable('scans').set({ start_time: first, attempts: 1 }).where('id', '=', id).execute()
    const t0 = Date.now()
    worker = await startWorkerRole({ db: w.h.db, dbKind: w.h.kind, config: w.config, log: pino({ level: 'silent' }), callbacks: false })
    const s = await waitForScan(w, id, isTerminal, 15000)
    assert.ok(Date.now() - t0 < 10000, `ended after ${Date.now() - t0} ms: its 30 min were spent (not 30 more)`)
    assert.equal(s.status_name, 'finished')
    assert.match(s.status_message, /max_scan_time/)
    assert.equal(s.start_time, first)
    assert.equal((await getScanById(w.h.db, id))!.attempts, 2)
  } finally {
    await worker?.stop()
    await w.close()
  }
})
