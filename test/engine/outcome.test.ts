// How a tool run maps to the scan's end state (engine/outcome.ts): honest end states of issue 25.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { outcomeOf, type RunEnd } from '../../src/engine/outcome.js'
import { ScopeError } from '../../src/toolkit/scope.js'
import type { TestTally } from '../../src/store/test-tally.js'

const run = (o: Partial<RunEnd>): RunEnd => ({
  how: 'returned',
  abort: null,
  maxScanTimeMin: 60,
  hardLimitMin: 1440,
  testsStarted: 1,
  findingsKept: 0,
  ...o,
})
const tally = (ran: number, notes: TestTally['notes'], total = ran + notes.length): TestTally => ({
  total,
  ran,
  notRun: total - ran,
  notes,
})
const blocked = new ScopeError('ward.example', 'WARD_TARGET_BLOCKLIST').message

test('every test ran: finished, nothing to say', () => {
  assert.deepEqual(outcomeOf(run({ tally: tally(3, []) })), { state: 'finished', message: null })
})

test('some tests could not run: finished, saying how many and why', () => {
  const o = outcomeOf(run({ tally: tally(2, [{ name: 'SPF record', status: 'skipped', message: 'not a zone apex' }]) }))
  assert.deepEqual(o, { state: 'finished', message: '1 of 3 tests could not run: SPF record (skipped: not a zone apex)' })
})

test('no test ran to a result: connection error naming what failed, never finished', () => {
  const o = outcomeOf(
    run({
      tally: tally(0, [
        { name: 'SSL/TLS protocol versions', status: 'error', message: 'No SSL/TLS handshake succeeded with 127.0.0.1:443' },
        { name: 'Cipher suites', status: 'skipped', message: 'the service does not speak SSL/TLS' },
      ]),
    }),
  )
  assert.equal(o.state, 'connection error')
  assert.match(
    o.message!,
    /^No test ran to a result \(all 2 tests errored or were skipped\): SSL\/TLS protocol versions \(error: No SSL\/TLS handshake/,
  )
})

test('every attempt blocked by the scope rules: failed to start (nothing was sent)', () => {
  assert.deepEqual(outcomeOf(run({ tally: tally(0, [{ name: 'Port discovery', status: 'error', message: blocked }]) })), {
    state: 'failed to start',
    message: blocked,
  })
  // A tool that threw the guard's error after it started its tests: also failed to start.
  const threw = outcomeOf(run({ how: 'threw', error: new ScopeError('ward.example', 'WARD_TARGET_BLOCKLIST'), testsStarted: 1 }))
  assert.deepEqual(threw, { state: 'failed to start', message: blocked })
})

test('a scan cut short by max_scan_time is finished with its message, whatever its tests', () => {
  assert.equal(
    outcomeOf(run({ abort: 'max_scan_time', tally: tally(0, [{ name: 'x', status: 'error', message: 'y' }]) })).state,
    'finished',
  )
})
