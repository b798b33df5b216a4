// The layers of docs/architecture.md (its `layers` block, read by import-graph.ts) hold: every import in src/ points down the list
// cli > api/web > domain > engine > tools > toolkit > reports > store > config (or stays in its
// layer), api/web and engine never import each other, and no files import each other in a circle.
// Type-only imports count too: they tie a layer to another's vocabulary just the same. A separate
// check follows value imports through all layers: what loading the API (or the engine) loads.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { cycles, entriesInto, importGraph, importsOf, layerOf, layerProblem, type Edge } from './import-graph.js'

/**
 * Imports known to break the layering, each with why it is still here. Work in flight removes
 * them; the test fails when one of them no longer occurs, so the list only ever shrinks.
 * `from` ending in `/*` covers every file under that folder.
 */
const KNOWN_UPWARD: readonly { from: string; to: string; why: string }[] = []
const KNOWN_CYCLES: readonly { files: readonly string[]; why: string }[] = []

/**
 * What a process loads: the API must run without the engine, and a worker without the API (they
 * may run on different machines). Known paths by which the API still loads engine code, each with
 * why it is still here (same rules as above).
 */
const KNOWN_API_LOADS_ENGINE: readonly { from: string; to: string; why: string }[] = []

const matches = (k: { from: string; to: string }, e: Edge) =>
  e.to === k.to && (k.from.endsWith('/*') ? e.from.startsWith(k.from.slice(0, -1)) : e.from === k.from)

const edges = importGraph(join(import.meta.dirname, '../../src'))

test('no import runs up a layer (or between api/web and engine) beyond the known list', (t) => {
  const bad = edges.filter((e) => layerProblem(e))
  t.diagnostic(
    `${edges.length} imports; ${bad.length} up a layer (${bad.filter((e) => !e.typeOnly).length} of them value imports), ${bad.filter((e) => !KNOWN_UPWARD.some((k) => matches(k, e))).length} not in the known list`,
  )
  const unknown = bad
    .filter((e) => !KNOWN_UPWARD.some((k) => matches(k, e)))
    .map((e) => `src/${e.from} → src/${e.to}${e.typeOnly ? ' (type)' : ''}: ${layerProblem(e)}`)
  assert.deepEqual(unknown, [], `imports against the layers of docs/architecture.md:\n${unknown.join('\n')}`)
  const stale = KNOWN_UPWARD.filter((k) => !bad.some((e) => matches(k, e))).map((k) => `${k.from} → ${k.to}`)
  assert.deepEqual(stale, [], `these known violations are gone; remove them from KNOWN_UPWARD:\n${stale.join('\n')}`)
})

test('no files import each other in a circle beyond the known list', (t) => {
  // A lazy import() (a manifest loading its scanner) runs after both files loaded: not a cycle.
  const found = cycles(edges.filter((e) => !e.dynamic)).map((c) => c.join(' ↔ '))
  t.diagnostic(`${found.length} cycle(s)`)
  const known = KNOWN_CYCLES.map((c) => [...c.files].sort().join(' ↔ '))
  assert.deepEqual(
    found.filter((c) => !known.includes(c)),
    [],
    'import cycles',
  )
  assert.deepEqual(
    known.filter((c) => !found.includes(c)),
    [],
    'these known cycles are gone; remove them from KNOWN_CYCLES',
  )
})

test('loading the API loads no engine code, and loading the engine no API code (value imports, followed through every layer)', (t) => {
  const apiToEngine = entriesInto(edges, (f) => ['api', 'web'].includes(layerOf(f)), 'engine')
  const engineToApi = entriesInto(edges, (f) => layerOf(f) === 'engine', 'api').concat(
    entriesInto(edges, (f) => layerOf(f) === 'engine', 'web'),
  )
  t.diagnostic(`api/web → engine: ${apiToEngine.length} entry import(s); engine → api/web: ${engineToApi.length}`)
  const unknown = apiToEngine.filter((e) => !KNOWN_API_LOADS_ENGINE.some((k) => matches(k, e))).map((e) => `src/${e.from} → src/${e.to}`)
  assert.deepEqual(unknown, [], `the API process would load engine code through:\n${unknown.join('\n')}`)
  const stale = KNOWN_API_LOADS_ENGINE.filter((k) => !apiToEngine.some((e) => matches(k, e))).map((k) => `${k.from} → ${k.to}`)
  assert.deepEqual(stale, [], `gone; remove from KNOWN_API_LOADS_ENGINE:\n${stale.join('\n')}`)
  assert.deepEqual(
    engineToApi.map((e) => `src/${e.from} → src/${e.to}`),
    [],
    'a worker process would load API code',
  )
})

test('the layer rule: down or sideways is fine, up and api/web ↔ engine are not', () => {
  const ok = [
    ['cli/main.ts', 'api/app.ts'],
    ['api/routes/scans.ts', 'domain/scans.ts'],
    ['domain/scans.ts', 'store/scans.ts'],
    ['engine/worker.ts', 'tools/registry.ts'],
    ['tools/x/index.ts', 'toolkit/tool.ts'],
    ['toolkit/tool.ts', 'reports/evidence.ts'],
    ['reports/finding-view.ts', 'store/finding-rows.ts'],
    ['store/db.ts', 'config/config.ts'],
    ['web/pages.ts', 'domain/targets.ts'],
    ['engine/a.ts', 'engine/b.ts'],
  ]
  for (const [from, to] of ok) assert.equal(layerProblem({ from, to }), null, `${from} → ${to}`)
  const bad = [
    ['store/scans.ts', 'domain/scan-state.ts'],
    ['reports/scan-output.ts', 'api/views.ts'],
    ['toolkit/tool.ts', 'tools/registry.ts'],
    ['engine/worker.ts', 'api/app.ts'],
    ['api/app.ts', 'engine/worker.ts'],
    ['web/pages.ts', 'engine/worker.ts'],
    ['config/config.ts', 'store/db.ts'],
    ['tools/x/index.ts', 'engine/net/egress.ts'],
  ]
  for (const [from, to] of bad) assert.notEqual(layerProblem({ from, to }), null, `${from} → ${to}`)
  assert.throws(() => layerProblem({ from: 'gadgets/a.ts', to: 'store/db.ts' }), /not a layer/)
})

test('the graph reader sees every kind of import, and cycles of any length', () => {
  const src = [
    `import a from './a.js'`,
    `import type { B } from './b.js'`,
    `import { type C } from './c.js'`,
    `export { d } from './d.js'`,
    `export * from './e.js'`,
    `const f = await import('./f.js')`,
    `let g: import('./g.js').G`,
    `import 'node:fs'`,
    `// import h from './h.js'`,
  ].join('\n')
  assert.deepEqual(importsOf('x.ts', src), [
    { spec: './a.js', typeOnly: false },
    { spec: './b.js', typeOnly: true },
    { spec: './c.js', typeOnly: true },
    { spec: './d.js', typeOnly: false },
    { spec: './e.js', typeOnly: false },
    { spec: './f.js', typeOnly: false, dynamic: true },
    { spec: './g.js', typeOnly: true },
  ])
  const e = (from: string, to: string) => ({ from, to })
  assert.deepEqual(cycles([e('a', 'b'), e('b', 'c'), e('c', 'a'), e('c', 'd'), e('d', 'e'), e('e', 'd'), e('f', 'a')]), [
    ['a', 'b', 'c'],
    ['d', 'e'],
  ])
  assert.deepEqual(cycles([e('a', 'b'), e('b', 'c')]), [])
  const v = (from: string, to: string, typeOnly = false) => ({ from, to, typeOnly })
  const g = [
    v('api/a.ts', 'domain/d.ts'),
    v('domain/d.ts', 'engine/x.ts'),
    v('engine/x.ts', 'engine/y.ts'),
    v('api/a.ts', 'domain/t.ts'),
    v('domain/t.ts', 'engine/z.ts', true),
  ]
  assert.deepEqual(
    entriesInto(g, (f) => f.startsWith('api/'), 'engine'),
    [v('domain/d.ts', 'engine/x.ts')],
  )
})
