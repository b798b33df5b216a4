// One scan through the API as a user starts it: POST /scans, wait for the end, read output and raw log.
import assert from 'node:assert/strict'
import { waitForScan, isTerminal, type TestWard } from './ward.js'

export async function scanThroughApi(
  w: TestWard,
  tool_id: number,
  target_name: string,
  tool_params: Record<string, unknown> = {},
  timeoutMs = 120000,
) {
  const r = await w.req('POST', '/api/v2/scans', { body: { tool_id, target_name, tool_params } })
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_id
  const s = await waitForScan(w, id, isTerminal, timeoutMs)
  const output = (await w.req('GET', `/api/v2/scans/${id}/output`)).json().data.output_data
  const raw = (await w.req('GET', `/api/v2/scans/${id}/raw`)).json().data as unknown[]
  const tests = (await w.req('GET', `/api/v2/scans/${id}/tests`)).json().data as any[]
  return { s, output, findings: output.findings as any[], raw, tests }
}
