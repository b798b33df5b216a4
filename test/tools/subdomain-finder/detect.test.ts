// Subdomain Finder's pure name decisions: one line each for a case that passes and one that fails.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { TYPE, type DnsRecord } from '../../../src/tools/lib/dns/message.js'
import type { AddressLookup } from '../../../src/tools/lib/dns/lookup.js'
import { exists, isSubdomain, matchesWildcard, targetOf, type Wildcard } from '../../../src/tools/subdomain-finder/detect/names.js'

const lookup = (l: Partial<AddressLookup>): AddressLookup => ({
  name: 'a.example.com',
  rcode: 0,
  cnames: [],
  addresses: [],
  records: [],
  ...l,
})
const record = (type: number, data: string): DnsRecord => ({ name: 'example.com', type, class: 1, ttl: 60, data })
const wildcard: Wildcard = { addresses: new Set(['192.0.2.9']), targets: new Set(['parked.example.net']), samples: [] }

test('exists: addresses or a CNAME make a name; neither does not', () => {
  assert.equal(exists(lookup({ addresses: ['192.0.2.1'] })), true)
  assert.equal(exists(lookup({ cnames: ['gone.example.net'] })), true)
  assert.equal(exists(lookup({})), false)
})

test('matchesWildcard: the wildcard answer repeated matches, another answer does not', () => {
  assert.equal(matchesWildcard(lookup({ addresses: ['192.0.2.9'] }), wildcard), true)
  assert.equal(matchesWildcard(lookup({ cnames: ['x.example.net', 'parked.example.net'] }), wildcard), true)
  assert.equal(matchesWildcard(lookup({ addresses: ['192.0.2.9', '192.0.2.10'] }), wildcard), false)
  assert.equal(matchesWildcard(lookup({ addresses: ['192.0.2.9'] }), null), false)
})

test('targetOf: CNAME, NS, MX and SRV point to a host; A does not', () => {
  assert.equal(targetOf(record(TYPE.CNAME, 'www.example.net')), 'www.example.net')
  assert.equal(targetOf(record(TYPE.MX, '10 mail.example.com')), 'mail.example.com')
  assert.equal(targetOf(record(TYPE.SRV, '0 5 5060 sip.example.com')), 'sip.example.com')
  assert.equal(targetOf(record(TYPE.A, '192.0.2.1')), null)
})

test('isSubdomain: a host under the domain is; service labels, wildcards and other domains are not', () => {
  assert.equal(isSubdomain('a.b.example.com', 'example.com'), true)
  assert.equal(isSubdomain('_sip._tcp.example.com', 'example.com'), false)
  assert.equal(isSubdomain('*.example.com', 'example.com'), false)
  assert.equal(isSubdomain('example.com.evil.test', 'example.com'), false)
})
