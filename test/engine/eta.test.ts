// The estimate of a running scan's end: the rest at the pace so far, bounded by the scan's deadline.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { etaClock, etaMoved } from '../../src/engine/eta.js'

test('etaClock: none before 2 s or without progress; linear in the work done; never past the deadline', () => {
  const clock = etaClock(1_000_000, null)
  assert.equal(clock.at(0.5, 1_001_000), null, 'too early to tell')
  assert.equal(clock.at(0, 1_010_000), null, 'no progress yet')
  // A quarter done in 10 s: 30 s more.
  assert.equal(clock.at(0.25, 1_010_000), 1_040_000)
  assert.equal(clock.at(1, 1_010_000), 1_010_000)
  const bounded = etaClock(1_000_000, 1_020_000)
  assert.equal(bounded.at(0.25, 1_010_000), 1_020_000, 'max_scan_time ends it by then')
  assert.equal(bounded.at(0.25, 1_030_000), 1_030_000, 'a scan past its deadline (in its grace period) ends now at the earliest')
})

test('etaMoved: a write for a new estimate, for one that moved over 1 s or 2 % of what remains', () => {
  assert.equal(etaMoved(null, null), false)
  assert.equal(etaMoved(null, 5000, 0), true)
  assert.equal(etaMoved(5000, null, 0), true)
  assert.equal(etaMoved(5000, 5800, 0), false)
  assert.equal(etaMoved(5000, 6200, 0), true)
  assert.equal(etaMoved(1_000_000, 1_015_000, 0), false, '15 s on 1000 s left is under 2 %')
  assert.equal(etaMoved(1_000_000, 1_030_000, 0), true)
})
