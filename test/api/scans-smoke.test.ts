import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, isTerminal } from '../helpers/ward.js'

test('a diagnostic scan runs to finished with tests, findings, raw log and output', async () => {
  const w = await startWard()
  try {
    const t = await w.req('POST', '/api/v2/targets', { form: { name: '127.0.0.1' } })
    assert.equal(t.statusCode, 201)
    const r = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 9001, target_id: t.json().data.created_id, tool_params: { steps: 3, step_ms: 20 } },
    })
    assert.equal(r.statusCode, 201, r.body)
    const id = r.json().data.created_id
    const s = await waitForScan(w, id, isTerminal)
    assert.equal(s.status_name, 'finished')
    assert.equal(s.progress, 100)
    assert.equal(s.num_tests, 3)
    assert.equal(s.num_finished_tests, 3)
    assert.equal(s.result_summary.low, 2)
    assert.equal(s.result_summary.text, '2 low')
    const out = (await w.req('GET', `/api/v2/scans/${id}/output`)).json().data
    assert.equal(out.output_type, 'finding_list')
    assert.equal(out.output_data.findings.length, 2)
    assert.equal(out.output_data.steps, 3)
    const raw = (await w.req('GET', `/api/v2/scans/${id}/raw`)).json().data
    assert.ok(
      raw.some((l: string) => l.includes('step 2/3')),
      raw.join('\n'),
    )
    const tests = (await w.req('GET', `/api/v2/scans/${id}/tests`)).json().data
    assert.equal(tests.length, 3)
    const withF = (await w.req('GET', `/api/v2/scans/${id}/tests?resource_type=finding`)).json().data
    assert.equal(withF.length, 2)
  } finally {
    await w.close()
  }
})

test('scans naming the same new target at once all start, on one target created once', async () => {
  const w = await startWard()
  try {
    const name = '127.0.39.77'
    const rs = await Promise.all(
      Array.from({ length: 6 }, () =>
        w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: name, tool_params: { steps: 1, step_ms: 1 } } }),
      ),
    )
    for (const r of rs) assert.equal(r.statusCode, 201, r.body)
    const ids = new Set(rs.map((r) => r.json().data.target_id))
    assert.equal(ids.size, 1, `one target: ${[...ids].join(', ')}`)
    const list = (await w.req('GET', '/api/v2/targets')).json().data.filter((t: { name: string }) => t.name === name)
    assert.equal(list.length, 1)
  } finally {
    await w.close()
  }
})
