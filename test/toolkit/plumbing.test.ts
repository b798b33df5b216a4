// The toolkit's plumbing: the scan budget's limits, the one test recorder, the port plan.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ScanBudget, scanBudget } from '../../src/toolkit/budget.js'
import { createRecorder, NotApplicable } from '../../src/toolkit/recorder.js'
import { parsePortPlan, portSpecProblem, withPortPlan, type PortLists } from '../../src/toolkit/ports.js'
import { ToolStartError } from '../../src/toolkit/errors.js'
import type { Check } from '../../src/toolkit/check.js'
import type { FindingInput, ScanContext } from '../../src/toolkit/tool.js'

const tick = () => new Promise((r) => setTimeout(r, 2))

test('budget: never more than perHost against one host, nor more than total in all', async () => {
  const b = new ScanBudget({ total: 5, perHost: 2 })
  const now = new Map<string, number>()
  let all = 0
  let maxAll = 0
  const maxHost = new Map<string, number>()
  const items = Array.from({ length: 30 }, (_, i) => `h${i % 4}`)
  await b.each(items, { limit: 30, host: (h) => h }, async (h) => {
    now.set(h, (now.get(h) ?? 0) + 1)
    all++
    maxAll = Math.max(maxAll, all)
    maxHost.set(h, Math.max(maxHost.get(h) ?? 0, now.get(h)!))
    await tick()
    now.set(h, now.get(h)! - 1)
    all--
  })
  assert.equal(maxAll, 5)
  assert.deepEqual([...maxHost.values()], [2, 2, 2, 2])
})

test('budget: one per scan (same signal, same budget); results in order; an abort starts nothing new', async () => {
  const ac = new AbortController()
  assert.equal(scanBudget({ signal: ac.signal }), scanBudget({ signal: ac.signal }))
  assert.notEqual(scanBudget({ signal: ac.signal }), scanBudget({ signal: new AbortController().signal }))
  const b = new ScanBudget({ total: 2, perHost: 2 })
  assert.deepEqual(await b.map([3, 1, 2], { limit: 3, host: 'h' }, async (n) => (await tick(), n * 2)), [6, 2, 4])
  let started = 0
  const r = await b.map([1, 2, 3, 4], { limit: 1, host: 'h', signal: ac.signal }, async (n) => {
    started++
    if (n === 2) ac.abort()
    return n
  })
  assert.equal(started, 2)
  assert.deepEqual([r[0], r[1], r[2], r[3]], [1, 2, undefined, undefined])
})

const check = { id: 'x.y.z', name: 'Z' } as Check

function fakeCtx(aborted = false) {
  const tests: Array<{ name: string; status: string; message?: string; findings: FindingInput[] }> = []
  const logs: string[] = []
  const ctx = {
    signal: aborted ? AbortSignal.abort() : new AbortController().signal,
    log: (l: string) => void logs.push(l),
    async test(name: string) {
      const t = { name, status: 'running', findings: [] as FindingInput[] } as (typeof tests)[number]
      tests.push(t)
      return {
        finding: async (f: FindingInput) => void t.findings.push(f),
        done: async () => void (t.status = 'done'),
        error: async (m: string) => void Object.assign(t, { status: 'error', message: m }),
        skip: async (m: string) => void Object.assign(t, { status: 'skipped', message: m }),
      }
    },
  } as unknown as ScanContext<unknown>
  return { ctx, tests, logs }
}

test('recorder: hits become findings placed where the test looked; strings skip; throws are errors or skips', async () => {
  const { ctx, tests, logs } = fakeCtx()
  let done = 0
  const rec = createRecorder(ctx, { logHits: true, logErrors: true, errorMessage: (n, e) => `${n}: ${e.message}`, onDone: () => done++ })
  await rec.test(
    'a',
    'd',
    () => [
      { check, detail: 'one' },
      { check, port: 8443 },
    ],
    { where: { port: 443, protocol: 'tcp', service: 'https' } },
  )
  await rec.test('b', 'd', () => 'no web server')
  await rec.test('c', 'd', async () => {
    throw new Error('reset')
  })
  await rec.test('d', 'd', async () => {
    throw new NotApplicable('speaks SSH')
  })
  await rec.test('e', 'd', async (t) => void (await t.finding({ check })), { where: { port: 21 } })
  assert.deepEqual(
    tests.map((t) => [t.name, t.status, t.message]),
    [
      ['a', 'done', undefined],
      ['b', 'skipped', 'no web server'],
      ['c', 'error', 'c: reset'],
      ['d', 'skipped', 'not applicable: speaks SSH'],
      ['e', 'done', undefined],
    ],
  )
  assert.deepEqual(
    tests[0]!.findings.map((f) => [f.port, f.service, f.detail]),
    [
      [443, 'https', 'one'],
      [8443, 'https', undefined],
    ],
  )
  assert.equal(tests[4]!.findings[0]!.port, 21)
  assert.equal(rec.findings, 3)
  assert.equal(rec.done, 5)
  assert.equal(done, 5)
  assert.ok(logs.includes('FOUND x.y.z 443/tcp') && logs.includes('c: reset'))
})

test('recorder: after a stop, a quiet recorder records nothing; an empty result is a skip', async () => {
  const quiet = fakeCtx(true)
  await createRecorder(quiet.ctx, { quietAfterStop: true }).test('a', 'd', () => [])
  assert.equal(quiet.tests.length, 0)
  const loud = fakeCtx(true)
  await createRecorder(loud.ctx).test('a', 'd', () => [])
  assert.equal(loud.tests[0]!.status, 'skipped')
})

const lists: PortLists = { protocol: 'udp', top100: [53, 161], top1000: [53, 161, 1], explicitOrder: 'ascending' }

test('port plan: one parser, the tool lists and order, named problems, and a run that receives the plan', async () => {
  assert.deepEqual(parsePortPlan('top100', lists), { protocol: 'udp', spec: 'top100', named: 'top100', ports: [53, 161] })
  assert.deepEqual(parsePortPlan('9, 7-8, 9', lists).ports, [7, 8, 9])
  assert.deepEqual(parsePortPlan('9, 7-8', { ...lists, explicitOrder: 'given' }).ports, [9, 7, 8])
  assert.match(portSpecProblem('1-70000', lists)!, /70000 is out of range/)
  assert.equal(portSpecProblem('all', lists), undefined)
  let got: unknown
  const run = withPortPlan(lists, async (_ctx, plan) => void (got = plan.ports))
  await run({ params: { ports: '161,53' } } as ScanContext<{ ports: string }>)
  assert.deepEqual(got, [53, 161])
  await assert.rejects(run({ params: { ports: '0' } } as ScanContext<{ ports: string }>), ToolStartError)
})
