// The pages through inject, against a real Ward with a worker: the API's refusals shown as sentences,
// stop/delete, triage, workspaces and VPN profiles, tenancy on every page and fragment, and the
// time the first pages take on the embedded database.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'
import { setPassword, signIn, type WebSession } from '../helpers/web.js'

let w: TestWard
let alice: WebSession
let bob: WebSession
let scanId: number
let findingId: number
let targetId: number

before(async () => {
  w = await startWard({ env: { WARD_TARGET_BLOCKLIST: 'blocked.example', WARD_SIGNIN_LIMIT: '50' } })
  await setPassword(w, w.userId)
  const b = await w.user('bob')
  await setPassword(w, b.userId)
  alice = await signIn(w, 'alice')
  bob = await signIn(w, 'bob')
  const t = await alice.post('/targets', { name: 'diag.example', description: 'made on the page' })
  assert.equal(t.statusCode, 303)
  targetId = (await w.req('GET', '/api/v2/targets')).json().data[0].id
  const s = await alice.post('/scans/new', {
    tool_id: '9001',
    target_id: String(targetId),
    'p.9001.steps': '4',
    'p.9001.step_ms': '10',
    'p.9001.ignore_abort': 'false',
    max_scan_time: '5',
  })
  assert.equal(s.statusCode, 303, s.body)
  scanId = Number(/\/scans\/(\d+)/.exec(String(s.headers.location))![1])
  await waitForScan(w, scanId, isTerminal, 30000)
  findingId = (await w.req('GET', `/api/v2/findings?task_id=${scanId}`)).json().data[0].id
})
after(() => w.close())

test("a scan started from the form runs with the form's tool_params and shows its results", async () => {
  const s = (await w.req('GET', `/api/v2/scans/${scanId}`)).json().data
  assert.equal(s.status_name, 'finished')
  assert.equal(s.num_tests, 4)
  const page = await alice.get(`/scans/${scanId}`)
  assert.equal(page.statusCode, 200)
  for (const text of ['data-status="finished"', '100 %', '4 of 4 tests finished', 'Download PDF report', `/findings/${findingId}`])
    assert.ok(page.body.includes(text), text)
  const frag = await alice.get(`/scans/${scanId}/progress?live=1`, { 'hx-request': 'true' })
  assert.equal(frag.headers['hx-refresh'], 'true', 'a page watching the scan reloads once it ended')
  assert.doesNotMatch(frag.body, /hx-trigger/)
  const pdf = await alice.get(`/scans/${scanId}/report.pdf`)
  assert.equal(pdf.headers['content-type'], 'application/pdf')
  assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-')
  const json = JSON.parse((await alice.get(`/scans/${scanId}/output.json`)).body)
  assert.equal(json.data.output_data.findings.length, 2)
})

test("the API's refusals appear as sentences: blacklisted, duplicate, bad name, bad tool parameter", async () => {
  const cases: Array<[Record<string, string>, number, RegExp]> = [
    [{ name: 'blocked.example' }, 403, /blacklisted/],
    [{ name: 'diag.example' }, 409, /already exists in this workspace/],
    [{ name: 'not a target!' }, 400, /./],
  ]
  for (const [form, status, msg] of cases) {
    const r = await alice.post('/targets', form)
    assert.equal(r.statusCode, status, form.name)
    assert.match(/class="msg error" role="alert">([^<]+)</.exec(r.body)![1]!, msg)
  }
  const bad = await alice.post('/scans/new', {
    tool_id: '70',
    target_id: String(targetId),
    'p.70.ports': 'lots',
    'p.70.service_detection': 'true',
  })
  assert.equal(bad.statusCode, 400)
  assert.match(bad.body, /class="msg error" role="alert">[^<]*ports/)
})

test('targets can be searched (LIKE wildcards are plain characters) and filtered by type', async () => {
  assert.match((await alice.get('/targets?q=DIAG')).body, /diag\.example/)
  for (const q of ['%', '_', 'diag_example', 'nothing'])
    assert.doesNotMatch((await alice.get(`/targets?q=${encodeURIComponent(q)}`)).body, /diag\.example/, q)
  assert.doesNotMatch((await alice.get('/targets?type=url')).body, /diag\.example/)
  assert.match((await alice.get('/targets?type=hostname')).body, /diag\.example/)
  const odd = await alice.post('/scans/new', { tool_id: 'x', workspace_id: 'x', target_name: 'odd.example' })
  assert.equal(odd.statusCode, 400, 'a malformed form is a 400, never a 500')
})

test('the target limit is explained', async () => {
  const c = await w.user('carl', { maxTargets: 1 })
  await setPassword(w, c.userId)
  const carl = await signIn(w, 'carl')
  assert.equal((await carl.post('/targets', { name: 'one.example' })).statusCode, 303)
  const r = await carl.post('/targets', { name: 'two.example' })
  assert.equal(r.statusCode, 403)
  assert.match(r.body, /Too many targets/)
  assert.match((await carl.get('/profile')).body, /1 of at most 1/)
})

test('deleting a target with a running scan is refused with the 409 explained; stop then delete works', async () => {
  const s = await alice.post('/scans/new', {
    tool_id: '9001',
    target_id: String(targetId),
    'p.9001.steps': '1000',
    'p.9001.step_ms': '50',
    'p.9001.ignore_abort': 'false',
  })
  const id = Number(/\/scans\/(\d+)/.exec(String(s.headers.location))![1])
  await waitForScan(w, id, (x) => x.status_name === 'running', 20000)
  const live = await alice.get(`/scans/${id}/progress`)
  assert.match(live.body, /hx-trigger="every 1s"/)
  const del = await alice.post(`/targets/${targetId}/delete`)
  assert.equal(del.statusCode, 409)
  assert.match(del.body, /running scan/)
  const delScan = await alice.post(`/scans/${id}/delete`)
  assert.equal(delScan.statusCode, 409)
  assert.equal((await alice.post(`/scans/${id}/stop`)).statusCode, 303)
  assert.equal((await waitForScan(w, id, isTerminal, 20000)).status_name, 'stopped')
  assert.equal((await alice.post(`/scans/${id}/delete`)).statusCode, 303)
  assert.equal((await w.req('GET', `/api/v2/scans/${id}`)).statusCode, 404)
})

test('triage on the finding page changes the finding for the API and keeps the comment in its history', async () => {
  const r = await alice.post(`/findings/${findingId}/triage`, { status: 'false_positive', risk_level: '1', reason: 'lab only' })
  assert.equal(r.statusCode, 303)
  const f = (await w.req('GET', `/api/v2/findings/${findingId}`)).json().data
  assert.equal(f.status, 'false_positive')
  assert.equal(f.risk_level, 1)
  const h = (await w.req('GET', `/api/v2/findings/${findingId}/history`)).json().data
  assert.ok(h.some((e: any) => e.field === 'status' && e.new_value === 'false_positive' && e.reason === 'lab only'))
  assert.match((await alice.get(`/findings/${findingId}`)).body, /lab only/)
  assert.equal((await alice.post(`/findings/${findingId}/triage`, { status: 'gone' })).statusCode, 400)
})

test('workspaces: create, rename (duplicates refused), default VPN profile; VPN profiles page', async () => {
  assert.equal((await alice.post('/workspaces', { name: 'Red' })).statusCode, 303)
  const ws = (await w.req('GET', '/api/v2/workspaces')).json().data.find((x: any) => x.name === 'Red')
  assert.equal((await alice.post(`/workspaces/${ws.id}/rename`, { name: 'Default' })).statusCode, 409)
  assert.equal((await alice.post(`/workspaces/${ws.id}/rename`, { name: 'Crimson' })).statusCode, 303)
  const bad = await alice.post('/vpn-profiles', { name: 'p', type: 'socks5', host: 'proxy.example' })
  assert.equal(bad.statusCode, 400)
  assert.match(bad.body, /needs host and port/)
  assert.equal(
    (
      await alice.post('/vpn-profiles', {
        name: 'Office',
        type: 'socks5',
        host: '127.0.25.9',
        port: '1080',
        username: 'u',
        password: 'secret-pw',
      })
    ).statusCode,
    303,
  )
  const p = (await w.req('GET', '/api/v2/vpn_profiles')).json().data[0]
  assert.equal((await alice.post(`/workspaces/${ws.id}/vpn`, { vpn_profile_uuid: p.uuid })).statusCode, 303)
  const after = (await w.req('GET', '/api/v2/workspaces')).json().data.find((x: any) => x.id === ws.id)
  assert.equal(after.name, 'Crimson')
  assert.equal(after.vpn_profile_uuid, p.uuid)
  const page = await alice.get('/vpn-profiles')
  assert.ok(page.body.includes('Office') && !page.body.includes('secret-pw'), 'the password is never shown')
})

test('the target page shows what the newest finished scans know: versions, certificate expiry, technologies, subdomains', async () => {
  // Scans of the inventory tools on this target, as their tools would have stored them (docs/outputs.md).
  const base = await w.h.db.selectFrom('scans').selectAll().where('id', '=', scanId).executeTakeFirstOrThrow()
  const { id: _id, ...row } = base
  const soon = new Date(Date.now() + 10.5 * 86400000).toISOString()
  const stored = async (tool_id: number, output: unknown, status = 'finished') =>
    (
      await w.h.db
        .insertInto('scans')
        .values({ ...row, tool_id, status, output_data: JSON.stringify(output) })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
  await stored(70, { ports: [{ port: 2222, protocol: 'tcp', state: 'open', service: 'ssh', product: 'OpenSSH', version: '7.4' }] })
  // A newer scan that did not finish says nothing: the finished one is what Ward knows.
  await stored(450, {
    certificates: [{ position: 0, subject: 'CN=old.example', issuer: 'CN=x', valid_to: soon, fingerprint_sha256: 'aa' }],
  })
  const tls = await stored(450, {
    certificates: [{ position: 0, subject: 'CN=<b>diag.example</b>', issuer: 'CN=Test CA', valid_to: soon, fingerprint_sha256: 'ab:cd' }],
  })
  await stored(450, { certificates: [] }, 'stopped')
  await stored(310, {
    technologies: [
      { name: 'nginx', version: '1.18.0', categories: ['Web servers'] },
      { name: 'jQuery', version: null },
    ],
  })
  await stored(170, {
    components: [
      { product: 'nginx', version: null, source: 'header' },
      { product: 'PHP', version: '7.4.3', source: 'header' },
    ],
  })
  await stored(20, {
    subdomains: [
      { hostname: 'www.diag.example', ip_address: '127.0.0.1', resolved: true },
      { hostname: 'old.diag.example', ip_address: null, resolved: false },
    ],
  })

  const r = await alice.get(`/targets/${targetId}`)
  assert.equal(r.statusCode, 200)
  const services = /data-testid="services">([\s\S]*?)<\/table>/.exec(r.body)?.[1] ?? ''
  assert.match(services, /2222[\s\S]*ssh[\s\S]*OpenSSH 7\.4/)
  const cert = /data-testid="certificate">([\s\S]*?)<\/dl>/.exec(r.body)?.[1] ?? ''
  assert.match(cert, /CN=&lt;b&gt;diag\.example&lt;\/b&gt;/, 'the subject, escaped')
  assert.match(cert, /expires in 10 days/)
  assert.match(r.body, new RegExp(`Certificate <small class="muted">\\(scan <a href="/scans/${tls}">`), 'from the newest finished TLS scan')
  const tech = /data-testid="technologies">([\s\S]*?)<\/ul>/.exec(r.body)?.[1] ?? ''
  assert.equal((tech.match(/<li>/g) ?? []).length, 3, `nginx once, jQuery, PHP: ${tech}`)
  assert.match(tech, /nginx <span class="mono">1\.18\.0<\/span>/)
  assert.match(tech, /PHP <span class="mono">7\.4\.3<\/span>/)
  const subs = /data-testid="subdomains">([\s\S]*?)<\/table>/.exec(r.body)?.[1] ?? ''
  assert.match(subs, /www\.diag\.example[\s\S]*127\.0\.0\.1/)
  assert.match(subs, /old\.diag\.example[\s\S]*not resolved/)
  // Bob's own target page does not exist for him: nothing of alice's inventory.
  const other = await bob.get(`/targets/${targetId}`)
  assert.equal(other.statusCode, 404)
  assert.doesNotMatch(other.body, /diag\.example/)
})

test('a second user sees nothing of the first through any page or fragment', async () => {
  const mine = [
    `/scans/${scanId}`,
    `/scans/${scanId}/progress`,
    `/scans/${scanId}/report.pdf`,
    `/scans/${scanId}/output.json`,
    `/findings/${findingId}`,
  ]
  for (const url of mine) assert.equal((await bob.get(url)).statusCode, 404, url)
  const writes = [
    `/scans/${scanId}/stop`,
    `/scans/${scanId}/delete`,
    `/targets/${targetId}/delete`,
    `/findings/${findingId}/triage`,
    `/workspaces/${w.workspaceId}/activate`,
    `/workspaces/${w.workspaceId}/rename`,
  ]
  for (const url of writes) assert.equal((await bob.post(url, { name: 'x', status: 'fixed' })).statusCode, 404, url)
  for (const url of [
    '/',
    '/targets',
    '/scans',
    '/findings?workspace_id=all',
    `/findings?workspace_id=${w.workspaceId}`,
    `/scans?target_id=${targetId}`,
    '/workspaces',
    '/vpn-profiles',
    '/profile',
  ]) {
    const body = (await bob.get(url)).body
    assert.ok(!body.includes('diag.example') && !body.includes('Crimson') && !body.includes('Office'), `${url} shows alice's data`)
  }
  assert.equal((await w.req('GET', `/api/v2/findings/${findingId}`)).json().data.status, 'false_positive', 'unchanged by bob')
})

test('first pages answer in under 200 ms on SQLite', async (t) => {
  const times: Record<string, number> = {}
  for (const url of [
    '/sign-in',
    '/',
    '/targets',
    '/scans',
    `/scans/${scanId}`,
    '/findings',
    `/findings/${findingId}`,
    '/profile',
    '/scans/new',
  ]) {
    const runs: number[] = []
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now()
      const r = url === '/sign-in' ? await w.app.inject({ method: 'GET', url }) : await alice.get(url)
      runs.push(performance.now() - t0)
      assert.equal(r.statusCode, 200, url)
    }
    times[url] = Math.round(runs.sort((a, b) => a - b)[2]! * 10) / 10
  }
  t.diagnostic(`median ms: ${JSON.stringify(times)}`)
  for (const [url, ms] of Object.entries(times)) assert.ok(ms < 200, `${url}: ${ms} ms`)
})
