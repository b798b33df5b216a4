// "Scan again" reuses the scan's own settings (issue 25, deliver 3): POST /scans and POST /schedules
// with from_scan_id (an extension), and the web interface's "Scan again" form — tool_params,
// max_scan_time, VPN profile and URL options; credentials stay sealed and never reach the page.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, isTerminal, TEST_BACKEND, type TestWard } from '../helpers/ward.js'
import { setPassword, signIn } from '../helpers/web.js'

let w: TestWard
before(async () => {
  w = await startWard()
})
after(() => w.close())

const row = (id: number) => w.h.db.selectFrom('scans').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
async function start(body: Record<string, unknown>, key?: string): Promise<number> {
  const r = await w.req('POST', '/api/v2/scans', { body, key })
  assert.equal(r.statusCode, 201, r.body)
  return r.json().data.created_id
}
const SECRET = 'Sup3r-Secret-pw!'

describe(`scan again with the scan's own settings (${TEST_BACKEND})`, () => {
  test('POST /scans with from_scan_id: tool, target, tool_params, max_scan_time, URL options; given fields win', async () => {
    const s1 = await start({
      tool_id: 9001,
      target_name: 'again.example',
      max_scan_time: 7,
      scan_original_url: true,
      tool_params: { steps: 3, step_ms: 1, quiet_steps: [1] },
    })
    await waitForScan(w, s1, isTerminal)
    const first = await row(s1)
    const s2 = await start({ from_scan_id: s1 })
    const again = await row(s2)
    assert.equal(again.tool_id, 9001)
    assert.equal(again.target_id, first.target_id)
    assert.equal(again.max_scan_time, 7)
    assert.equal(again.scan_original_url, 1)
    assert.deepEqual(JSON.parse(again.tool_params), JSON.parse(first.tool_params))
    assert.equal((await waitForScan(w, s2, isTerminal)).num_tests, 3)
    // Given fields win; the tool must be the same.
    const s3 = await start({ from_scan_id: s1, tool_id: 9001, max_scan_time: 2, tool_params: { steps: 1 } })
    assert.equal((await row(s3)).max_scan_time, 2)
    assert.equal(JSON.parse((await row(s3)).tool_params).steps, 1)
    const other = await w.req('POST', '/api/v2/scans', { body: { from_scan_id: s1, tool_id: 70 } })
    assert.equal(other.statusCode, 400)
    assert.match(other.json().message, /tool_id 70 differs from the tool of scan/)
    assert.equal((await w.req('POST', '/api/v2/scans', { body: { from_scan_id: 999999 } })).statusCode, 404)
    const bob = await w.user('bob-again')
    assert.equal(
      (await w.req('POST', '/api/v2/scans', { body: { from_scan_id: s1 }, key: bob.key })).statusCode,
      404,
      "another user's scan is not found",
    )
    assert.equal((await w.req('POST', '/api/v2/scans', { body: { from_scan_id: '1x' } })).statusCode, 400)
    const missing = await w.req('POST', '/api/v2/scans', { body: { target_name: 'again.example' } })
    assert.equal(missing.statusCode, 400)
    assert.equal(missing.json().message, 'Invalid parameters: body field "tool_id" is required')
  })

  test('POST /schedules with from_scan_id takes the scan settings', async () => {
    const s1 = await start({ tool_id: 9001, target_name: 'sched-again.example', max_scan_time: 9, tool_params: { steps: 2, step_ms: 1 } })
    const r = await w.req('POST', '/api/v2/schedules', { body: { from_scan_id: s1, interval_minutes: 60, name: 'again' } })
    assert.equal(r.statusCode, 201, r.body)
    const s = (await w.req('GET', `/api/v2/schedules/${r.json().data.created_id}`)).json().data
    assert.equal(s.tool_id, 9001)
    assert.equal(s.max_scan_time, 9)
    assert.equal(s.tool_params.steps, 2)
    assert.equal(s.target_id, (await row(s1)).target_id)
  })

  test('credentials are carried over sealed, and the web form never shows them', async () => {
    const s1 = await start({
      tool_id: 90,
      target_name: 'http://127.0.27.50:9/',
      max_scan_time: 5,
      tool_params: { wordlist: ['admin'], authentication: { type: 'basic', username: 'alice', password: SECRET } },
    })
    await waitForScan(w, s1, isTerminal, 30000)
    const sealed = JSON.parse((await row(s1)).tool_params).authentication.password
    assert.match(sealed, /^wardenc:v1:/)
    const s2 = await start({ from_scan_id: s1 })
    assert.equal(JSON.parse((await row(s2)).tool_params).authentication.password, sealed)
    await waitForScan(w, s2, isTerminal, 30000)

    await setPassword(w, w.userId)
    const web = await signIn(w)
    const scanPage = await web.get(`/scans/${s1}`)
    assert.match(scanPage.body, new RegExp(`href="/scans/new\\?from_scan_id=${s1}"`))
    const form = await web.get(`/scans/new?from_scan_id=${s1}`)
    assert.equal(form.statusCode, 200)
    assert.ok(!form.body.includes(SECRET) && !form.body.includes('wardenc:'), 'no credential in the page')
    assert.match(form.body, /data-kept="authentication"/)
    assert.match(form.body, new RegExp(`name="from_scan_id" value="${s1}"`))
    assert.match(form.body, /id="max_scan_time" name="max_scan_time" min="1" max="1440" value="5"/)
    assert.match(form.body, /<textarea id="p-90-wordlist" name="p.90.wordlist" rows="2">admin<\/textarea>/)
    const post = await web.post('/scans/new', {
      from_scan_id: String(s1),
      tool_id: '90',
      target_id: String((await row(s1)).target_id),
      max_scan_time: '5',
      'p.90.wordlist': 'admin',
    })
    assert.equal(post.statusCode, 303, post.body.slice(0, 500))
    const s3 = Number(/\/scans\/(\d+)/.exec(post.headers.location as string)![1])
    const p3 = JSON.parse((await row(s3)).tool_params)
    assert.equal(p3.authentication.password, sealed, 'kept sealed from the earlier scan')
    assert.deepEqual(p3.wordlist, ['admin'])
    await waitForScan(w, s3, isTerminal, 30000)
    assert.equal((await web.get(`/scans/new?from_scan_id=999999`)).statusCode, 404)
  })
})
