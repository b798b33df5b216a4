// Tool ids the field's client knows that Ward does not run (390, 490, 520): POST /scans and
// POST /schedules refuse them with a 400 naming the tool and why, and write nothing; an unknown id
// is still a 400 listing the known ids; GET /tools and the API document list only what runs.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startWard, type TestWard } from '../helpers/ward.js'

let w: TestWard
before(async () => {
  w = await startWard({ worker: false })
})
after(() => w.close())

const REFUSED: Array<{ id: number; name: RegExp; why: RegExp }> = [
  { id: 390, name: /Domain Finder/, why: /third-party data sources/ },
  { id: 490, name: /Sniper/, why: /would run exploits/ },
  { id: 520, name: /Cloud Scanner/, why: /cloud accounts/ },
]

const counts = async () => ({
  targets: (
    await w.h.db
      .selectFrom('targets')
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n,
  scans: (
    await w.h.db
      .selectFrom('scans')
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n,
  schedules: (
    await w.h.db
      .selectFrom('schedules')
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n,
})

test('POST /scans with 390, 490 or 520 → 400 naming the tool and why Ward does not run it; nothing is written', async () => {
  const before = await counts()
  for (const r of REFUSED) {
    const res = await w.req('POST', '/api/v2/scans', { body: { tool_id: r.id, target_name: `refused-${r.id}.example` } })
    assert.equal(res.statusCode, 400, res.body)
    const body = res.json()
    assert.equal(body.status, 400)
    assert.match(body.message, new RegExp(`tool_id ${r.id}`))
    assert.match(body.message, r.name)
    assert.match(body.message, r.why)
    assert.doesNotMatch(body.message, /known tool ids/, 'a refused id is not called unknown')
  }
  assert.deepEqual(await counts(), before, 'no target was created for the refused scans')
})

test('POST /schedules with a refused tool id → the same 400', async () => {
  const before = await counts()
  const res = await w.req('POST', '/api/v2/schedules', {
    body: { tool_id: 490, target_name: 'refused-schedule.example', interval_minutes: 60 },
  })
  assert.equal(res.statusCode, 400, res.body)
  assert.match(res.json().message, /Sniper.*would run exploits/)
  assert.deepEqual(await counts(), before)
})

test('an unknown tool id is still a 400 listing the known ids (which do not include the refused ones)', async () => {
  const res = await w.req('POST', '/api/v2/scans', { body: { tool_id: 391, target_name: 'unknown-tool.example' } })
  assert.equal(res.statusCode, 400)
  const body = res.json()
  assert.match(body.message, /unknown tool_id 391; known tool ids: .*170/)
  for (const r of REFUSED) assert.ok(!body.details.known_tool_ids.includes(r.id), `${r.id} is not listed as known`)
})

test('GET /tools lists only what runs; the API document names the refused ids on tool_id', async () => {
  const tools = (await w.req('GET', '/api/v2/tools')).json().data as Array<{ id: number }>
  for (const r of REFUSED) assert.ok(!tools.some((t) => t.id === r.id), `${r.id} not listed`)
  const doc = (await w.req('GET', '/api/v2/openapi.json', { key: null })).json()
  const schema = doc.paths['/api/v2/scans'].post.requestBody.content['application/json'].schema
  const description: string = schema.properties.tool_id.description
  assert.match(description, /170 Website Scanner/)
  assert.match(description, /Refused.*390 Domain Finder.*490 Sniper.*520 Cloud Scanner/)
})
