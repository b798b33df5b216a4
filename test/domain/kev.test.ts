import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import {
  KevFeedError,
  compareCve,
  isInKev,
  kevSnapshotFromFeed,
  loadKevSnapshot,
  normaliseCve,
  parseKevFeed,
  parseKevSnapshot,
} from '../../src/domain/kev.js'

const smallFeed = JSON.parse(readFileSync(new URL('../fixtures/kev-small.json', import.meta.url), 'utf8')) as unknown

test('the shipped snapshot loads and holds well-known KEV entries', () => {
  const kev = loadKevSnapshot()
  assert.ok(kev.size >= 300, `snapshot holds ${kev.size} ids`)
  for (const id of ['CVE-2021-44228', 'CVE-2021-41773', 'CVE-2014-0160', 'CVE-2017-0144', 'CVE-2019-0708', 'CVE-2024-3400'])
    assert.ok(kev.has(id), id)
  for (const id of kev) assert.match(id, /^CVE-\d{4}-\d{4,}$/)
})

test('the snapshot file records its source and how to refresh it', () => {
  const raw = JSON.parse(readFileSync(new URL('../../src/domain/kev-snapshot.json', import.meta.url), 'utf8'))
  const snap = parseKevSnapshot(raw)
  assert.match(snap.source, /cisa\.gov/)
  assert.match(snap.note, /ward admin kev import FILE/)
  assert.match(snap.generated, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  assert.equal(new Set(snap.cves).size, snap.cves.length, 'no duplicates')
  assert.deepEqual(snap.cves, [...snap.cves].sort(compareCve), 'sorted chronologically')
})

test('loadKevSnapshot returns a fresh set each time', () => {
  const a = loadKevSnapshot()
  a.add('CVE-1999-0001')
  assert.equal(loadKevSnapshot().has('CVE-1999-0001'), false)
})

test('parseKevFeed reads the official feed format, upper-cased, de-duplicated and sorted', () => {
  assert.deepEqual(parseKevFeed(smallFeed), ['CVE-2014-0160', 'CVE-2021-41773', 'CVE-2021-44228'])
})

test('parseKevFeed rejects malformed input with a clear error', () => {
  const cases: Array<[unknown, RegExp]> = [
    [null, /must be a JSON object/],
    [[], /must be a JSON object/],
    ['CVE-2021-44228', /must be a JSON object/],
    [{ title: 'x' }, /no "vulnerabilities" array/],
    [{ vulnerabilities: {} }, /no "vulnerabilities" array/],
    [{ vulnerabilities: [] }, /lists no vulnerabilities/],
    [{ vulnerabilities: [{ cveID: 'CVE-2021-44228' }, { vendorProject: 'x' }] }, /vulnerabilities\[1\]\.cveID is not a CVE id: null/],
    [{ vulnerabilities: [{ cveID: 'log4shell' }] }, /vulnerabilities\[0\]\.cveID is not a CVE id: "log4shell"/],
    [{ vulnerabilities: [{ cveID: 44228 }] }, /vulnerabilities\[0\]\.cveID/],
    [{ vulnerabilities: ['CVE-2021-44228'] }, /vulnerabilities\[0\]\.cveID/],
  ]
  for (const [input, message] of cases) {
    assert.throws(
      () => parseKevFeed(input),
      (e: unknown) => e instanceof KevFeedError && message.test(e.message),
      JSON.stringify(input),
    )
  }
})

test('isInKev matches any listed CVE, case-insensitively', () => {
  const kev = new Set(parseKevFeed(smallFeed))
  assert.equal(isInKev(['CVE-2020-0001', 'cve-2021-44228'], kev), true)
  assert.equal(isInKev([' CVE-2014-0160 '], kev), true)
  assert.equal(isInKev(['CVE-2020-0001'], kev), false)
  assert.equal(isInKev([], kev), false)
  assert.equal(isInKev(['not a cve'], kev), false)
})

test('kevSnapshotFromFeed builds a snapshot that parses back', () => {
  const snap = kevSnapshotFromFeed(smallFeed, 'test/fixtures/kev-small.json', new Date('2026-11-21T10:15:00.123Z'))
  assert.equal(snap.generated, '2026-11-21T10:15:00Z')
  assert.match(snap.source, /catalogVersion 2026\.11\.20/)
  assert.deepEqual(parseKevSnapshot(JSON.parse(JSON.stringify(snap))).cves, snap.cves)
})

test('normaliseCve and compareCve', () => {
  assert.equal(normaliseCve(' cve-2021-4034 '), 'CVE-2021-4034')
  assert.equal(normaliseCve('CVE-21-4034'), null)
  assert.ok(compareCve('CVE-2021-4034', 'CVE-2021-44228') < 0)
  assert.ok(compareCve('CVE-2022-0001', 'CVE-2021-44228') > 0)
})
