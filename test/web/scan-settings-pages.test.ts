// The saved scan settings pages: save from the new-scan form and from a scan's page, list, rename,
// delete, "start scan with…" and "schedule with…"; no credential in any page; a viewer sees the
// list without the controls and the server refuses their changes. No worker: scans only queue.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, TEST_BACKEND, type TestWard } from '../helpers/ward.js'
import { setPassword, signIn, type WebSession } from '../helpers/web.js'

let w: TestWard
let web: WebSession
let viewerWeb: WebSession
const SECRET = 'Sup3r-Secret-web-settings!'

before(async () => {
  w = await startWard({ worker: false })
  const vera = await w.user('vera')
  assert.equal(
    (await w.req('POST', `/api/v2/workspaces/${w.workspaceId}/members`, { body: { user_name: 'vera', role: 'viewer' } })).statusCode,
    201,
  )
  await setPassword(w, w.userId)
  await setPassword(w, vera.userId)
  web = await signIn(w)
  viewerWeb = await signIn(w, 'vera')
  // vera's active workspace is her own: switch to alice's, where she is a viewer.
  assert.equal((await w.req('POST', `/api/v2/workspaces/${w.workspaceId}/activate`, { key: vera.key })).statusCode < 300, true)
})
after(() => w.close())

const settingsRows = () => w.h.db.selectFrom('scan_settings').selectAll().orderBy('id').execute()
const scanRow = (id: number) => w.h.db.selectFrom('scans').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const idIn = (location: unknown) =>
  Number(/(\d+)(?:$|\?)/.exec(String(location).split('#')[0]!)?.[1] ?? /#settings-(\d+)/.exec(String(location))?.[1])

describe(`saved scan settings pages (${TEST_BACKEND})`, () => {
  test('save from the new-scan form, start a scan with them: credentials sealed, never in a page', async () => {
    const form = await web.get('/scans/new')
    assert.match(form.body, /formaction="\/scan-settings\/from-form"/)
    const saved = await web.post('/scan-settings/from-form', {
      tool_id: '90',
      max_scan_time: '12',
      settings_name: 'Weekly deep scan, authenticated',
      'p.90.wordlist': 'admin\nlogin',
      'p.90.authentication.type': 'basic',
      'p.90.authentication.username': 'alice',
      'p.90.authentication.password': SECRET,
    })
    assert.equal(saved.statusCode, 303, saved.body.slice(0, 800))
    const [row] = await settingsRows()
    assert.ok(row)
    assert.equal(row.name, 'Weekly deep scan, authenticated')
    assert.equal(row.max_scan_time, 12)
    const params = JSON.parse(row.tool_params)
    assert.deepEqual(params.wordlist, ['admin', 'login'])
    assert.match(params.authentication.password, /^wardenc:v1:/)

    const list = await web.get('/scan-settings')
    assert.equal(list.statusCode, 200)
    assert.match(list.body, /Weekly deep scan, authenticated/)
    assert.match(list.body, new RegExp(`href="/scans/new\\?settings_id=${row.id}"`))
    assert.match(list.body, new RegExp(`href="/schedules\\?settings_id=${row.id}#new-schedule"`))
    const start = await web.get(`/scans/new?settings_id=${row.id}`)
    assert.equal(start.statusCode, 200)
    for (const p of [list, start]) assert.ok(!p.body.includes(SECRET) && !p.body.includes('wardenc:'), 'no credential in the page')
    assert.match(start.body, /data-testid="from-settings"/)
    assert.match(start.body, /data-kept="authentication"/)
    assert.match(start.body, /name="max_scan_time" min="1" max="1440" value="12"/)

    const post = await web.post('/scans/new', {
      settings_id: String(row.id),
      tool_id: '90',
      target_name: 'http://127.0.114.10:9/',
      max_scan_time: '12',
      'p.90.wordlist': 'admin\nlogin',
    })
    assert.equal(post.statusCode, 303, post.body.slice(0, 800))
    const scan = await scanRow(idIn(post.headers.location))
    assert.equal(JSON.parse(scan.tool_params).authentication.password, params.authentication.password, 'kept sealed from the settings')

    const badName = await web.post('/scan-settings/from-form', { tool_id: '9001', settings_name: ' ' })
    assert.equal(badName.statusCode, 400)
    assert.match(badName.body, /give the settings a name/i)
    assert.equal((await settingsRows()).length, 1, 'a refused save writes nothing')
  })

  test('save from a scan page, schedule with them, rename and delete', async () => {
    const r = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 9001, target_name: 'pages.example', max_scan_time: 3, tool_params: { steps: 2 } },
    })
    const scanId = r.json().data.created_id
    const scanPage = await web.get(`/scans/${scanId}`)
    assert.match(scanPage.body, new RegExp(`href="/scan-settings\\?from_scan_id=${scanId}#new-settings"`))
    const form = await web.get(`/scan-settings?from_scan_id=${scanId}`)
    assert.match(form.body, /Save the settings of scan/)
    const saved = await web.post('/scan-settings', { from_scan_id: String(scanId), name: 'Two steps' })
    assert.equal(saved.statusCode, 303, saved.body.slice(0, 500))
    const row = (await settingsRows()).find((s) => s.name === 'Two steps')!
    assert.equal(row.tool_id, 9001)
    assert.equal(row.max_scan_time, 3)

    const schedForm = await web.get(`/schedules?settings_id=${row.id}`)
    assert.match(schedForm.body, /data-testid="from-settings"/)
    const sched = await web.post('/schedules', {
      settings_id: String(row.id),
      target_id: String((await scanRow(scanId)).target_id),
      timing: 'interval',
      interval_minutes: '60',
      name: 'hourly',
    })
    assert.equal(sched.statusCode, 303, sched.body.slice(0, 500))
    const s = await w.h.db.selectFrom('schedules').selectAll().where('name', '=', 'hourly').executeTakeFirstOrThrow()
    assert.equal(s.tool_id, 9001)
    assert.equal(JSON.parse(s.tool_params).steps, 2)

    const renamed = await web.post(`/scan-settings/${row.id}/rename`, { name: 'Two quick steps' })
    assert.equal(renamed.statusCode, 303)
    assert.equal((await settingsRows()).find((x) => x.id === row.id)!.name, 'Two quick steps')
    assert.equal((await web.post(`/scan-settings/${row.id}/rename`, { name: '' })).statusCode, 400)
    assert.equal((await web.post(`/scan-settings/999999/delete`)).statusCode, 404)
    assert.equal((await web.post(`/scan-settings/${row.id}/delete`)).statusCode, 303)
    assert.ok(!(await settingsRows()).some((x) => x.id === row.id))
  })

  test('a viewer sees the list without controls; their changes are refused and change nothing', async () => {
    const [row] = await settingsRows()
    const list = await viewerWeb.get('/scan-settings')
    assert.equal(list.statusCode, 200)
    assert.match(list.body, new RegExp(`data-settings-id="${row!.id}"`))
    assert.ok(!list.body.includes('/rename') && !list.body.includes('/delete') && !list.body.includes('Start scan with'))
    assert.equal((await viewerWeb.post(`/scan-settings/${row!.id}/rename`, { name: 'viewer' })).statusCode, 403)
    assert.equal((await viewerWeb.post(`/scan-settings/${row!.id}/delete`)).statusCode, 403)
    assert.equal((await settingsRows())[0]!.name, row!.name)
  })
})
