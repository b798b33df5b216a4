import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../helpers/ward.js'

describe('wire details and auth', () => {
  let w: TestWard
  before(async () => {
    w = await startWard()
  })
  after(() => w.close())

  test('every endpoint requires a bearer key; the scheme word is case-insensitive', async () => {
    for (const [method, url] of [
      ['GET', '/api/v2/targets'],
      ['POST', '/api/v2/targets'],
      ['GET', '/api/v2/scans/1'],
      ['GET', '/api/v2/findings'],
      ['POST', '/api/v2/scans/1/stop'],
      ['DELETE', '/api/v2/targets/1'],
    ]) {
      const r = await w.req(method, url, { key: null })
      assert.equal(r.statusCode, 401, `${method} ${url}`)
      assert.equal(r.json().status, 401)
      assert.equal(r.headers['content-type'], 'application/json')
    }
    assert.equal((await w.req('GET', '/api/v2/targets', { key: 'ward_wrong' })).statusCode, 401)
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const r = await w.req('GET', '/api/v2/targets', { key: null, headers: { authorization: `${scheme} ${w.key}` } })
      assert.equal(r.statusCode, 200, scheme)
    }
    assert.equal((await w.req('GET', '/api/v2/targets', { key: null, headers: { authorization: `Basic ${w.key}` } })).statusCode, 401)
  })

  test('keys are stored only as SHA-256 hashes', async () => {
    const rows = await w.h.db.selectFrom('api_keys').selectAll().execute()
    assert.ok(rows.length > 0)
    for (const r of rows) {
      assert.match(r.key_hash, /^[0-9a-f]{64}$/)
      assert.notEqual(r.key_hash, w.key)
    }
    assert.ok(w.key.length >= 32, 'at least 160 bits of randomness')
  })

  test('content-type is exactly application/json, success bodies are wrapped in data', async () => {
    const r = await w.req('GET', '/api/v2/targets')
    assert.equal(r.headers['content-type'], 'application/json')
    assert.deepEqual(Object.keys(r.json()), ['data'])
  })

  test('trailing and duplicated slashes route as if absent', async () => {
    const t = (await w.req('POST', '/api/v2/targets', { form: { name: 'slash.example' } })).json().data.created_id
    for (const url of [`/api/v2/targets/${t}/`, `/api/v2//targets/${t}`, `//api/v2/targets//${t}/`, '/api/v2/targets/']) {
      assert.equal((await w.req('GET', url)).statusCode, 200, url)
    }
    assert.equal((await w.req('POST', '/api/v2//scans/999/stop')).statusCode, 404)
  })

  test('unknown routes 404, wrong methods 405, both with the error body', async () => {
    const r = await w.req('GET', '/api/v2/nothing-here')
    assert.equal(r.statusCode, 404)
    assert.deepEqual(Object.keys(r.json()).sort(), ['message', 'status'])
    const m = await w.req('PATCH', '/api/v2/targets')
    assert.equal(m.statusCode, 405)
    assert.equal(m.json().status, 405)
    assert.match(m.headers.allow as string, /GET/)
  })

  test('malformed JSON → 400, wrong content type → 415, oversized body → 413, empty body → 400', async () => {
    const bad = await w.req('POST', '/api/v2/targets', { body: '{"name":', headers: { 'content-type': 'application/json' } })
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.json().status, 400)
    const plain = await w.req('POST', '/api/v2/targets', { body: 'name=x.example', headers: { 'content-type': 'text/plain' } })
    assert.equal(plain.statusCode, 415)
    const huge = await w.req('POST', '/api/v2/targets', {
      body: JSON.stringify({ name: 'x.example', description: 'x'.repeat(2 * 1024 * 1024) }),
    })
    assert.equal(huge.statusCode, 413)
    assert.equal(huge.json().status, 413)
    const empty = await w.req('POST', '/api/v2/targets', { body: '', headers: { 'content-type': 'application/json' } })
    assert.equal(empty.statusCode, 400)
  })

  test('an id that is not plain decimal digits → 400; 0 is well-formed and names nothing → 404', async () => {
    assert.equal((await w.req('GET', '/api/v2/targets/0')).statusCode, 404)
    for (const id of ['-1', 'abc', '1.5', '99999999999999999999']) {
      const r = await w.req('GET', `/api/v2/targets/${id}`)
      assert.equal(r.statusCode, 400, id)
      assert.equal(r.json().status, 400)
    }
  })

  test('OpenAPI document lists every route and the docs page is served without auth', async () => {
    const r = await w.req('GET', '/api/v2/openapi.json', { key: null })
    assert.equal(r.statusCode, 200)
    const doc = r.json()
    const documented = new Set<string>()
    for (const [p, ops] of Object.entries<any>(doc.paths))
      for (const m of Object.keys(ops)) documented.add(`${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`)
    const expected = [
      'GET /api/v2/targets',
      'POST /api/v2/targets',
      'GET /api/v2/targets/:id',
      'DELETE /api/v2/targets/:id',
      'GET /api/v2/workspaces',
      'POST /api/v2/workspaces',
      'POST /api/v2/workspaces/:id/activate',
      'GET /api/v2/scans',
      'POST /api/v2/scans',
      'GET /api/v2/scans/:id',
      'DELETE /api/v2/scans/:id',
      'POST /api/v2/scans/:id/stop',
      'GET /api/v2/scans/:id/output',
      'GET /api/v2/scans/:id/raw',
      'GET /api/v2/scans/:id/tests',
      'GET /api/v2/findings',
      'GET /api/v2/findings/:id',
      'GET /api/v2/findings/:id/tests',
    ]
    for (const e of expected) assert.ok(documented.has(e), `${e} missing from OpenAPI`)
    // And every documented operation carries an error schema (so errors are documented too).
    for (const ops of Object.values<any>(doc.paths))
      for (const op of Object.values<any>(ops))
        assert.ok(
          Object.keys(op.responses).some((c) => c.startsWith('4')),
          op.summary,
        )
    const docs = await w.req('GET', '/api/v2/docs/', { key: null })
    assert.equal(docs.statusCode, 200)
    assert.match(docs.body, /swagger|Swagger/)
  })
})

describe('rate limits', () => {
  let w: TestWard
  before(async () => {
    w = await startWard({ env: { WARD_RATE_LIMIT: 'on', WARD_RATE_LIMIT_GET: '5', WARD_RATE_LIMIT_WRITE: '3' } })
  })
  after(() => w.close())

  test('per key: headers on every answer, 429 with reset and retry-after when exceeded', async () => {
    let last: Awaited<ReturnType<typeof w.req>> | undefined
    for (let i = 0; i < 5; i++) {
      last = await w.req('GET', '/api/v2/targets')
      assert.equal(last.statusCode, 200)
      assert.equal(last.headers['x-ratelimit-limit'], '5')
      assert.equal(last.headers['x-ratelimit-remaining'], String(4 - i))
    }
    const r = await w.req('GET', '/api/v2/targets')
    assert.equal(r.statusCode, 429)
    assert.equal(r.json().status, 429)
    assert.ok(r.headers['retry-after'])
    assert.ok(r.headers['x-ratelimit-reset'] !== undefined)
    // Writes have their own budget, and another key is not affected.
    assert.equal((await w.req('POST', '/api/v2/targets', { form: { name: 'rl.example' } })).statusCode, 201)
    const other = await w.user('rl-other')
    assert.equal((await w.req('GET', '/api/v2/targets', { key: other.key })).statusCode, 200)
  })
})
