import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compareVersions, satisfies, parseRange } from '../../../src/tools/lib/versions/version.js'

test('numeric parts compare as numbers, not strings', () => {
  assert.equal(compareVersions('2.4.49', '2.4.5'), 1)
  assert.equal(compareVersions('2.4.9', '2.4.49'), -1)
  assert.equal(compareVersions('4.92.2', '4.92'), 1)
  assert.equal(compareVersions('7.7', '7.7.0'), 0)
  assert.equal(compareVersions('10.0', '9.9'), 1)
})

test('OpenSSH portable versions: 8.9p1 < 9.8p1, 9.8 < 9.8p1 < 9.8p2', () => {
  assert.equal(compareVersions('8.9p1', '9.8p1'), -1)
  assert.equal(compareVersions('9.8p1', '8.9p1'), 1)
  assert.equal(compareVersions('9.8', '9.8p1'), -1)
  assert.equal(compareVersions('9.8p1', '9.8p2'), -1)
  assert.equal(compareVersions('7.4p1', '7.4p1'), 0)
})

test('OpenSSL letter releases come after the bare release, in letter order', () => {
  assert.equal(compareVersions('1.0.1', '1.0.1a'), -1)
  assert.equal(compareVersions('1.0.1f', '1.0.1g'), -1)
  assert.equal(compareVersions('1.0.1g', '1.0.1f'), 1)
  assert.equal(compareVersions('1.0.1z', '1.0.2'), -1)
})

test('pre-releases come before the release: rc < release < letter patch', () => {
  assert.equal(compareVersions('1.3.5rc3', '1.3.5'), -1)
  assert.equal(compareVersions('1.3.5rc3', '1.3.5rc4'), -1)
  assert.equal(compareVersions('1.3.5', '1.3.5a'), -1)
  assert.equal(compareVersions('1.0.2-beta1', '1.0.2'), -1)
  assert.equal(compareVersions('1.0.2-beta1', '1.0.2-beta2'), -1)
  assert.equal(compareVersions('1.0.2-beta3', '1.0.2-rc1'), -1)
  assert.equal(compareVersions('2.0alpha1', '2.0beta1'), -1)
})

test('ranges: comparators in one alternative all hold, alternatives are ORed', () => {
  assert.equal(satisfies('9.7', '>=8.5 <9.8'), true)
  assert.equal(satisfies('8.5', '>=8.5 <9.8'), true)
  assert.equal(satisfies('9.8', '>=8.5 <9.8'), false)
  assert.equal(satisfies('8.4', '>=8.5 <9.8'), false)
  assert.equal(satisfies('2.4.50', '=2.4.49 || =2.4.50'), true)
  assert.equal(satisfies('2.4.51', '=2.4.49 || =2.4.50'), false)
  assert.equal(satisfies('1.0.1f', '>=1.0.1 <1.0.1g || =1.0.2-beta1'), true)
  assert.equal(satisfies('1.0.2-beta1', '>=1.0.1 <1.0.1g || =1.0.2-beta1'), true)
  assert.equal(satisfies('1.0.2', '>=1.0.1 <1.0.1g || =1.0.2-beta1'), false)
  assert.equal(satisfies('3.0', '<=3.0'), true)
  assert.equal(satisfies('3.0.1', '>3.0'), true)
})

test('malformed ranges are rejected', () => {
  assert.throws(() => parseRange('~1.2'), /bad comparator/)
  assert.throws(() => parseRange('>=1 || '), /empty alternative/)
})
