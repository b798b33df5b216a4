// Which parts each command runs: the outbox of report callbacks is drained by every worker process
// (and `ward all`), never by an API-only process, and by `ward callbacks` alone.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { partsOf } from '../../src/cli/roles.js'

test('roles: all = api + worker + callbacks; serve = api; worker = worker + callbacks; callbacks alone', () => {
  assert.deepEqual(partsOf('all'), { api: true, worker: true, callbacks: true })
  assert.deepEqual(partsOf('serve'), { api: true, worker: false, callbacks: false })
  assert.deepEqual(partsOf('worker'), { api: false, worker: true, callbacks: true })
  assert.deepEqual(partsOf('callbacks'), { api: false, worker: false, callbacks: true })
  assert.deepEqual(partsOf('worker', { noCallbacks: true }), { api: false, worker: true, callbacks: false })
  assert.deepEqual(partsOf('callbacks', { noCallbacks: true }), { api: false, worker: false, callbacks: true })
})
