// Rules every page keeps, through inject against a real Ward: browsers get an HTML 404 (the API keeps
// its JSON), a new API key survives no reload as a second key, common passwords are refused in
// words, assets and pages go compressed with a Permissions-Policy header, and the new-scan form
// answers mistakes in the words of the form while keeping what was typed.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { gunzipSync, brotliDecompressSync } from 'node:zlib'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { cookieOf, setPassword, signIn, signInForm, type WebSession } from '../helpers/web.js'
import { etaText } from '../../src/web/pages/scans.js'

let w: TestWard
let alice: WebSession

before(async () => {
  w = await startWard({ env: { WARD_SIGNIN_LIMIT: '50' } })
  await setPassword(w, w.userId)
  alice = await signIn(w, 'alice')
})
after(() => w.close())

const BROWSER = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }

test('an unknown path asked for by a browser is the HTML 404 page; /api/ and programs keep the JSON body', async () => {
  const page = await alice.get('/no/such/page', BROWSER)
  assert.equal(page.statusCode, 404)
  assert.match(String(page.headers['content-type']), /^text\/html/)
  assert.match(page.body, /<h1>Not found<\/h1>/)
  assert.match(page.body, /aria-label="Main"/, 'a signed-in person keeps the navigation')
  assert.match(String(page.headers['content-security-policy']), /default-src 'none'/)
  const hostile = await w.app.inject({ method: 'GET', url: '/x<script>alert(1)</script>', headers: BROWSER })
  assert.ok(!hostile.body.includes('<script>alert'), 'the path is shown as text')
  const api = await w.app.inject({ method: 'GET', url: '/api/v2/no/such', headers: BROWSER })
  assert.equal(api.statusCode, 404)
  assert.equal(api.headers['content-type'], 'application/json')
  const program = await w.app.inject({ method: 'GET', url: '/no/such/page' })
  assert.equal(program.headers['content-type'], 'application/json')
})

test('creating an API key redirects; the key is shown once, and reloading creates no other key', async () => {
  const before = (await w.h.db.selectFrom('api_keys').select('id').execute()).length
  const post = await alice.post('/profile/keys')
  assert.equal(post.statusCode, 303)
  assert.equal(post.headers.location, '/profile')
  const cookie = post.cookies.find((c) => c.name === 'ward_new_key')!
  assert.ok(cookie && !cookie.value.includes('ward_'), 'the key travels sealed')
  const shown = await alice.get('/profile', { cookie: `${alice.cookie}; ward_new_key=${cookie.value}` })
  assert.match(shown.body, /data-secret="ward_[\w-]{32}"/)
  assert.ok(
    shown.cookies.some((c) => c.name === 'ward_new_key' && c.value === ''),
    'the cookie is cleared once read',
  )
  const reload = await alice.get('/profile')
  assert.doesNotMatch(reload.body, /data-secret=/)
  assert.equal((await w.h.db.selectFrom('api_keys').select('id').execute()).length, before + 1)
})

test('common passwords are refused with the reason in words; a long unusual one is accepted', async () => {
  for (const pw of ['password123', 'Password2024!', 'qwertyuiop', 'P@ssw0rd123', '1234567890', 'aaaaaaaaaaaa']) {
    const r = await alice.post('/profile/password', { current: 'correct horse battery', password: pw })
    assert.equal(r.statusCode, 400, pw)
    assert.match(r.body, /attackers try first|only digits/, pw)
  }
  const ok = await alice.post('/profile/password', { current: 'correct horse battery', password: 'violet tractor sandwich' })
  assert.equal(ok.statusCode, 303)
  // A new password ends the sessions: sign in again for the tests below.
  alice = await signIn(w, 'alice', 'violet tractor sandwich')
})

test('assets are sent compressed (brotli or gzip as accepted), pages carry a Permissions-Policy header', async () => {
  const page = await w.app.inject({ method: 'GET', url: '/sign-in' })
  const htmx = /src="(\/assets\/htmx\.min\.js\?v=\w+)"/.exec(page.body)![1]!
  assert.match(String(page.headers['permissions-policy']), /camera=\(\)/)
  const plain = await w.app.inject({ method: 'GET', url: htmx })
  const br = await w.app.inject({ method: 'GET', url: htmx, headers: { 'accept-encoding': 'gzip, deflate, br' } })
  assert.equal(br.headers['content-encoding'], 'br')
  assert.ok(br.rawPayload.length < plain.rawPayload.length / 2, `${br.rawPayload.length} vs ${plain.rawPayload.length}`)
  assert.deepEqual(brotliDecompressSync(br.rawPayload), plain.rawPayload)
  const gz = await w.app.inject({ method: 'GET', url: htmx, headers: { 'accept-encoding': 'gzip' } })
  assert.equal(gz.headers['content-encoding'], 'gzip')
  assert.deepEqual(gunzipSync(gz.rawPayload), plain.rawPayload)
  const dash = await alice.get('/', { 'accept-encoding': 'gzip' })
  assert.equal(dash.headers['content-encoding'], 'gzip')
  assert.match(gunzipSync(dash.rawPayload).toString(), /<h1>Dashboard/)
})

test("new-scan mistakes are said in the form's words and what was typed stays", async () => {
  const both = await alice.post('/scans/new', { tool_id: '70', target_id: '', target_name: '', 'p.70.ports': '22,80', max_scan_time: '7' })
  assert.equal(both.statusCode, 400)
  const msg = /class="msg error" role="alert">([^<]+)</.exec(both.body)![1]!
  assert.doesNotMatch(msg, /target_id|target_name/)
  assert.match(msg, /Choose a target/)
  const t = await alice.post('/targets', { name: 'words.example' })
  assert.equal(t.statusCode, 303)
  const bad = await alice.post('/scans/new', {
    tool_id: '70',
    target_name: 'words.example',
    'p.70.ports': '22,eighty',
    'p.70.timeout_ms': '1500',
    max_scan_time: '7',
  })
  assert.equal(bad.statusCode, 400)
  const m = /class="msg error" role="alert">([^<]+)</.exec(bad.body)![1]!
  assert.doesNotMatch(m, /tool_params/)
  assert.match(m, /^Ports/)
  assert.ok(bad.body.includes('name="p.70.ports" value="22,eighty"'), 'the typed ports stay')
  assert.ok(bad.body.includes('name="p.70.timeout_ms" value="1500"'), 'the typed timeout stays')
  assert.ok(bad.body.includes('id="max_scan_time" name="max_scan_time" min="1" max="1440" value="7"'))
  assert.ok(bad.body.includes('id="target_name" name="target_name" maxlength="2048" value="words.example"'))
})

test('the time left reads as words, never "about 0 s left"', () => {
  assert.equal(etaText(0), 'finishing')
  assert.equal(etaText(4), 'finishing')
  assert.equal(etaText(42), 'about 40 s left')
  assert.equal(etaText(125), 'about 2 min left')
  assert.equal(etaText(7300), 'about 2 h 2 min left')
})

test('a session that ended: live pages go to sign-in with a word and the way back; a triage sent then keeps its comment', async () => {
  const scan = (
    await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: 'ended.example', tool_params: { steps: 1, step_ms: 1 } } })
  ).json().data
  const scanId = scan.created_id ?? scan.id
  await waitForScan(w, scanId, isTerminal, 30000)
  const findingId = (await w.req('GET', `/api/v2/findings?task_id=${scanId}`)).json().data[0].id
  const other = await signIn(w, 'alice', 'violet tractor sandwich')
  assert.equal((await other.post('/sign-out')).statusCode, 303)
  // A live fragment polled with the ended session: to sign-in, saying why, back to the page (not the fragment).
  const frag = await other.get(`/scans/${scanId}/live`, { 'hx-request': 'true', 'hx-current-url': `http://localhost/scans/${scanId}` })
  assert.equal(frag.statusCode, 401)
  assert.equal(frag.headers['hx-redirect'], `/sign-in?next=%2Fscans%2F${scanId}&ended=1`)
  const signInPage = await w.app.inject({ method: 'GET', url: String(frag.headers['hx-redirect']) })
  assert.match(signInPage.body, /data-testid="session-ended"/)
  assert.match(signInPage.body, new RegExp(`name="next" value="/scans/${scanId}"`))
  // A triage form sent with the ended session: the sign-in page keeps the typed comment.
  const comment = 'checked with the <b>owner</b>, expected'
  const sent = await other.post(
    `/findings/${findingId}/triage`,
    { status: 'accepted', risk_level: '1', reason: comment },
    { referer: `http://localhost/findings/${findingId}` },
  )
  assert.equal(sent.statusCode, 401)
  assert.match(sent.body, /data-testid="session-ended"/)
  const kept = Object.fromEntries(
    [...sent.body.matchAll(/<input type="hidden" name="(resume[^"]*)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
    ]),
  )
  assert.equal(kept['resume.reason'], comment)
  assert.equal(kept.resume_to, `/findings/${findingId}/triage`)
  assert.match(sent.body, new RegExp(`name="next" value="/findings/${findingId}"`))
  // Signing in shows the kept form to send again; sending it triages the finding.
  const f = await signInForm(w)
  const back = await w.app.inject({
    method: 'POST',
    url: '/sign-in',
    headers: { cookie: f.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      _csrf: f.token,
      name: 'alice',
      password: 'violet tractor sandwich',
      next: `/findings/${findingId}`,
      ...kept,
    }).toString(),
  })
  assert.equal(back.statusCode, 200)
  assert.ok(back.body.includes('checked with the &lt;b&gt;owner&lt;/b&gt;, expected'), 'the comment is shown as text')
  const csrf = /<form method="post" action="[^"]+" class="actions"><input type="hidden" name="_csrf" value="([^"]+)">/.exec(back.body)![1]!
  const cookie = cookieOf(back, 'ward_session')
  const resent = await w.app.inject({
    method: 'POST',
    url: kept.resume_to!,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrf, status: 'accepted', risk_level: '1', reason: comment }).toString(),
  })
  assert.equal(resent.statusCode, 303)
  const f2 = (await w.req('GET', `/api/v2/findings/${findingId}`)).json().data
  assert.equal(f2.status, 'accepted')
})

test('findings show first and last seen, and a finding back after being fixed is a regression the list can filter', async () => {
  const run = async (quiet: number[]) => {
    const r = (
      await w.req('POST', '/api/v2/scans', {
        body: { tool_id: 9001, target_name: 'lifecycle.example', tool_params: { steps: 3, step_ms: 1, quiet_steps: quiet } },
      })
    ).json().data
    const id = r.created_id ?? r.id
    await waitForScan(w, id, isTerminal, 30000)
    return id
  }
  await run([])
  await run([1]) // step 1 looked at and clean: its finding is fixed
  const third = await run([]) // and back
  const apiRegressions = (await w.req('GET', `/api/v2/findings?task_id=${third}`)).json().data.filter((f: any) => f.regression)
  assert.ok(apiRegressions.length >= 1, 'the API sees a regression')
  const all = await alice.get('/findings?workspace_id=all')
  assert.match(all.body, /<th class="wide-only">First seen<\/th><th class="wide-only">Last seen<\/th>/)
  const only = await alice.get('/findings?workspace_id=all&regression=1')
  const ids = [...only.body.matchAll(/<tr data-finding-id="(\d+)">/g)].map((m) => Number(m[1]))
  assert.ok(ids.length >= 1 && ids.includes(apiRegressions[0].id), `${ids}`)
  assert.equal((only.body.match(/data-testid="regression"/g) ?? []).length, ids.length, 'every listed finding is marked a regression')
  assert.match(only.body, /id="f-regression" checked/)
  const page = await alice.get(`/findings/${ids[0]}`)
  assert.match(page.body, /<dt>First seen<\/dt><dd><time datetime="[^"]+"/)
  assert.match(page.body, /regression: back after being fixed/)
})

test('the new pages answer on this database: a target, schedules, a comparison, exports; another user gets 404s', async () => {
  const target = (await w.req('GET', '/api/v2/targets')).json().data.find((t: any) => t.name === 'lifecycle.example')
  const t = await alice.get(`/targets/${target.id}`)
  assert.equal(t.statusCode, 200)
  assert.match(t.body, /Scan history per tool[\s\S]*Diagnostic/)
  const scans = (await w.req('GET', `/api/v2/scans?target_id=${target.id}`))
    .json()
    .data.map((s: any) => s.id)
    .sort((a: number, b: number) => a - b)
  const changes = await alice.get(`/scans/${scans[2]}/changes`)
  assert.equal(changes.statusCode, 200)
  assert.match(changes.body, new RegExp(`data-testid="against">Against scan <a href="/scans/${scans[1]}">`))
  const made = await alice.post('/schedules', {
    from_scan_id: String(scans[0]),
    name: 'hourly',
    timing: 'interval',
    interval_minutes: '60',
  })
  assert.equal(made.statusCode, 303, made.body.slice(0, 300))
  assert.match((await alice.get('/schedules')).body, /hourly[\s\S]*every 60 min/)
  const badCron = await alice.post('/schedules', { from_scan_id: String(scans[0]), timing: 'cron', cron: 'not a cron', timezone: 'UTC' })
  assert.equal(badCron.statusCode, 400)
  const csv = await alice.get(`/findings/export.csv?workspace_id=all&target_id=${target.id}`)
  assert.equal(csv.statusCode, 200)
  assert.match(String(csv.headers['content-type']), /^text\/csv/)
  const bob = await w.user('carol')
  await setPassword(w, bob.userId)
  const other = await signIn(w, 'carol')
  for (const url of [`/targets/${target.id}`, `/scans/${scans[2]}/changes`, `/scans/${scans[0]}/live`])
    assert.equal((await other.get(url)).statusCode, 404, url)
  assert.doesNotMatch((await other.get('/schedules')).body, /hourly/)
  assert.doesNotMatch((await other.get(`/findings/export.csv?workspace_id=all&target_id=${target.id}`)).body, /lifecycle/)
})
