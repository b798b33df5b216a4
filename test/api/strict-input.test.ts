// Input is read one way only: ids in plain decimal digits (never aliased), a filter given once,
// empty bodies accepted where nothing is required, and every refusal a sentence about the input in
// the error body of decisions.md.
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { startWard, tableCounts, waitForScan, isTerminal, type TestWard } from '../helpers/ward.js'

const ERROR_KEYS = (b: Record<string, unknown>) =>
  Object.keys(b)
    .filter((k) => k !== 'details')
    .sort()

function assertError(r: { statusCode: number; headers: Record<string, unknown>; json(): any }, status: number, message?: RegExp) {
  assert.equal(r.statusCode, status)
  assert.equal(r.headers['content-type'], 'application/json')
  const b = r.json()
  assert.deepEqual(ERROR_KEYS(b), ['message', 'status'])
  assert.equal(b.status, status)
  if (message) assert.match(b.message, message)
}

describe('strict input', () => {
  let w: TestWard
  let target: number
  let scan: number
  before(async () => {
    w = await startWard()
    target = (await w.req('POST', '/api/v2/targets', { form: { name: 'strict.example' } })).json().data.created_id
    const r = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: target, tool_params: {} } })
    assert.equal(r.statusCode, 201, r.body)
    scan = r.json().data.created_id
    // Row counts are compared below: the scan must be done writing.
    await waitForScan(w, scan, isTerminal)
  })
  after(() => w.close())

  test('GET /scans/0 is the 404 a field client probes its key with', async () => {
    const r = await w.req('GET', '/api/v2/scans/0')
    assertError(r, 404, /not exist/)
    for (const url of [
      '/api/v2/targets/0',
      '/api/v2/findings/0',
      '/api/v2/scans/0/output',
      '/api/v2/findings/0/tests',
      '/api/v2/scans/2147483647',
    ])
      assertError(await w.req('GET', url), 404, /does not exist/)
    for (const [m, url] of [
      ['DELETE', '/api/v2/targets/0'],
      ['POST', '/api/v2/scans/0/stop'],
      ['POST', '/api/v2/workspaces/0/activate'],
      ['DELETE', '/api/v2/scans/0'],
    ] as const)
      assertError(await w.req(m, url), 404, /does not exist/)
  })

  test('an id in any other spelling is a 400 on every id route, and never acts on id 1', async () => {
    const before = await tableCounts(w)
    for (const bad of ['abc', '1.5', '-1', '+1', '0x1', '1e0', '01', '1.0', '%201', '%2B1', '99999999999', '1%00']) {
      for (const [m, url] of [
        ['GET', `/api/v2/targets/${bad}`],
        ['DELETE', `/api/v2/targets/${bad}`],
        ['GET', `/api/v2/scans/${bad}`],
        ['DELETE', `/api/v2/scans/${bad}`],
        ['POST', `/api/v2/scans/${bad}/stop`],
        ['GET', `/api/v2/scans/${bad}/output`],
        ['GET', `/api/v2/scans/${bad}/tests`],
        ['GET', `/api/v2/scans/${bad}/raw`],
        ['GET', `/api/v2/findings/${bad}`],
        ['GET', `/api/v2/findings/${bad}/tests`],
        ['POST', `/api/v2/workspaces/${bad}/activate`],
      ] as const) {
        const r = await w.req(m, url)
        assertError(r, 400, /path parameter "id"/)
      }
    }
    assert.deepEqual(await tableCounts(w), before, 'no row changed')
    assert.equal((await w.req('GET', `/api/v2/targets/${target}`)).statusCode, 200)
  })

  test('integer filters: the same bad value gets the same 400 on every filter', async () => {
    for (const bad of ['-1', '+1', '0x1', '1e0', '01', '1.5', 'abc', '']) {
      const answers = new Set<string>()
      for (const [url, name] of [
        ['/api/v2/scans', 'tool_id'],
        ['/api/v2/scans', 'target_id'],
        ['/api/v2/scans', 'workspace_id'],
        ['/api/v2/findings', 'task_id'],
        ['/api/v2/findings', 'target_id'],
        ['/api/v2/targets', 'workspace_id'],
        ['/api/v2/targets', 'limit'],
      ]) {
        const r = await w.req('GET', `${url}?${name}=${encodeURIComponent(bad)}`)
        assertError(r, 400, new RegExp(`query parameter "${name}"`))
        answers.add(r.json().message.replace(`"${name}"`, '"X"'))
      }
      assert.equal(answers.size, 1, `one message for ${JSON.stringify(bad)}: ${[...answers].join(' | ')}`)
    }
  })

  test('bracket-style and repeated filters are refused, naming the parameter', async () => {
    for (const q of [
      'task_id[]=13',
      'task_id[a]=13',
      'status[]=open',
      'workspace_id[a]=',
      'task_id=1&task_id=2',
      'risk_level=1&risk_level=2',
    ]) {
      const r = await w.req('GET', `/api/v2/findings?${q}`)
      assertError(r, 400, new RegExp(`"${q.split('=')[0]!.replace(/[[\]]/g, '\\$&')}"`))
    }
    assertError(await w.req('GET', '/api/v2/scans?status[]=running'), 400, /"status\[\]"/)
    assertError(await w.req('GET', '/api/v2/scans?start_time[x]=2026-01-01'), 400, /start_time\[x\]/)
    assert.equal((await w.req('GET', '/api/v2/scans?start_time[from]=2026-01-01T00:00:00Z')).statusCode, 200)
    assert.equal((await w.req('GET', '/api/v2/findings?unknown_param=1')).statusCode, 200, 'unknown plain names are tolerated')
  })

  test('enum errors list the allowed values; messages speak of the input', async () => {
    assertError(
      await w.req('GET', '/api/v2/targets?type=server'),
      400,
      /query parameter "type" must be one of "hostname", "ip_address", "url"/,
    )
    assertError(await w.req('GET', '/api/v2/scans?status=done'), 400, /"finished".*"waiting"/)
    assertError(await w.req('GET', '/api/v2/targets?limit=0'), 400, /"limit" must be a whole number from 1 to 1000 \(got 0\)/)
    const cb = await w.req('POST', '/api/v2/scans', {
      body: { tool_id: 9001, target_id: target, report_callback: { url: 'https://a.example/', format: 'xml' } },
    })
    assertError(cb, 400, /"report_callback.format" must be one of "json", "pdf"/)
    const tp = await w.req('POST', '/api/v2/scans', { body: { tool_id: 170, target_id: target, tool_params: { scan_type: 'full' } } })
    assertError(tp, 400, /tool_params.scan_type must be one of "light", "deep"/)
    for (const r of [cb, tp]) assert.doesNotMatch(r.json().message, /constant|anyOf|schema/)
  })

  test('tool_params are validated completely when the scan is created', async () => {
    const before = await tableCounts(w)
    for (const [tool_id, tool_params, msg] of [
      [70, { ports: '0-70000' }, /tool_params.ports .*out of range/],
      [70, { ports: '90-80' }, /ends before it starts/],
      [350, { ports: '1-65536' }, /out of range/],
      [80, { ports: '70000' }, /tool_params.ports .*1-65535/],
      [70, { ports: 'top100', bogus: 1 }, /tool_params.bogus is not a parameter of this tool/],
      [70, { timeout_ms: 1 }, /tool_params.timeout_ms must be a whole number from 50 to 60000/],
    ] as const) {
      assertError(await w.req('POST', '/api/v2/scans', { body: { tool_id, target_name: '127.0.0.1', tool_params } }), 400, msg)
    }
    assert.deepEqual(await tableCounts(w), before, 'nothing created, not even the target')
  })

  test('an empty body with a JSON or form content type is fine where nothing is required', async () => {
    for (const ct of ['application/json', 'application/x-www-form-urlencoded', 'application/json; charset=utf-8', 'text/plain']) {
      assert.equal((await w.req('POST', `/api/v2/scans/${scan}/stop`, { headers: { 'content-type': ct } })).statusCode, 204, ct)
      assert.equal(
        (await w.req('POST', `/api/v2/workspaces/${w.workspaceId}/activate`, { headers: { 'content-type': ct } })).statusCode,
        204,
        ct,
      )
      assert.equal((await w.req('GET', `/api/v2/scans/${scan}`, { headers: { 'content-type': ct } })).statusCode, 200, ct)
    }
    // A body on a route that takes none is ignored, even one that is not JSON at all.
    const r = await w.app.inject({
      method: 'POST',
      url: `/api/v2/scans/${scan}/stop`,
      headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
      payload: '{not json',
    })
    assert.equal(r.statusCode, 204)
    // Where members are required, the empty body is reported as their absence.
    assertError(
      await w.req('POST', '/api/v2/targets', { headers: { 'content-type': 'application/json' } }),
      400,
      /body field "name" is required/,
    )
    assertError(
      await w.req('POST', '/api/v2/scans', { headers: { 'content-type': 'application/json' } }),
      400,
      /body field "tool_id" is required/,
    )
  })

  test('hostile JSON bodies get a sentence about the body', async () => {
    const post = (payload: string) =>
      w.app.inject({
        method: 'POST',
        url: '/api/v2/targets',
        headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
        payload,
      })
    assertError(await post('{"name":"a.example","__proto__":{"x":1}}'), 400, /must not contain a "__proto__" member/)
    assertError(await post('{"name":"a.example","constructor":{"prototype":{}}}'), 400, /"constructor"/)
    assertError(await post('{"name":'), 400, /not valid JSON/)
    assertError(await post('[]'), 400, /request body must be an object/)
    assertError(await post('{"name":"a\\u0000.example"}'), 400, /NUL/)
    assertError(await post(`{"name":${'['.repeat(5000)}${']'.repeat(5000)}}`), 400, /nested/)
    assertError(await post(`{"name":"${'a'.repeat(2 * 1024 * 1024)}"}`), 413)
    assertError(
      await w.app.inject({
        method: 'POST',
        url: '/api/v2/targets',
        headers: { authorization: `Bearer ${w.key}`, 'content-type': 'text/xml' },
        payload: '<a/>',
      }),
      415,
    )
  })

  test('the scan resource: status_message is a string, with workspace, VPN profile and scan_original_url', async () => {
    const s = (await w.req('GET', `/api/v2/scans/${scan}`)).json().data
    assert.equal(typeof s.status_message, 'string')
    assert.equal(s.workspace_id, w.workspaceId)
    assert.equal(s.vpn_profile_uuid, null)
    assert.equal(s.scan_original_url, false)
    const list = (await w.req('GET', '/api/v2/scans')).json().data
    assert.ok(
      list.every((x: any) => typeof x.status_message === 'string' && 'vpn_profile_uuid' in x && typeof x.scan_original_url === 'boolean'),
    )
    const q = await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_id: target, scan_original_url: true } })
    const queued = (await w.req('GET', `/api/v2/scans/${q.json().data.created_id}`)).json().data
    assert.equal(queued.scan_original_url, true)
    assert.equal(typeof queued.status_message, 'string')
  })

  test('GET /tools lists every tool with the JSON schema of its tool_params', async () => {
    const r = await w.req('GET', '/api/v2/tools')
    assert.equal(r.statusCode, 200)
    const tools = r.json().data as any[]
    for (const id of [20, 70, 80, 90, 160, 170, 260, 270, 280, 310, 350, 400, 450]) {
      const t = tools.find((x) => x.id === id)
      assert.ok(t, `tool ${id}`)
      assert.ok(t.name && t.description, `tool ${id} named and described`)
      assert.equal(t.tool_params.type, 'object')
      assert.equal(typeof t.supports_max_scan_time, 'boolean')
    }
    assert.deepEqual(
      tools.find((x) => x.id === 170).tool_params.properties.scan_type.anyOf.map((a: any) => a.const),
      ['light', 'deep'],
    )
    assert.equal((await w.req('GET', '/api/v2/tools', { key: null })).statusCode, 401)
  })

  test('errors of the HTTP layer carry the error body too: 404 route, 405, 431, over-long path', async () => {
    assertError(await w.req('GET', '/api/v2/nothing'), 404, /does not exist/)
    assertError(await w.req('PUT', '/api/v2/targets'), 405)
    const long = await w.req('GET', `/api/v2/targets/${'9'.repeat(5000)}`)
    assert.ok([400, 404, 414].includes(long.statusCode))
    assertError(long, long.statusCode)
    // Node's parser answers these before Fastify: a real socket is needed.
    await w.app.listen({ host: '127.0.0.1', port: 0 })
    const port = (w.app.server.address() as net.AddressInfo).port
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const s = net.connect(port, '127.0.0.1', () => s.end(request))
        let out = ''
        s.on('data', (d) => (out += d))
        s.on('end', () => resolve(out))
        s.on('error', reject)
      })
    const big = await raw(`GET /api/v2/targets HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20000)}\r\n\r\n`)
    assert.match(big, /^HTTP\/1.1 431 /)
    assert.match(big, /content-type: application\/json\r\n/i)
    assert.deepEqual(ERROR_KEYS(JSON.parse(big.split('\r\n\r\n')[1]!)), ['message', 'status'])
    const longUrl = await raw(`GET /api/v2/targets?q=${'a'.repeat(20000)} HTTP/1.1\r\nhost: x\r\n\r\n`)
    assert.match(longUrl, /^HTTP\/1.1 (414|431) /)
    assert.equal(JSON.parse(longUrl.split('\r\n\r\n')[1]!).status, Number(longUrl.slice(9, 12)))
    const garbage = await raw('NOT HTTP\r\n\r\n')
    assert.match(garbage, /^HTTP\/1.1 400 /)
  })
})
