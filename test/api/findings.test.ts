// Duplicate groups across repeated scans, PATCH applied to the whole group, the history, and the
// triage state a newly found duplicate takes (inherits accepted/false_positive, re-opens fixed).
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'

// The diagnostic tool records a finding at "step-1" and "step-3" with steps: 4 (stable locations).
async function runScan(w: TestWard, key?: string) {
  const r = await w.req('POST', '/api/v2/scans', {
    body: { tool_id: 9001, target_name: '127.0.0.1', tool_params: { steps: 4, step_ms: 1 } },
    key,
  })
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_id as number
  assert.equal((await waitForScan(w, id, isTerminal, 10000, key)).status_name, 'finished')
  return { scanId: id, targetId: r.json().data.target_id as number }
}

const list = async (w: TestWard, q: string, key?: string) => {
  const r = await w.req('GET', `/api/v2/findings?${q}`, { key })
  assert.equal(r.statusCode, 200, r.body)
  return r.json().data as any[]
}
const patch = (w: TestWard, id: number, body: unknown, key?: string) => w.req('PATCH', `/api/v2/findings/${id}`, { body, key })
const history = async (w: TestWard, id: number) => {
  const r = await w.req('GET', `/api/v2/findings/${id}/history`)
  assert.equal(r.statusCode, 200, r.body)
  return r.json().data as any[]
}

describe('finding groups, PATCH and history', () => {
  test('the same scan run twice: each problem once with group_duplicates=true; PATCH follows the group', async () => {
    const w = await startWard()
    try {
      const a = await runScan(w)
      const b = await runScan(w)
      const all = await list(w, `target_id=${a.targetId}`)
      assert.equal(all.length, 4)
      const grouped = await list(w, `target_id=${a.targetId}&group_duplicates=true`)
      assert.equal(grouped.length, 2, 'each problem once')
      assert.ok(
        grouped.every((f) => f.scan_id === b.scanId),
        'the latest finding of each group',
      )

      // Accept one finding of the first scan: its duplicate in the second scan follows.
      const first = all.filter((f) => f.scan_id === a.scanId).sort((x, y) => x.id - y.id)[0]
      const r = await patch(w, first.id, { status: 'accepted', verified: true, reason: 'compensating control in place' })
      assert.equal(r.statusCode, 200, r.body)
      assert.equal(r.json().data.status, 'accepted')
      assert.equal(r.json().data.verified, true)
      const after = await list(w, `target_id=${a.targetId}`)
      const accepted = after.filter((f) => f.status === 'accepted')
      assert.equal(accepted.length, 2)
      assert.deepEqual(new Set(accepted.map((f) => f.scan_id)), new Set([a.scanId, b.scanId]))
      assert.ok(accepted.every((f) => f.verified))
      assert.equal(after.filter((f) => f.status === 'open').length, 2, 'the other group is untouched')
      assert.equal((await list(w, `target_id=${a.targetId}&status=accepted&group_duplicates=true`)).length, 1)

      // Both members of the group show the same history.
      const dup = accepted.find((f) => f.id !== first.id)!
      const h = await history(w, dup.id)
      assert.deepEqual(h, await history(w, first.id))
      assert.equal(h.length, 2)
      const byField = Object.fromEntries(h.map((e) => [e.field, e]))
      assert.deepEqual([byField.status.old_value, byField.status.new_value], ['open', 'accepted'])
      assert.deepEqual([byField.verified.old_value, byField.verified.new_value], [false, true])
      assert.equal(byField.status.reason, 'compensating control in place')
      assert.equal(byField.status.user_id, w.userId)
      assert.equal(byField.status.finding_id, first.id)
      assert.match(byField.status.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)

      // A risk change moves the scans' result counts.
      const r2 = await patch(w, dup.id, { risk_level: 3 })
      assert.equal(r2.statusCode, 200)
      for (const id of [a.scanId, b.scanId]) {
        const s = (await w.req('GET', `/api/v2/scans/${id}`)).json().data
        assert.deepEqual([s.result_summary.high, s.result_summary.low], [1, 1])
      }
      // Setting what is already there records nothing.
      assert.equal((await patch(w, dup.id, { status: 'accepted' })).statusCode, 200)
      assert.equal((await history(w, dup.id)).length, 3)

      // A third run: the new duplicate inherits accepted + verified; the other group stays open.
      const c = await runScan(w)
      const third = await list(w, `task_id=${c.scanId}`)
      assert.equal(third.length, 2)
      assert.equal(third.filter((f) => f.status === 'accepted' && f.verified).length, 1)
      assert.equal(third.filter((f) => f.status === 'open' && !f.verified).length, 1)
    } finally {
      await w.close()
    }
  })

  test('a fixed problem found again re-opens its group and the history says so', async () => {
    const w = await startWard()
    try {
      const a = await runScan(w)
      const f = (await list(w, `task_id=${a.scanId}`))[0]
      assert.equal((await patch(w, f.id, { status: 'fixed', reason: 'patched' })).statusCode, 200)
      assert.equal((await w.req('GET', `/api/v2/findings/${f.id}`)).json().data.status, 'fixed')
      const b = await runScan(w)
      const again = (await list(w, `task_id=${b.scanId}`)).find(
        (g) => g.vuln_id === f.vuln_id && g.id !== f.id && (g.url ?? null) === (f.url ?? null),
      )
      const group = (await list(w, `target_id=${a.targetId}`)).filter((g) => g.status !== 'open')
      assert.deepEqual(group, [], 'nothing in the group stays fixed')
      assert.equal((await w.req('GET', `/api/v2/findings/${f.id}`)).json().data.status, 'open')
      const h = await history(w, f.id)
      assert.equal(h.length, 2)
      assert.equal(h[0].field, 'status')
      assert.deepEqual([h[0].old_value, h[0].new_value], ['fixed', 'open'])
      assert.equal(h[0].reason, `re-opened: found again by scan ${b.scanId}`)
      assert.equal(h[0].user_id, null)
      assert.ok(again)
      assert.equal(h[1].reason, 'patched')
    } finally {
      await w.close()
    }
  })

  test('bad PATCH bodies → 400 and nothing changes; another tenant → 404', async () => {
    const w = await startWard()
    try {
      const a = await runScan(w)
      const f = (await list(w, `task_id=${a.scanId}`))[0]
      for (const body of [
        {},
        { reason: 'only a reason' },
        { status: 'closed' },
        { risk_level: 5 },
        { verified: 'yes' },
        { status: null },
        { extra: 1 },
      ]) {
        const r = await patch(w, f.id, body)
        assert.equal(r.statusCode, 400, `${JSON.stringify(body)} → ${r.statusCode} ${r.body}`)
        assert.equal(r.json().status, 400)
      }
      assert.equal((await history(w, f.id)).length, 0)
      assert.equal((await w.req('GET', `/api/v2/findings/${f.id}`)).json().data.status, 'open')
      const bob = await w.user('bob')
      const r = await patch(w, f.id, { status: 'fixed' }, bob.key)
      assert.equal(r.statusCode, 404)
      assert.match(r.json().message, /does not exist/)
      assert.equal((await w.req('GET', `/api/v2/findings/${f.id}/history`, { key: bob.key })).statusCode, 404)
      assert.equal((await patch(w, 999999, { status: 'fixed' })).statusCode, 404)
      // bob's own scan of the same target name is another tenant's group: untouched by alice's PATCH.
      const bs = await runScan(w, bob.key)
      assert.equal((await patch(w, f.id, { status: 'false_positive' })).statusCode, 200)
      const bobs = await list(w, `task_id=${bs.scanId}`, bob.key)
      assert.ok(bobs.length === 2 && bobs.every((g) => g.status === 'open'))
    } finally {
      await w.close()
    }
  })
})

describe('accepted risk with an expiry date', () => {
  test('accepted_until is kept with the acceptance, inherited by a new duplicate, refused when wrong; after its day the scheduler re-opens the group', async () => {
    const w = await startWard()
    try {
      const a = await runScan(w)
      const [f] = await list(w, `scan_id=${a.scanId}`)
      const tomorrow = new Date(Date.now() + 86400000).toISOString().slice(0, 10)
      for (const [body, words] of [
        [{ status: 'open', accepted_until: tomorrow }, /goes with status accepted/],
        [{ status: 'accepted', accepted_until: '2026-02-30' }, /not a calendar day/],
        [{ status: 'accepted', accepted_until: '2020-01-01' }, /already passed/],
        [{ status: 'accepted', accepted_until: 'tomorrow' }, /accepted_until/],
      ] as const) {
        const r = await patch(w, f.id, body)
        assert.equal(r.statusCode, 400, r.body)
        assert.match(r.json().message, words)
      }
      assert.equal((await list(w, `scan_id=${a.scanId}`)).find((x) => x.id === f.id).status, 'open', 'a refused triage changes nothing')
      const ok = await patch(w, f.id, { status: 'accepted', accepted_until: tomorrow, reason: 'until the patch window' })
      assert.equal(ok.statusCode, 200, ok.body)
      // The next scan's duplicate joins the acceptance, expiry included.
      const b = await runScan(w)
      const dup = (await list(w, `scan_id=${b.scanId}`)).find(
        (x) => x.vuln_id === f.vuln_id && x.url === f.url && x.location === f.location,
      )
      assert.equal(dup?.status, 'accepted')
      const rows = await w.h.db
        .selectFrom('findings')
        .select(['id', 'accepted_until'])
        .where(
          'dedup_key',
          '=',
          (await w.h.db.selectFrom('findings').select('dedup_key').where('id', '=', f.id).executeTakeFirstOrThrow()).dedup_key,
        )
        .execute()
      assert.deepEqual([...new Set(rows.map((r) => r.accepted_until))], [tomorrow], 'every finding of the group carries the date')

      // The day after: one tick of the worker's scheduler re-opens the group, once, by Ward.
      const { startScheduler } = await import('../../src/engine/scheduler.js')
      const { pino } = await import('pino')
      const later = new Date(Date.now() + 2 * 86400000)
      const s = startScheduler(
        { db: w.h.db, dbKind: w.h.kind, log: pino({ level: 'silent' }), workerId: 'sweep-test', tickMs: 60_000, now: () => later },
        false,
      )
      await s.tick()
      await s.stop()
      const after = await list(w, `target_id=${a.targetId}&vuln_id=${f.vuln_id}`)
      assert.ok(after.length >= 2 && after.every((x) => x.status === 'open'), JSON.stringify(after.map((x) => x.status)))
      const h = await history(w, f.id)
      assert.equal(h[0].field, 'status')
      assert.deepEqual([h[0].old_value, h[0].new_value, h[0].user_id], ['accepted', 'open', null])
      assert.match(h[0].reason, new RegExp(`expired \\(accepted until ${tomorrow}\\)`))
      assert.equal(h.filter((e) => /expired/.test(e.reason ?? '')).length, 1, 'one entry for the group')
      const cleared = await w.h.db.selectFrom('findings').select('accepted_until').where('id', '=', f.id).executeTakeFirstOrThrow()
      assert.equal(cleared.accepted_until, null)
    } finally {
      await w.close()
    }
  })
})
