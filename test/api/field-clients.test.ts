// Replays, byte for byte in their headers and paths, what the field's clients send to a real
// `ward all` process (what `npm start` runs) on SQLite:
// - the public v2 Python client (`requests`): `Authorization` with a capital A, `Content-Type:
//   application/json` on every request (also GET, and bodiless POST/DELETE with `Content-Length: 0`),
//   a base URL ending in "/" so `scans/` has a trailing slash and `//scans/{id}/stop` a double slash,
//   and its key probe `GET scans/0` that must answer 404 "... not exist" with `application/json` exactly;
// - a curl user following the README (form-encoded POST /targets, lowercase header names).
// ward-test: single-run
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { startProc, stopProc, type WardProc } from '../helpers/processes.js'
import { startWeakWeb, type WebBed } from '../testbed/weak-web.js'

const BED_HOST = '127.0.12.3'
let ward: WardProc
let bed: WebBed
let key: string
let base: URL

before(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ward-field-'))
  key = `ward_${randomBytes(20).toString('hex')}`
  ward = await startProc('all', { WARD_DATABASE_URL: `sqlite:${path.join(dir, 'ward.db')}`, WARD_INITIAL_API_KEY: key, WARD_POLL_MS: '50' })
  base = new URL(`${ward.base}/api/v2/`)
  bed = await startWeakWeb(BED_HOST)
})
after(async () => {
  await bed?.close()
  if (ward) await stopProc(ward)
})

interface Answer {
  status: number
  contentType: string | undefined
  text: string
  json(): any
}

/** One HTTP/1.1 request with exactly these headers (node adds nothing but what is listed). */
function send(method: string, url: string, headers: Array<[string, string]>, body?: string): Promise<Answer> {
  const u = new URL(url)
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, method, path: u.pathname + u.search, headers: headers.flat(), setHost: false },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d) => (text += d))
        res.on('end', () =>
          resolve({ status: res.statusCode!, contentType: res.headers['content-type'], text, json: () => JSON.parse(text) }),
        )
      },
    )
    req.on('error', reject)
    if (body !== undefined) req.write(body)
    req.end()
  })
}

/** What python-requests sends: its default headers, then the client's own HEADERS dict. */
function python(method: string, pathFromBase: string, json?: unknown): Promise<Answer> {
  // The client builds URLs by string concatenation: API_URL + "scans/" or API_URL + f"/scans/{id}/stop".
  const url = base.href + pathFromBase
  // json.dumps' default separators.
  const body = json === undefined ? undefined : JSON.stringify(json).replace(/","/g, '", "').replace(/":/g, '": ').replace(/,"/g, ', "')
  const headers: Array<[string, string]> = [
    ['Host', base.host],
    ['User-Agent', 'python-requests/2.32.3'],
    ['Accept-Encoding', 'gzip, deflate'],
    ['Accept', '*/*'],
    ['Connection', 'keep-alive'],
    ['Authorization', `Bearer ${key}`],
    ['Content-Type', 'application/json'],
  ]
  // requests sets Content-Length: 0 on a bodiless POST/DELETE, nothing on a GET.
  if (body !== undefined) headers.push(['Content-Length', String(Buffer.byteLength(body))])
  else if (method !== 'GET') headers.push(['Content-Length', '0'])
  return send(method, url, headers, body)
}

function assertJson(a: Answer, status: number) {
  assert.equal(a.status, status, a.text)
  assert.equal(a.contentType, 'application/json', 'content-type compared for equality by the client')
}

async function pollUntilEnded(scanId: number): Promise<any> {
  const deadline = Date.now() + 60000
  for (;;) {
    const a = await python('GET', `scans/${scanId}`)
    assertJson(a, 200)
    const d = a.json().data
    // What the client's live status line reads on every poll.
    for (const k of ['progress', 'start_time', 'duration', 'num_tests', 'num_finished_tests', 'status_name']) assert.ok(k in d, k)
    if (!['waiting', 'running'].includes(d.status_name)) return d
    assert.ok(Date.now() < deadline, `scan ${scanId} still ${d.status_name}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

test('the public Python client: key probe, add target, scan by target_name, poll, output, stop, delete', async () => {
  // 1. Key probe: GET scans/0 → 404 with "not exist" and exactly application/json.
  const probe = await python('GET', 'scans/0')
  assertJson(probe, 404)
  assert.equal(probe.json().status, 404)
  assert.match(probe.json().message, /not exist/)
  // A wrong key is told apart: 401.
  const wrong = await send('GET', `${base.href}scans/0`, [
    ['Host', base.host],
    ['Authorization', 'Bearer nope'],
    ['Content-Type', 'application/json'],
  ])
  assert.equal(wrong.status, 401)

  // 2. add_target: JSON body on "targets".
  const added = await python('POST', 'targets', { name: `http://${BED_HOST}:${new URL(bed.httpUrl).port}/`, description: 'field client' })
  assertJson(added, 201)
  const targetId = added.json().data.created_id
  assert.equal(typeof targetId, 'number')

  // 3. start_scan: POST "scans/" (trailing slash) by target_name, as the client's main does.
  const started = await python('POST', 'scans/', { tool_id: 170, target_name: bed.httpUrl, tool_params: { scan_type: 'light' } })
  assertJson(started, 201)
  const scanId = started.json().data.created_id
  assert.equal(typeof scanId, 'number')

  // 4. Poll until the scan ends; the client waits for "finished".
  const ended = await pollUntilEnded(scanId)
  assert.equal(ended.status_name, 'finished', ended.status_message)
  assert.equal(typeof ended.status_message, 'string')

  // 5. get_output: a finding list whose findings carry what the client prints.
  const out = await python('GET', `scans/${scanId}/output`)
  assertJson(out, 200)
  const data = out.json().data
  assert.equal(data.output_type, 'finding_list')
  assert.ok(data.output_data.findings.length > 0)
  for (const f of data.output_data.findings)
    for (const k of ['name', 'vuln_description', 'risk_level', 'status', 'recommendation', 'vuln_evidence']) assert.ok(k in f, k)
  // The summary and the target name the client reads at the end.
  const summary = (await python('GET', `scans/${scanId}`)).json().data
  for (const k of ['high', 'medium', 'low', 'info']) assert.equal(typeof summary.result_summary[k], 'number')
  assert.ok(summary.start_time && summary.end_time)
  const target = await python('GET', `targets/${summary.target_id}`)
  assertJson(target, 200)
  assert.equal(target.json().data.name, bed.httpUrl)

  // get_scans with and without filters ("scans?" with an empty query included).
  assertJson(await python('GET', 'scans?'), 200)
  const filtered = await python('GET', `scans?workspace_id=${summary.workspace_id}&target_id=${summary.target_id}`)
  assertJson(filtered, 200)
  assert.deepEqual(
    filtered.json().data.map((s: any) => s.id),
    [scanId],
  )
  assertJson(await python('GET', `scans/${scanId}/tests`), 200)

  // 6. stop_scan / delete_scan: "/scans/{id}/stop" after a base ending in "/", Content-Type with no body.
  const stop = await python('POST', `/scans/${scanId}/stop`)
  assert.equal(stop.status, 204, stop.text)
  assert.equal(stop.text, '')
  const del = await python('DELETE', `/scans/${scanId}`)
  assert.equal(del.status, 204, del.text)
  assertJson(await python('GET', `scans/${scanId}`), 404)
})

test('the Python client stops a running scan and deletes it', async () => {
  // A slow diagnostic scan (enabled for tests by the process helper) that only a stop ends.
  const started = await python('POST', 'scans/', { tool_id: 9001, target_name: '127.0.12.9', tool_params: { steps: 1000, step_ms: 100 } })
  assertJson(started, 201)
  const id = started.json().data.created_id
  const deadline = Date.now() + 20000
  while ((await python('GET', `scans/${id}`)).json().data.status_name !== 'running') {
    assert.ok(Date.now() < deadline, 'scan started')
    await new Promise((r) => setTimeout(r, 100))
  }
  const busy = await python('DELETE', `/scans/${id}`)
  assertJson(busy, 409)
  assert.equal(busy.json().status, 409)
  assert.equal((await python('POST', `/scans/${id}/stop`)).status, 204)
  const ended = await pollUntilEnded(id)
  assert.equal(ended.status_name, 'stopped')
  assert.equal((await python('DELETE', `/scans/${id}`)).status, 204)
})

test('a curl user following the README: form-encoded targets, list, read, delete', async () => {
  const curl = (method: string, p: string, form?: Record<string, string>) => {
    const body = form ? new URLSearchParams(form).toString() : undefined
    const headers: Array<[string, string]> = [
      ['Host', base.host],
      ['User-Agent', 'curl/8.5.0'],
      ['Accept', '*/*'],
      ['authorization', `Bearer ${key}`],
    ]
    if (body !== undefined)
      headers.push(['Content-Length', String(Buffer.byteLength(body))], ['Content-Type', 'application/x-www-form-urlencoded'])
    return send(method, `${ward.base}/api/v2${p}`, headers, body)
  }
  const created = await curl('POST', '/targets', { name: 'www.example.com', description: 'Main site' })
  assertJson(created, 201)
  const id = created.json().data.created_id
  assertJson(await curl('POST', '/targets', { name: '192.0.2.10' }), 201)
  const dup = await curl('POST', '/targets', { name: 'www.example.com' })
  assertJson(dup, 409)
  assert.match(dup.json().message, /already exists/)
  const bad = await curl('POST', '/targets', { name: 'not_a_host' })
  assertJson(bad, 400)
  assert.match(bad.json().message, /is not a valid hostname, IP address or http\(s\) URL/)
  const list = await curl('GET', '/targets?type=ip_address&limit=10')
  assertJson(list, 200)
  assert.equal(list.json().data[0].name, '192.0.2.10', 'newest first')
  assert.ok(list.json().data.every((t: any) => t.type === 'ip_address'))
  const one = await curl('GET', `/targets/${id}`)
  assertJson(one, 200)
  assert.deepEqual(one.json().data, {
    id,
    name: 'www.example.com',
    type: 'hostname',
    description: 'Main site',
    workspace_id: one.json().data.workspace_id,
  })
  const del = await curl('DELETE', `/targets/${id}`)
  assert.equal(del.status, 204)
  assert.equal(del.text, '')
})

test('the Python client starts the new tools (160, 260, 270, 280) by target_name as it does the others; 490 is refused with its reason', async () => {
  for (const tool_id of [160, 260, 270, 280]) {
    const started = await python('POST', 'scans/', { tool_id, target_name: bed.httpUrl, tool_params: {} })
    assertJson(started, 201)
    const ended = await pollUntilEnded(started.json().data.created_id)
    assert.equal(ended.status_name, 'finished', `tool ${tool_id}: ${ended.status_message}`)
  }
  const refused = await python('POST', 'scans/', { tool_id: 490, target_name: bed.httpUrl, tool_params: {} })
  assertJson(refused, 400)
  assert.match(refused.json().message, /Sniper.*would run exploits/)
})
