// No function in src/ is longer than 100 lines: a function that long does several things, and a
// reader has to hold all of them at once. Measured with the TypeScript parser from a function's
// first token to its last, nested functions included in the one around them.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { functionSpans, functionsOf } from './function-length.js'

const MAX_LINES = 100

/**
 * Exempt for good: migrations are history. Once shipped a migration is never edited, and the first
 * one is the whole initial schema, a table of columns more than a procedure.
 */
const EXEMPT_FOLDERS = ['store/migrations/']

/**
 * Functions known to be longer, each with why it is still here. Work in flight removes them; the
 * test fails when one of them is no longer over the limit, so the list only ever shrinks.
 */
const KNOWN_LONG: readonly { file: string; name: string; why: string }[] = []

const key = (f: { file: string; name: string }) => `src/${f.file} ${f.name}`
const spans = functionSpans(join(import.meta.dirname, '../../src')).filter((f) => !EXEMPT_FOLDERS.some((d) => f.file.startsWith(d)))

test(`no function in src/ is longer than ${MAX_LINES} lines beyond the known list`, (t) => {
  const long = spans.filter((f) => f.lines > MAX_LINES)
  t.diagnostic(
    `${spans.length} functions; ${spans.filter((f) => f.lines >= 80).length} of 80+ lines; ${long.length} over ${MAX_LINES}, ${long.filter((f) => !KNOWN_LONG.some((k) => key(k) === key(f))).length} not in the known list`,
  )
  // The known list, for whoever empties it: printed so the run log shows what is left.
  for (const f of long.filter((f) => KNOWN_LONG.some((k) => key(k) === key(f))))
    console.log(`known long function: ${key(f)} (line ${f.line}, ${f.lines} lines)`)
  const unknown = long.filter((f) => !KNOWN_LONG.some((k) => key(k) === key(f))).map((f) => `${key(f)} (line ${f.line}): ${f.lines} lines`)
  assert.deepEqual(unknown, [], `functions over ${MAX_LINES} lines; split them:\n${unknown.join('\n')}`)
  const stale = KNOWN_LONG.filter((k) => !long.some((f) => key(k) === key(f))).map(key)
  assert.deepEqual(stale, [], `no longer over ${MAX_LINES} lines; remove them from KNOWN_LONG:\n${stale.join('\n')}`)
})

test('the measure: every kind of function, its name, first to last line, nested ones too', () => {
  const src = [
    'export function a() {', // 1
    '  const b = () => {', // 2
    '    return 1', // 3
    '  }', // 4
    '  return b', // 5
    '}', // 6
    'class C {', // 7
    '  constructor() {}', // 8
    '  m() { return [1].map(function (x) { return x }) }', // 9
    '  get g() { return 1 }', // 10
    '}', // 11
    'const o = { p: async () => {\n} }', // 12-13
    'declare function d(): void', // 14: no body, not measured
  ].join('\n')
  assert.deepEqual(
    functionsOf('x.ts', src).map((f) => [f.name, f.line, f.lines]),
    [
      ['a', 1, 6],
      ['b', 2, 3],
      ['constructor', 8, 1],
      ['m', 9, 1],
      ['<callback of [1].map>', 9, 1],
      ['g', 10, 1],
      ['p', 12, 2],
    ],
  )
})
