import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'

async function target(w: TestWard, name = '127.0.0.1') {
  const r = await w.req('POST', '/api/v2/targets', { form: { name } })
  if (r.statusCode === 201) return r.json().data.created_id as number
  return (await w.req('GET', '/api/v2/targets')).json().data.find((t: any) => t.name === name).id as number
}
async function scan(w: TestWard, params: Record<string, unknown>, extra: Record<string, unknown> = {}, key?: string) {
  const r = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: '127.0.0.1', tool_params: params, ...extra }, key })
  assert.equal(r.statusCode, 201, r.body)
  return r.json().data.created_id as number
}

describe('scan lifecycle', () => {
  test('progress, tests and duration are live while running and final after', async () => {
    const w = await startWard()
    try {
      const id = await scan(w, { steps: 10, step_ms: 120 })
      const mid = await waitForScan(w, id, (s) => s.status_name === 'running' && s.progress > 0 && s.progress < 100)
      assert.ok(mid.num_tests >= 1 && mid.num_finished_tests <= mid.num_tests)
      assert.match(mid.start_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
      assert.equal(mid.end_time, null)
      const done = await waitForScan(w, id, isTerminal)
      assert.equal(done.status_name, 'finished')
      assert.equal(done.progress, 100)
      assert.equal(done.num_tests, 10)
      assert.equal(done.num_finished_tests, 10)
      assert.equal(done.result_summary.low, 5)
      assert.ok(done.duration >= 1, `duration ${done.duration}`)
      assert.match(done.end_time, /Z$/)
    } finally {
      await w.close()
    }
  })

  test('stop reaches a running tool within 1 s and keeps what it found', async () => {
    const w = await startWard()
    try {
      const id = await scan(w, { steps: 1000, step_ms: 100 })
      await waitForScan(w, id, (s) => s.status_name === 'running' && s.num_finished_tests >= 2)
      const t0 = Date.now()
      assert.equal((await w.req('POST', `/api/v2/scans/${id}/stop`)).statusCode, 204)
      const s = await waitForScan(w, id, isTerminal, 3000)
      assert.ok(Date.now() - t0 < 1000, `stopped after ${Date.now() - t0} ms`)
      assert.equal(s.status_name, 'stopped')
      assert.ok(s.result_summary.low >= 1)
      assert.equal(s.num_finished_tests, s.num_tests, 'no test is left running')
      const f = (await w.req('GET', `/api/v2/findings?task_id=${id}`)).json().data
      assert.ok(f.length >= 1)
      // Stop on an ended scan is a no-op 204.
      assert.equal((await w.req('POST', `/api/v2/scans/${id}/stop`)).statusCode, 204)
      assert.equal((await waitForScan(w, id, isTerminal)).status_name, 'stopped')
    } finally {
      await w.close()
    }
  })

  test('per-user running limit: the rest wait in order; stop while waiting ends it at once', async () => {
    const w = await startWard({ env: { WARD_USER_MAX_RUNNING: '2' } })
    try {
      const ids = [
        await scan(w, { steps: 1000, step_ms: 50 }),
        await scan(w, { steps: 1000, step_ms: 50 }),
        await scan(w, { steps: 2, step_ms: 1 }),
        await scan(w, { steps: 2, step_ms: 1 }),
      ]
      await waitForScan(w, ids[1], (s) => s.status_name === 'running')
      await new Promise((r) => setTimeout(r, 300))
      const states = await Promise.all(ids.map(async (id) => (await w.req('GET', `/api/v2/scans/${id}`)).json().data.status_name))
      assert.deepEqual(states, ['running', 'running', 'waiting', 'waiting'])
      // Another user is not held back by alice's limit.
      const bob = await w.user('bob')
      const b = await scan(w, { steps: 1, step_ms: 1 }, {}, bob.key)
      assert.equal((await waitForScan(w, b, isTerminal, 5000, bob.key)).status_name, 'finished')
      assert.equal((await w.req('POST', `/api/v2/scans/${ids[3]}/stop`)).statusCode, 204)
      const stopped = (await w.req('GET', `/api/v2/scans/${ids[3]}`)).json().data
      assert.equal(stopped.status_name, 'stopped')
      assert.equal(stopped.start_time, null)
      // Delete: 409 while waiting or running.
      assert.equal((await w.req('DELETE', `/api/v2/scans/${ids[0]}`)).statusCode, 409)
      assert.equal((await w.req('DELETE', `/api/v2/scans/${ids[2]}`)).statusCode, 409)
      await w.req('POST', `/api/v2/scans/${ids[0]}/stop`)
      assert.equal((await waitForScan(w, ids[2], isTerminal)).status_name, 'finished', 'the waiting scan runs once a slot frees')
      await w.req('POST', `/api/v2/scans/${ids[1]}/stop`)
      await waitForScan(w, ids[1], isTerminal)
      const del = await w.req('DELETE', `/api/v2/scans/${ids[2]}`)
      assert.equal(del.statusCode, 204)
      assert.equal((await w.req('GET', `/api/v2/scans/${ids[2]}`)).statusCode, 404)
      assert.equal((await w.req('GET', `/api/v2/findings?task_id=${ids[2]}`)).json().data.length, 0)
    } finally {
      await w.close()
    }
  })

  test('max_scan_time ends the scan finished with a status_message; the hard limit → timed out', async () => {
    const w = await startWard({ env: { WARD_MINUTE_MS: '400', WARD_SCAN_HARD_LIMIT_MIN: '2' } })
    try {
      const a = await scan(w, { steps: 1000, step_ms: 50 }, { max_scan_time: 1 })
      const b = await scan(w, { steps: 1000, step_ms: 50 }, { max_scan_time: 1440 })
      const sa = await waitForScan(w, a, isTerminal, 5000)
      assert.equal(sa.status_name, 'finished')
      assert.match(sa.status_message, /max_scan_time/)
      assert.ok(sa.result_summary.low > 0, 'results so far are kept')
      const sb = await waitForScan(w, b, isTerminal, 5000)
      assert.equal(sb.status_name, 'timed out')
      assert.match(sb.status_message, /hard limit/)
    } finally {
      await w.close()
    }
  })

  test('a tool that ignores abort past its grace period → timed out (and stop → stopped)', async () => {
    const w = await startWard({ env: { WARD_MINUTE_MS: '300', WARD_TOOL_ABORT_GRACE_MS: '300' } })
    try {
      const a = await scan(w, { steps: 1, step_ms: 1, ignore_abort: true }, { max_scan_time: 1 })
      const sa = await waitForScan(w, a, isTerminal, 5000)
      assert.equal(sa.status_name, 'timed out')
      assert.match(sa.status_message, /grace/)
      const b = await scan(w, { steps: 1, step_ms: 1, ignore_abort: true })
      await waitForScan(w, b, (s) => s.status_name === 'running' && s.num_finished_tests === 1)
      await w.req('POST', `/api/v2/scans/${b}/stop`)
      assert.equal((await waitForScan(w, b, isTerminal, 3000)).status_name, 'stopped')
    } finally {
      await w.close()
    }
  })

  test('tool failures map to connection error, failed to start, auth failed; a crash keeps results', async () => {
    const w = await startWard()
    try {
      const cases: Array<[string, string, RegExp]> = [
        ['unreachable', 'connection error', /could not be reached/],
        ['start', 'failed to start', /not to start/],
        ['auth', 'auth failed', /rejected/],
        ['crash', 'finished', /error: diagnostic crash/],
      ]
      for (const [fail, state, msg] of cases) {
        const id = await scan(w, { steps: 3, step_ms: 1, fail })
        const s = await waitForScan(w, id, isTerminal)
        assert.equal(s.status_name, state, fail)
        assert.match(s.status_message, msg, fail)
        assert.equal(s.num_finished_tests, s.num_tests, fail)
      }
    } finally {
      await w.close()
    }
  })

  test('GET /scans filters: tool, target, status, workspace (default active), start_time range, paging', async () => {
    const w = await startWard()
    try {
      const t1 = await target(w, '127.0.0.1')
      const t2 = await target(w, 'localhost')
      const s1 = await scan(w, { steps: 1, step_ms: 1 })
      await waitForScan(w, s1, isTerminal)
      // A whole-second boundary after s1 started; s2 starts more than a second after it (bounds are inclusive).
      const midMs = Math.ceil((Date.now() + 100) / 1000) * 1000
      const mid = new Date(midMs).toISOString().slice(0, 19) + 'Z'
      await new Promise((r) => setTimeout(r, midMs + 1100 - Date.now()))
      const s2 = (
        await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: t2, tool_params: { steps: 1, step_ms: 1 } } })
      ).json().data.created_id
      await waitForScan(w, s2, isTerminal)
      const s3 = await scan(w, { steps: 1, fail: 'start' })
      await waitForScan(w, s3, isTerminal)
      const ids = async (q: string) => (await w.req('GET', `/api/v2/scans${q}`)).json().data.map((s: any) => s.id)
      assert.deepEqual(await ids(''), [s3, s2, s1])
      assert.deepEqual(await ids(`?target_id=${t2}`), [s2])
      assert.deepEqual(await ids(`?target_id=${t1}`), [s3, s1])
      assert.deepEqual(await ids('?status=failed%20to%20start'), [s3])
      assert.deepEqual(await ids('?status=finished&limit=1&page=2'), [s1])
      assert.deepEqual(await ids('?tool_id=9001&limit=2'), [s3, s2])
      assert.deepEqual(await ids('?tool_id=70'), [])
      assert.deepEqual(await ids(`?start_time[from]=${mid}`), [s3, s2])
      assert.deepEqual(await ids(`?start_time[to]=${encodeURIComponent(mid)}`), [s1])
      assert.deepEqual(await ids(`?start_time%5Bfrom%5D=2000-01-01T00:00:00Z&start_time%5Bto%5D=2000-01-02T00:00:00Z`), [])
      // Another workspace: absent workspace_id means the active one.
      const ws = (await w.req('POST', '/api/v2/workspaces', { body: { name: 'Other' } })).json().data.created_id
      await w.req('POST', `/api/v2/workspaces/${ws}/activate`)
      assert.deepEqual(await ids(''), [])
      assert.deepEqual(await ids(`?workspace_id=${w.workspaceId}`), [s3, s2, s1])
    } finally {
      await w.close()
    }
  })

  test('POST /scans: target_name creates the target; workspace must match; output Accept negotiation', async () => {
    const w = await startWard()
    try {
      const r = await w.req('POST', '/api/v2/scans', {
        body: { tool_id: 9001, target_name: 'new-target.example', tool_params: { steps: 1, step_ms: 1 } },
      })
      assert.equal(r.statusCode, 201)
      const { created_id, target_id } = r.json().data
      assert.equal((await w.req('GET', `/api/v2/targets/${target_id}`)).json().data.name, 'new-target.example')
      const again = await w.req('POST', '/api/v2/scans', {
        body: { tool_id: 9001, target_name: 'NEW-TARGET.example', tool_params: { steps: 1, step_ms: 1 } },
      })
      assert.equal(again.json().data.target_id, target_id, 'an existing target is reused')
      const ws = (await w.req('POST', '/api/v2/workspaces', { body: { name: 'W2' } })).json().data.created_id
      const mismatch = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id, workspace_id: ws } })
      assert.equal(mismatch.statusCode, 400)
      assert.match(mismatch.json().message, /does not match/)
      const s = await waitForScan(w, created_id, isTerminal)
      assert.equal(s.vpn_scan, false)
      assert.equal((await w.req('GET', `/api/v2/scans/${created_id}/output`, { headers: { accept: 'text/html' } })).statusCode, 406)
      const json = await w.req('GET', `/api/v2/scans/${created_id}/output`, { headers: { accept: 'application/json' } })
      assert.equal(json.statusCode, 200)
      assert.equal(json.headers['content-type'], 'application/json')
      const tests = (await w.req('GET', `/api/v2/scans/${created_id}/tests`)).json().data
      assert.deepEqual(Object.keys(tests[0]).sort(), [
        'description',
        'end_time',
        'finding_ids',
        'id',
        'name',
        'result',
        'scan_id',
        'start_time',
        'status',
      ])
      const fid = tests[0].finding_ids[0]
      assert.equal(
        (await w.req('GET', `/api/v2/scans/${created_id}/tests?resource_id=${fid}`)).statusCode,
        400,
        'resource_id needs resource_type',
      )
      const byFinding = (await w.req('GET', `/api/v2/scans/${created_id}/tests?resource_type=finding&resource_id=${fid}`)).json().data
      assert.deepEqual(
        byFinding.map((t: any) => t.id),
        [tests[0].id],
      )
      assert.deepEqual((await w.req('GET', `/api/v2/scans/${created_id}/tests?resource_type=scan`)).json().data, [])
      const f = (await w.req('GET', `/api/v2/findings/${fid}`)).json().data
      for (const k of [
        'id',
        'name',
        'test_description',
        'test_finished',
        'confirmed',
        'in_cisa_catalog',
        'cve',
        'vuln_description',
        'vuln_evidence',
        'risk_description',
        'risk_level',
        'status',
        'recommendation',
        'references',
        'verified',
        'vuln_id',
        'owasp',
        'cwe',
        'port',
        'protocol',
        'service',
      ])
        assert.ok(k in f, k)
      assert.equal(f.status, 'open')
      assert.equal(f.test_finished, true)
      assert.deepEqual(Object.keys(f.owasp).sort(), ['owasp_2017', 'owasp_2021', 'owasp_2025'])
      assert.deepEqual(
        (await w.req('GET', `/api/v2/findings/${fid}/tests`)).json().data.map((t: any) => t.id),
        [tests[0].id],
      )
    } finally {
      await w.close()
    }
  })
})
