import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, tableCounts, waitForScan, type TestWard } from '../helpers/ward.js'
import { ID_ROUTES } from './routes-table.js'

let w: TestWard
const own: Record<string, number> = {}
let bob: { key: string; workspaceId: number }

before(async () => {
  w = await startWard()
  own.workspace = w.workspaceId
  own.target = (await w.req('POST', '/api/v2/targets', { form: { name: 'alice.example' } })).json().data.created_id
  own.scan = (
    await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: own.target, tool_params: { steps: 1, step_ms: 1 } } })
  ).json().data.created_id
  await waitForScan(w, own.scan, (s) => s.status_name === 'finished')
  own.finding = (await w.req('GET', `/api/v2/findings?task_id=${own.scan}`)).json().data[0].id
  own.schedule = (
    await w.req('POST', '/api/v2/schedules', { body: { tool_id: 9001, target_id: own.target, interval_minutes: 60 } })
  ).json().data.created_id
  own.integration = (
    await w.req('POST', '/api/v2/integrations', {
      body: { type: 'slack', name: 'n', config: { url: 'https://hooks.example/x' }, enabled: false },
    })
  ).json().data.created_id
  bob = await w.user('bob')
})
after(() => w.close())

test("another user's ids answer exactly like nonexistent ones, and change nothing", async () => {
  const before = await tableCounts(w)
  for (const r of ID_ROUTES) {
    const foreignId = own[r.kind]
    const missingId = 999999
    const call = (id: number) => w.req(r.method, r.path(id), { key: bob.key, ...(r.body ? { body: r.body(id) } : {}) })
    const foreign = await call(foreignId)
    const missing = await call(missingId)
    const label = `${r.method} ${r.path(foreignId)} ${r.body ? JSON.stringify(r.body(foreignId)) : ''}`
    assert.equal(foreign.statusCode, missing.statusCode, label)
    assert.equal(foreign.statusCode, 404, label)
    assert.deepEqual(foreign.json(), missing.json(), label)
  }
  assert.deepEqual(await tableCounts(w), before)
})

test("lists never show another user's data", async () => {
  for (const url of [
    '/api/v2/targets',
    '/api/v2/scans',
    '/api/v2/findings',
    '/api/v2/schedules',
    '/api/v2/integrations',
    `/api/v2/findings?task_id=${own.scan}`,
    `/api/v2/findings?target_id=${own.target}`,
    `/api/v2/scans?target_id=${own.target}`,
  ]) {
    const r = await w.req('GET', url, { key: bob.key })
    assert.equal(r.statusCode, 200, url)
    assert.deepEqual(r.json().data, [], url)
  }
  const r = await w.req('GET', `/api/v2/scans?workspace_id=${own.workspace}`, { key: bob.key })
  assert.deepEqual(r.json().data, [])
  const ws = (await w.req('GET', '/api/v2/workspaces', { key: bob.key })).json().data
  assert.deepEqual(
    ws.map((x: any) => x.id),
    [bob.workspaceId],
  )
  // And the owner still sees everything.
  assert.equal((await w.req('GET', `/api/v2/findings?task_id=${own.scan}`)).json().data.length, 1)
})
