import { test } from 'node:test'
import assert from 'node:assert/strict'
import { dedupKey, normaliseLocation, type FindingIdentity } from '../../src/domain/finding-identity.js'

const base: FindingIdentity = {
  targetId: 7,
  vulnId: 'website.headers.csp-missing',
  port: 443,
  protocol: 'tcp',
  url: 'https://example.com/',
}
const key = (over: Partial<FindingIdentity> = {}) => dedupKey({ ...base, ...over })

test('dedupKey is a sha256 hex string and deterministic', () => {
  assert.match(key(), /^[0-9a-f]{64}$/)
  assert.equal(key(), key())
})

test('equivalent URLs give the same key', () => {
  const same = [
    'https://example.com/',
    'https://example.com',
    'HTTPS://EXAMPLE.COM/',
    'https://example.com:443/',
    'https://example.com/?utm_source=x&t=1763690000',
    'https://example.com/#section',
    'https://user:secret@example.com/',
    '  https://example.com/  ',
    'https://example.com./',
    'https://example.com/a/../',
  ]
  for (const url of same) assert.equal(key({ url }), key(), url)
})

test('percent-encoding variants of one path give the same key', () => {
  const k = key({ url: 'https://example.com/caf%C3%A9/~user' })
  assert.equal(key({ url: 'https://example.com/caf%c3%a9/%7Euser' }), k)
  assert.equal(key({ url: 'https://example.com/café/~user' }), k)
  assert.equal(key({ url: 'https://example.com/caf%C3%A9/%7euser' }), k)
})

test('www and apex are different locations', () => {
  assert.notEqual(key({ url: 'https://www.example.com/' }), key({ url: 'https://example.com/' }))
})

test('http and https are different locations', () => {
  assert.notEqual(key({ url: 'http://example.com/' }), key({ url: 'https://example.com/' }))
})

test('different ports are different locations; default ports are dropped', () => {
  assert.notEqual(key({ url: 'https://example.com:8443/' }), key({ url: 'https://example.com/' }))
  assert.equal(key({ url: 'http://example.com:80/x' }), key({ url: 'http://example.com/x' }))
  assert.notEqual(key({ url: 'http://example.com:443/x' }), key({ url: 'http://example.com/x' }))
})

test('different paths are different locations, and the trailing slash is significant', () => {
  assert.notEqual(key({ url: 'https://example.com/admin' }), key({ url: 'https://example.com/' }))
  assert.notEqual(key({ url: 'https://example.com/admin' }), key({ url: 'https://example.com/admin/' }))
  assert.notEqual(key({ url: 'https://example.com/Admin' }), key({ url: 'https://example.com/admin' }))
})

test('every stable fact takes part in the key', () => {
  const k = key()
  assert.notEqual(key({ targetId: 8 }), k)
  assert.notEqual(key({ vulnId: 'website.headers.hsts-missing' }), k)
  assert.notEqual(key({ port: 8443 }), k)
  assert.notEqual(key({ port: null }), k)
  assert.notEqual(key({ protocol: 'udp' }), k)
  assert.notEqual(key({ protocol: null }), k)
  assert.notEqual(key({ url: null }), k)
  assert.notEqual(key({ location: 'TLSv1.0' }), k)
})

test('protocol is compared case-insensitively, empty locations count as none', () => {
  assert.equal(key({ protocol: 'TCP' }), key())
  assert.equal(key({ url: null, location: '' }), key({ url: undefined, location: undefined }))
  assert.equal(key({ url: '   ' }), key({ url: null }))
})

test('values cannot bleed into their neighbours', () => {
  assert.notEqual(
    dedupKey({ targetId: 1, vulnId: 'a', port: null, protocol: null, url: null, location: 'b' }),
    dedupKey({ targetId: 1, vulnId: 'a', port: null, protocol: null, url: 'b', location: null }),
  )
})

test('normaliseLocation: IDN hosts become punycode', () => {
  assert.equal(normaliseLocation('https://Bücher.example/'), 'https://xn--bcher-kva.example/')
  assert.equal(normaliseLocation('https://xn--bcher-kva.example'), 'https://xn--bcher-kva.example/')
})

test('normaliseLocation: IPv6 is bracketed and compressed, IPv4 canonical', () => {
  assert.equal(normaliseLocation('http://[2001:DB8:0:0:0:0:0:1]:8080/x'), 'http://[2001:db8::1]:8080/x')
  assert.equal(normaliseLocation('https://[::1]:443/'), 'https://[::1]/')
  assert.equal(normaliseLocation('http://127.000.000.001/'), 'http://127.0.0.1/')
})

test('normaliseLocation: query, fragment and credentials are dropped, path case kept', () => {
  assert.equal(normaliseLocation('HTTP://u:p@WWW.Example.COM:80/A/b/../C?x=1#y'), 'http://www.example.com/A/C')
})

test('normaliseLocation: non-URL locations are only trimmed', () => {
  assert.equal(normaliseLocation('  example.com:443 '), 'example.com:443')
  assert.equal(normaliseLocation('/etc/passwd'), '/etc/passwd')
  assert.equal(normaliseLocation('TLSv1.0 on 443/tcp'), 'TLSv1.0 on 443/tcp')
  assert.equal(normaliseLocation('http://[bad'), 'http://[bad')
})
