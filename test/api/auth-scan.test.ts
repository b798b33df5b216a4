// Authenticated scans through the API: rejected credentials end the scan `auth failed` with a clear
// status_message; the credentials are stored sealed and no answer, output format or log carries them;
// a schedule keeps them sealed once (an update without new tool_params does not seal them twice).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { startFormSite, USER, type AuthBed } from '../testbed/auth-sites.js'
import { scanAnswersText } from '../helpers/scan-text.js'

const HOST = '127.0.36.21'
const PASSWORD = 'Api-pw-51c0ffee-unique'
const WRONG = 'Api-wrong-9d8e7f'
let w: TestWard
let bed: AuthBed

before(async () => {
  w = await startWard()
  bed = await startFormSite(HOST, PASSWORD)
})
after(async () => {
  await bed?.close()
  await w?.close()
})

const auth = (password: string) => ({
  type: 'form',
  login_url: `${bed.url}login`,
  username: USER,
  password,
  failure_marker: 'Invalid credentials',
})

test('wrong credentials: the scan ends auth failed with the reason; nothing shows or stores the password in clear', async () => {
  const r = await w.req('POST', '/api/v2/scans', {
    body: { tool_id: 170, target_name: bed.url, tool_params: { scan_type: 'light', authentication: auth(WRONG) } },
  })
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_id
  const s = await waitForScan(w, id, isTerminal, 60000)
  assert.equal(s.status_name, 'auth failed', s.status_message)
  assert.match(s.status_message, /form login to http:\/\/127\.0\.36\.21:\d+\/login was rejected: the answer holds the failure marker/)
  const text = await scanAnswersText(w, id)
  assert.ok(!text.includes(WRONG), 'the password is in no answer, output, status or stored row')
  const stored = JSON.parse(
    (await w.h.db.selectFrom('scans').select('tool_params').where('id', '=', id).executeTakeFirstOrThrow()).tool_params,
  )
  assert.match(stored.authentication.password, /^wardenc:v1:/, 'stored sealed')
  assert.equal(stored.authentication.username, USER, 'the user name is not a secret')
})

test('bad authentication params are a 400 naming the member, and change nothing', async () => {
  const before = (await w.req('GET', '/api/v2/scans')).json().data.length
  const r = await w.req('POST', '/api/v2/scans', {
    body: { tool_id: 170, target_name: bed.url, tool_params: { authentication: { type: 'form', username: USER, password: 'x' } } },
  })
  assert.equal(r.statusCode, 400, r.body)
  assert.match(r.json().message, /tool_params\.authentication/)
  assert.match(r.json().message, /login_url/)
  assert.equal((await w.req('GET', '/api/v2/scans')).json().data.length, before)
})

test('a schedule stores the credentials sealed once, hides them, and its scans log in', async () => {
  const t = await w.req('POST', '/api/v2/targets', { body: { name: bed.url } })
  const targetId = t.json().data?.created_id ?? (await w.req('GET', '/api/v2/targets')).json().data.find((x: any) => x.name === bed.url).id
  const c = await w.req('POST', '/api/v2/schedules', {
    body: {
      tool_id: 170,
      target_id: targetId,
      interval_minutes: 1440,
      tool_params: { scan_type: 'light', authentication: auth(PASSWORD) },
    },
  })
  assert.equal(c.statusCode, 201, c.body)
  const sid = c.json().data.created_id
  const shown = (await w.req('GET', `/api/v2/schedules/${sid}`)).json().data
  assert.equal(shown.tool_params.authentication.password, '(secret: stored encrypted)')
  assert.ok(!JSON.stringify(shown).includes(PASSWORD))
  // An update of another member re-checks the stored params: they must stay sealed once.
  assert.equal((await w.req('PATCH', `/api/v2/schedules/${sid}`, { body: { name: 'nightly', report_callback: null } })).statusCode, 200)
  const run = await w.req('POST', `/api/v2/schedules/${sid}/run`)
  assert.equal(run.statusCode, 201, run.body)
  const scanId = run.json().data.created_ids[0]
  const s = await waitForScan(w, scanId, isTerminal, 60000)
  assert.equal(s.status_name, 'finished', s.status_message)
  const tests = (await w.req('GET', `/api/v2/scans/${scanId}/tests`)).json().data
  assert.ok(
    tests.some((x: any) => x.name === 'Authentication'),
    'the login is a test of the scan',
  )
  assert.ok(!(await scanAnswersText(w, scanId)).includes(PASSWORD))
})
