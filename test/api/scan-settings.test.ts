// Saved scan settings (an extension beside v2): CRUD under /api/v2/scan-settings, scans and
// schedules started with settings_id, credentials sealed and never shown, viewers read only,
// another user's settings not found. No worker: the scans only queue.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, TEST_BACKEND, type TestWard } from '../helpers/ward.js'

let w: TestWard
let viewer: { key: string; userId: number }
let stranger: { key: string; userId: number }
const SECRET = 'Sup3r-Secret-settings-pw!'
const AUTH_PARAMS = { wordlist: ['admin'], authentication: { type: 'basic', username: 'alice', password: SECRET } }

before(async () => {
  w = await startWard({ worker: false })
  viewer = await w.user('vera')
  stranger = await w.user('stan')
  const r = await w.req('POST', `/api/v2/workspaces/${w.workspaceId}/members`, { body: { user_name: 'vera', role: 'viewer' } })
  assert.equal(r.statusCode, 201, r.body)
})
after(() => w.close())

const row = (id: number) => w.h.db.selectFrom('scan_settings').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const scanRow = (id: number) => w.h.db.selectFrom('scans').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
async function save(body: Record<string, unknown>, key?: string): Promise<number> {
  const r = await w.req('POST', '/api/v2/scan-settings', { body, key })
  assert.equal(r.statusCode, 201, r.body)
  return r.json().data.created_id
}

describe(`saved scan settings (${TEST_BACKEND})`, () => {
  test('create, read, list, rename, change, delete; credentials sealed and never answered', async () => {
    const id = await save({ name: 'Weekly deep scan, authenticated', tool_id: 90, tool_params: AUTH_PARAMS, max_scan_time: 30 })
    const stored = JSON.parse((await row(id)).tool_params)
    assert.match(stored.authentication.password, /^wardenc:v1:/, 'sealed at rest')
    const one = await w.req('GET', `/api/v2/scan-settings/${id}`)
    assert.equal(one.statusCode, 200)
    assert.ok(!one.body.includes(SECRET) && !one.body.includes('wardenc:'), 'no credential in the answer')
    const d = one.json().data
    assert.equal(d.name, 'Weekly deep scan, authenticated')
    assert.equal(d.tool_id, 90)
    assert.equal(d.max_scan_time, 30)
    assert.equal(d.workspace_id, w.workspaceId)
    assert.equal(d.tool_params.authentication.password, '(secret: stored encrypted)')
    assert.deepEqual(d.tool_params.wordlist, ['admin'])

    const list = await w.req('GET', '/api/v2/scan-settings')
    assert.deepEqual(
      list.json().data.map((s: { id: number }) => s.id),
      [id],
    )
    const renamed = await w.req('PATCH', `/api/v2/scan-settings/${id}`, { body: { name: 'Nightly', max_scan_time: 20 } })
    assert.equal(renamed.statusCode, 200, renamed.body)
    assert.equal(renamed.json().data.name, 'Nightly')
    assert.equal((await row(id)).max_scan_time, 20)
    assert.equal(
      JSON.parse((await row(id)).tool_params).authentication.password,
      stored.authentication.password,
      'a rename keeps the sealed value',
    )
    const badParams = await w.req('PATCH', `/api/v2/scan-settings/${id}`, { body: { tool_params: { wordlist: 5 } } })
    assert.equal(badParams.statusCode, 400)
    assert.match(badParams.json().message, /tool_params\.wordlist/)
    assert.equal((await w.req('DELETE', `/api/v2/scan-settings/${id}`)).statusCode, 204)
    assert.equal((await w.req('GET', `/api/v2/scan-settings/${id}`)).statusCode, 404)
  })

  test('bad input is a 400 that writes nothing', async () => {
    const before = (await w.req('GET', '/api/v2/scan-settings')).json().data.length
    for (const [body, message] of [
      [{ name: 'x', tool_id: 4242 }, /unknown tool_id 4242/],
      [{ name: 'x', tool_id: 9001, tool_params: { steps: 'many' } }, /tool_params\.steps/],
      [{ name: '   ', tool_id: 9001 }, /give the settings a name/],
      [{ tool_id: 9001 }, /name/],
      [{ name: 'x' }, /"tool_id" is required/],
    ] as const) {
      const r = await w.req('POST', '/api/v2/scan-settings', { body })
      assert.equal(r.statusCode, 400, JSON.stringify(body))
      assert.match(r.json().message, message)
    }
    assert.equal((await w.req('POST', '/api/v2/scan-settings', { body: { name: 'x', from_scan_id: 999999 } })).statusCode, 404)
    assert.equal((await w.req('GET', '/api/v2/scan-settings')).json().data.length, before)
  })

  test('scans and schedules start with settings_id; given fields win; the tool must match', async () => {
    const id = await save({ name: 'Three steps', tool_id: 9001, tool_params: { steps: 3, step_ms: 1 }, max_scan_time: 7 })
    const r = await w.req('POST', '/api/v2/scans', { body: { settings_id: id, target_name: 'settings.example' } })
    assert.equal(r.statusCode, 201, r.body)
    const s = await scanRow(r.json().data.created_id)
    assert.equal(s.tool_id, 9001)
    assert.equal(s.max_scan_time, 7)
    assert.equal(JSON.parse(s.tool_params).steps, 3)
    const won = await w.req('POST', '/api/v2/scans', { body: { settings_id: id, target_id: s.target_id, max_scan_time: 2 } })
    assert.equal((await scanRow(won.json().data.created_id)).max_scan_time, 2)
    const other = await w.req('POST', '/api/v2/scans', { body: { settings_id: id, tool_id: 70, target_id: s.target_id } })
    assert.equal(other.statusCode, 400)
    assert.match(other.json().message, /differs from the tool of scan settings/)
    const both = await w.req('POST', '/api/v2/scans', { body: { settings_id: id, from_scan_id: s.id } })
    assert.equal(both.statusCode, 400)
    assert.match(both.json().message, /at most one of settings_id and from_scan_id/)
    assert.equal((await w.req('POST', '/api/v2/scans', { body: { settings_id: 999999, target_id: s.target_id } })).statusCode, 404)

    const sch = await w.req('POST', '/api/v2/schedules', { body: { settings_id: id, target_id: s.target_id, interval_minutes: 60 } })
    assert.equal(sch.statusCode, 201, sch.body)
    const view = (await w.req('GET', `/api/v2/schedules/${sch.json().data.created_id}`)).json().data
    assert.equal(view.tool_id, 9001)
    assert.equal(view.max_scan_time, 7)
    assert.equal(view.tool_params.steps, 3)
  })

  test('saved from an earlier scan: its tool, parameters (sealed) and time limit', async () => {
    const scan = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 90, target_name: 'http://127.0.114.9:9/', max_scan_time: 5, tool_params: AUTH_PARAMS },
    })
    assert.equal(scan.statusCode, 201, scan.body)
    const scanId = scan.json().data.created_id
    const id = await save({ name: 'From a scan', from_scan_id: scanId })
    const r = await row(id)
    assert.equal(r.tool_id, 90)
    assert.equal(r.max_scan_time, 5)
    assert.equal(JSON.parse(r.tool_params).authentication.password, JSON.parse((await scanRow(scanId)).tool_params).authentication.password)
    const again = await w.req('POST', '/api/v2/scans', { body: { settings_id: id, target_id: (await scanRow(scanId)).target_id } })
    assert.equal(
      JSON.parse((await scanRow(again.json().data.created_id)).tool_params).authentication.password,
      r.tool_params && JSON.parse(r.tool_params).authentication.password,
    )
  })

  test('a viewer reads but changes nothing (403); another user finds nothing (404)', async () => {
    const id = await save({ name: 'Shared', tool_id: 9001 })
    assert.equal((await w.req('GET', `/api/v2/scan-settings/${id}`, { key: viewer.key })).statusCode, 200)
    assert.ok((await w.req('GET', '/api/v2/scan-settings', { key: viewer.key })).json().data.some((s: { id: number }) => s.id === id))
    for (const [method, body] of [
      ['PATCH', { name: 'viewer was here' }],
      ['DELETE', undefined],
    ] as const)
      assert.equal((await w.req(method, `/api/v2/scan-settings/${id}`, { body, key: viewer.key })).statusCode, 403, method)
    const created = await w.req('POST', '/api/v2/scan-settings', {
      body: { name: 'v', tool_id: 9001, workspace_id: w.workspaceId },
      key: viewer.key,
    })
    assert.equal(created.statusCode, 403)
    assert.equal((await row(id)).name, 'Shared')
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'stranger' }],
      ['DELETE', undefined],
    ] as const)
      assert.equal((await w.req(method, `/api/v2/scan-settings/${id}`, { body, key: stranger.key })).statusCode, 404, method)
    assert.equal((await w.req('GET', '/api/v2/scan-settings', { key: stranger.key })).json().data.length, 0)
    const scan = await w.req('POST', '/api/v2/scans', { body: { settings_id: id, target_name: 'stranger.example' }, key: stranger.key })
    assert.equal(scan.statusCode, 404)
    assert.equal((await row(id)).name, 'Shared')
  })

  test('the OpenAPI document describes the routes and settings_id', async () => {
    const doc = (await w.req('GET', '/api/v2/openapi.json', { key: null })).json()
    assert.ok(doc.paths['/api/v2/scan-settings']?.post && doc.paths['/api/v2/scan-settings/{id}']?.patch)
    const body = doc.paths['/api/v2/scans'].post.requestBody.content['application/json'].schema
    assert.ok(body.properties.settings_id, 'settings_id on POST /scans')
  })
})
