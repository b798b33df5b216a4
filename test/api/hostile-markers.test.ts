// ReDoS through authentication markers (issue 25, fault 4): a user's /regex/ marker runs on a
// linear-time engine (toolkit/safe-regex.ts). `/(a+)+$/` against a page of 34 `a` and `!` held the
// event loop for minutes on V8's backtracking engine; now the scan ends at once and the API keeps
// answering. Patterns only a backtracking engine can run are refused at POST /scans, named.
// Bed: 127.0.77.4.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, isTerminal, type TestWard } from '../helpers/ward.js'
import { startHostileSite, REDOS_MARKER, type HostileSite } from '../testbed/hostile-site.js'
import { safeRegex, UnsafePatternError } from '../../src/toolkit/safe-regex.js'

const HOST = '127.0.77.4'
let w: TestWard
let site: HostileSite

before(async () => {
  w = await startWard()
  site = await startHostileSite(HOST, 'redos')
})
after(async () => {
  await site?.close()
  await w?.close()
})

const auth = (marker: Record<string, string>) => ({ type: 'form', login_url: `${site.url}login`, username: 'u', password: 'p', ...marker })

test('a scan with the ReDoS failure_marker ends in bounded time, and the API answers meanwhile', async () => {
  const t0 = Date.now()
  const r = await w.req('POST', '/api/v2/scans', {
    body: {
      tool_id: 170,
      target_name: site.url,
      tool_params: { scan_type: 'light', authentication: auth({ failure_marker: REDOS_MARKER }) },
    },
  })
  assert.equal(r.statusCode, 201, r.body)
  const id = r.json().data.created_id
  // While it runs, the API answers: each list request is timed (the old engine held it for minutes).
  let slowest = 0
  let s: any
  for (;;) {
    const q0 = Date.now()
    const list = await w.req('GET', '/api/v2/scans')
    slowest = Math.max(slowest, Date.now() - q0)
    s = list.json().data.find((x: any) => x.id === id)
    if (isTerminal(s) || Date.now() - t0 > 30000) break
    await new Promise((res) => setTimeout(res, 25))
  }
  assert.ok(Date.now() - t0 < 30000, `the scan ended after ${Date.now() - t0} ms`)
  // Loose for a shared machine: the backtracking engine held the loop for minutes.
  assert.ok(slowest < 5000, `GET /api/v2/scans took ${slowest} ms`)
  assert.ok(site.requests() >= 1, 'the scan reached the bed')
  assert.ok(isTerminal(s), s.status_name)
})

test('markers only a backtracking engine can run are a 400 naming the parameter, and change nothing', async () => {
  const before = (await w.req('GET', '/api/v2/scans')).json().data.length
  for (const [key, marker, why] of [
    ['failure_marker', '/(a)\\1/', /backreferences/],
    ['success_marker', '/welcome(?=back)/i', /lookahead/],
    ['success_marker', '/(?<!x)y/', /lookahead and lookbehind/],
  ] as const) {
    const r = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 170, target_name: site.url, tool_params: { scan_type: 'light', authentication: auth({ [key]: marker }) } },
    })
    assert.equal(r.statusCode, 400, `${marker}: ${r.body}`)
    assert.equal(r.json().status, 400)
    assert.match(r.json().message, new RegExp(`tool_params\\.authentication\\.${key}`))
    assert.match(r.json().message, why)
    const fuzz = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 90, target_name: site.url, tool_params: { authentication: auth({ [key]: marker }) } },
    })
    assert.equal(fuzz.statusCode, 400, `URL fuzzer, ${marker}: ${fuzz.body}`)
  }
  assert.equal((await w.req('GET', '/api/v2/scans')).json().data.length, before)
})

test('safeRegex: linear on the ReDoS input, same answers as JS on ordinary patterns, refuses backtracking-only syntax', () => {
  const t0 = performance.now()
  assert.equal(safeRegex('(a+)+$').test('a'.repeat(100000) + '!'), false)
  assert.ok(performance.now() - t0 < 1000)
  assert.equal(safeRegex('welcome,\\s+\\w+', 'i').test('<p>Welcome, alice</p>'), true)
  assert.equal(safeRegex('^logout$', 'm').test('x\nlogout\ny'), true)
  assert.equal(safeRegex('a.b', 's').test('a\nb'), true)
  assert.equal(safeRegex('a.b').test('a\nb'), false)
  assert.deepEqual(safeRegex('v(\\d+)\\.(\\d+)').exec('app v2.14'), ['v2.14', '2', '14'])
  assert.throws(() => safeRegex('(a)\\1'), UnsafePatternError)
  assert.throws(() => safeRegex('a', 'v'), UnsafePatternError)
})
