// The scope guard's pure part: every spelling of an address normalises to one value, every view of
// an address is checked, the defaults block metadata for callbacks and VPN hosts, and names are
// checked after resolution (`localhost` is the one name these tests may resolve).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  addressViews,
  formatAddress,
  hostBlockedBy,
  parseAddress,
  parseScope,
  resolveInScope,
  scopedLookup,
  scopesOf,
  ScopeError,
} from '../../src/toolkit/scope.js'
import { loadConfig, ConfigError } from '../../src/config/config.js'

test('every IPv4 spelling inet_aton accepts normalises to the same address', () => {
  const table: [string, string][] = [
    ['127.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0x7F.0.0.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['0251.0376.0251.0376', '169.254.169.254'],
    ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254'],
    ['2852039166', '169.254.169.254'],
    ['169.254.43518', '169.254.169.254'],
    ['0', '0.0.0.0'],
  ]
  for (const [spelling, canonical] of table) {
    const a = parseAddress(spelling)
    assert.ok(a, spelling)
    assert.equal(formatAddress(a), canonical, spelling)
  }
  for (const name of ['256.0.0.1', '1.2.3.4.5', '08.0.0.1', '0x', 'example.com', '1..2', '4294967296', 'localhost', '']) {
    const a = parseAddress(name)
    assert.ok(a === null || (name === '0x' && formatAddress(a) === '0.0.0.0'), `${name} is not an address`)
  }
})

test('IPv6 spellings normalise, and the IPv4 address inside one is checked too', () => {
  const table: [string, string][] = [
    ['::ffff:169.254.169.254', '::ffff:a9fe:a9fe'],
    ['[::ffff:169.254.169.254]', '::ffff:a9fe:a9fe'],
    ['0:0:0:0:0:ffff:7f00:1', '::ffff:7f00:1'],
    ['::FFFF:7F00:0001', '::ffff:7f00:1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['FD00:EC2:0:0:0:0:0:254', 'fd00:ec2::254'],
    ['::', '::'],
  ]
  for (const [spelling, canonical] of table) assert.equal(formatAddress(parseAddress(spelling)!), canonical, spelling)
  const embedded = (s: string) =>
    addressViews(parseAddress(s)!)
      .filter((v) => v.version === 4)
      .map(formatAddress)
  assert.deepEqual(embedded('::ffff:169.254.169.254'), ['169.254.169.254'])
  assert.deepEqual(embedded('::ffff:0:7f00:1'), ['127.0.0.1']) // SIIT
  assert.deepEqual(embedded('64:ff9b::a9fe:a9fe'), ['169.254.169.254']) // NAT64
  assert.deepEqual(embedded('::7f00:1'), ['127.0.0.1']) // IPv4-compatible
  assert.deepEqual(embedded('2002:a9fe:a9fe::1'), ['169.254.169.254']) // 6to4
  assert.deepEqual(embedded('::1'), [])
  // "This host" reaches loopback.
  assert.ok(addressViews(parseAddress('::')!).some((v) => formatAddress(v) === '::1'))
  assert.ok(addressViews(parseAddress('0.0.0.0')!).some((v) => formatAddress(v) === '127.0.0.1'))
})

// The bypasses of the issue, each against a block list that names the range once, plainly.
const BYPASSES: { host: string; blocklist: string }[] = [
  { host: '169.254.169.254', blocklist: '169.254.0.0/16' },
  { host: '::ffff:169.254.169.254', blocklist: '169.254.0.0/16' },
  { host: '[::ffff:169.254.169.254]', blocklist: '169.254.0.0/16' },
  { host: '::ffff:a9fe:a9fe', blocklist: '169.254.0.0/16' },
  { host: '64:ff9b::169.254.169.254', blocklist: '169.254.0.0/16' },
  { host: '0251.0376.0251.0376', blocklist: '169.254.0.0/16' },
  { host: '2852039166', blocklist: '169.254.0.0/16' },
  { host: '0:0:0:0:0:ffff:7f00:1', blocklist: '127.0.0.0/8' },
  { host: '0x7f.1', blocklist: '127.0.0.0/8' },
  { host: '2130706433', blocklist: '127.0.0.0/8' },
  { host: '0177.0.0.1', blocklist: '127.0.0.0/8' },
  { host: '127.1', blocklist: '127.0.0.0/8' },
  { host: '0.0.0.0', blocklist: '127.0.0.0/8' },
  { host: '::', blocklist: '::1' },
  { host: '[::]', blocklist: '::1' },
  { host: 'localhost', blocklist: '127.0.0.0/8' },
  { host: 'LOCALHOST.', blocklist: '127.0.0.0/8' },
  { host: 'app.localhost', blocklist: '::1' },
  { host: 'Metadata.Google.Internal.', blocklist: 'metadata' },
  { host: 'fd00:ec2::254', blocklist: 'metadata' },
  { host: 'fe80::a9fe:a9fe%lo', blocklist: 'metadata' },
]

test('each bypass spelling of the issue is blocked by the plain entry', () => {
  for (const { host, blocklist } of BYPASSES)
    assert.ok(hostBlockedBy(parseScope('X', blocklist), host), `${host} must be blocked by ${blocklist}`)
  // ...and by default only the metadata ones: loopback scanning stays allowed.
  const target = scopesOf(loadConfig({})).target
  for (const { host, blocklist } of BYPASSES) {
    if (/metadata|169\.254/.test(blocklist)) assert.ok(hostBlockedBy(target, host), `${host} is a metadata address`)
    else assert.equal(hostBlockedBy(target, host), null, host)
  }
})

test('defaults: metadata and link-local are blocked for targets, callbacks and VPN hosts, not loopback; allow lists lift them', () => {
  const s = scopesOf(loadConfig({}))
  for (const host of [
    '169.254.169.254',
    '[::ffff:169.254.169.254]',
    'fd00:ec2::254',
    'metadata.google.internal',
    'metadata',
    '100.100.100.200',
    'fe80::1',
  ])
    for (const scope of [s.target, s.callback, s.vpnHost]) assert.ok(hostBlockedBy(scope, host), `${scope.setting}: ${host}`)
  for (const host of ['127.0.0.1', 'localhost', '::1', '10.0.0.1', 'example.com'])
    for (const scope of [s.target, s.callback]) assert.equal(hostBlockedBy(scope, host), null, host)
  const targets = scopesOf(loadConfig({ WARD_TARGET_ALLOWLIST: 'metadata', WARD_TARGET_BLOCKLIST: '10.0.0.0/8' })).target
  assert.equal(hostBlockedBy(targets, '169.254.169.254'), null)
  assert.ok(hostBlockedBy(targets, '10.1.2.3'))
  const allowed = scopesOf(loadConfig({ WARD_CALLBACK_ALLOWLIST: 'metadata', WARD_VPN_HOST_ALLOWLIST: '169.254.10.0/24' }))
  assert.equal(hostBlockedBy(allowed.callback, '169.254.169.254'), null)
  assert.equal(hostBlockedBy(allowed.callback, 'metadata.google.internal'), null)
  assert.equal(hostBlockedBy(allowed.vpnHost, '169.254.10.7'), null)
  assert.ok(hostBlockedBy(allowed.vpnHost, '169.254.169.254'))
  const more = scopesOf(loadConfig({ WARD_CALLBACK_BLOCKLIST: '127.0.0.0/8,.corp.example' }))
  assert.ok(hostBlockedBy(more.callback, 'localhost'))
  assert.ok(hostBlockedBy(more.callback, 'hooks.corp.example'))
  assert.ok(hostBlockedBy(more.callback, '169.254.169.254'), 'the operator adds to the defaults, not instead of them')
  assert.throws(
    () => scopesOf(loadConfig({ WARD_VPN_HOST_ALLOWLIST: '10.0.0.0/99' })),
    (e: Error) => e instanceof ConfigError && /^WARD_VPN_HOST_ALLOWLIST: "10.0.0.0\/99" has an invalid prefix length/.test(e.message),
  )
  assert.throws(() => scopesOf(loadConfig({ WARD_TARGET_BLOCKLIST: 'not a host' })), /^ConfigError: WARD_TARGET_BLOCKLIST: /)
})

test('names are checked after resolution and answer only with the checked addresses', async () => {
  const loopback = parseScope('WARD_TARGET_BLOCKLIST', '127.0.0.0/8,::1')
  // Real resolution of localhost (the only name tests may resolve): blocked by its addresses.
  await assert.rejects(
    resolveInScope(parseScope('X', '127.0.0.1/32,::1/128'), 'localhost', 0, (n, f) =>
      import('node:dns/promises').then((d) => d.lookup(n, { all: true, family: f })),
    ),
    ScopeError,
  )
  // An answer that mixes an allowed and a blocked address blocks the name (rebinding).
  const answer = (addresses: string[]) => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  await assert.rejects(
    resolveInScope(loopback, 'rebind.test', 0, answer(['192.0.2.1', '127.0.0.1'])),
    /connection to rebind\.test blocked: outside the allowed scope \(WARD_TARGET_BLOCKLIST\); nothing was sent/,
  )
  await assert.rejects(resolveInScope(loopback, 'mapped.test', 0, answer(['::ffff:127.0.0.1'])), ScopeError)
  assert.deepEqual(await resolveInScope(loopback, 'ok.test', 0, answer(['192.0.2.1', '2001:db8::1'])), [
    { address: '192.0.2.1', family: 4 },
    { address: '2001:db8::1', family: 6 },
  ])
  // The lookup handed to sockets: same rule, node's callback shapes.
  const lookup = scopedLookup(loopback, answer(['192.0.2.7']))
  const one = await new Promise<unknown[]>((resolve) => lookup('ok.test', 4, (...a) => resolve(a)))
  assert.deepEqual(one, [null, '192.0.2.7', 4])
  const all = await new Promise<unknown[]>((resolve) => lookup('ok.test', { all: true }, (...a) => resolve(a)))
  assert.deepEqual(all, [null, [{ address: '192.0.2.7', family: 4 }]])
  const refused = await new Promise<unknown[]>((resolve) => lookup('0x7f.1', { all: true }, (...a) => resolve(a)))
  assert.equal((refused[0] as { code: string }).code, 'EBLOCKED')
})
