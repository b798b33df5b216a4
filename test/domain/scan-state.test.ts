import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  SCAN_STATES,
  TRANSITIONS,
  canTransition,
  isTerminal,
  sourcesOf,
  IllegalTransitionError,
  type ScanState,
} from '../../src/domain/scan-state.js'
import { transitionScan } from '../../src/store/scans.js'
import { startWard, waitForScan, isTerminal as apiTerminal } from '../helpers/ward.js'

test('the state machine is exactly the one of decisions.md', () => {
  assert.deepEqual([...TRANSITIONS.waiting].sort(), ['VPN connection error', 'aborted', 'running', 'stopped'].sort())
  // running → waiting: a restartable scan whose worker died or shut down goes back to the queue.
  assert.deepEqual(
    [...TRANSITIONS.running].sort(),
    [
      'aborted',
      'auth failed',
      'connection error',
      'failed to start',
      'finished',
      'stopped',
      'timed out',
      'VPN connection error',
      'waiting',
    ].sort(),
  )
  for (const s of SCAN_STATES) if (s !== 'waiting' && s !== 'running') assert.ok(isTerminal(s), s)
  assert.equal(canTransition('finished', 'running'), false)
  assert.equal(canTransition('running', 'waiting'), true)
  assert.equal(canTransition('finished', 'waiting'), false)
  assert.deepEqual(sourcesOf('running'), ['waiting'])
})

test('the store refuses illegal transitions and never moves a scan out of a terminal state', async () => {
  const w = await startWard()
  try {
    const id = (
      await w.req('POST', '/api/v2/scans', { body: { tool_id: 9001, target_name: '127.0.0.1', tool_params: { steps: 1, step_ms: 1 } } })
    ).json().data.created_id
    await waitForScan(w, id, apiTerminal)
    // Naming an illegal source is a programming error, caught before any SQL runs.
    await assert.rejects(transitionScan(w.h.db, id, 'running', {}, ['finished' as ScanState]), IllegalTransitionError)
    await assert.rejects(transitionScan(w.h.db, id, 'waiting', {}, ['finished' as ScanState]), IllegalTransitionError)
    // Legal target states with their legal sources do not apply to a finished scan.
    for (const to of SCAN_STATES.filter((s) => sourcesOf(s).length)) {
      assert.equal(await transitionScan(w.h.db, id, to), false, to)
    }
    assert.equal((await w.req('GET', `/api/v2/scans/${id}`)).json().data.status_name, 'finished')
  } finally {
    await w.close()
  }
})
