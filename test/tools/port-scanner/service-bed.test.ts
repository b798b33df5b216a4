// Service identification on the full service bed (test/testbed/service-bed.ts): every port named with
// service, product, version and CPE, and the probe that proved it, one test per port. The bed runs in
// a private network namespace (standard ports, no clash with this machine's own services); Ward's
// whole detection of it, silent and tcpwrapped ports included, must end within 20 s.
// `npm run bench -- service-id` compares the same bed with nmap -sV (docs/benchmarks.md).
import { test, describe, before } from 'node:test'
import assert from 'node:assert/strict'
import { identify } from '../../../src/tools/lib/services/banners.js'
import { DECODERS } from '../../../src/tools/lib/services/decoders.js'
import { callInNetns, netnsUnavailable, withNetns } from '../../helpers/netns.js'
import { BED_SERVICES } from '../../testbed/service-bed.js'
import type { BedIdentification } from '../../../bench/service-id.js'

const why = netnsUnavailable()

describe('service bed: every port named as it should be', () => {
  let r: BedIdentification | null = null
  before(async () => {
    if (why) return
    r = await withNetns('sid-bed', (ns) =>
      callInNetns<BedIdentification>(ns, 'bench/service-id.ts', 'identifyBed', [{}], { timeoutMs: 120_000 }),
    )
  })

  test('the whole detection ends in time, silent port included', () => {
    if (why) {
      console.log(`service bed not run: ${why}`)
      return assert.equal(typeof why, 'string')
    }
    assert.equal(r!.ward.error, undefined)
    assert.ok(r!.ward.ms < 20_000, `detection of ${BED_SERVICES.length} ports took ${r!.ward.ms} ms`)
    assert.deepEqual(
      r!.services.map((s) => s.port),
      BED_SERVICES.map((s) => s.port),
    )
  })

  for (const s of BED_SERVICES) {
    const e = s.expect
    const title = `${s.port} ${s.name}: ${[e.service ?? '(nothing claimed)', e.product, e.version].filter(Boolean).join(' ')}${e.cpe ? ` (${e.cpe})` : ''} via probe ${e.probe ?? '(none)'}`
    test(title, () => {
      if (why) return assert.equal(typeof why, 'string')
      assert.deepEqual(r!.ward.rows[s.port], { service: e.service, product: e.product, version: e.version, cpe: e.cpe, probe: e.probe })
    })
  }
})

test('decoders treat cut or lying binary replies as "not this protocol", never as an error', () => {
  // A DNS answer whose record runs past the end, an AMQP table whose lengths lie, a lone IAC.
  // A version.bind answer whose question lost its last byte (a server bug once seen here): every later offset is off by one.
  const t = Buffer.from('9.16.1')
  const msg = Buffer.concat([
    Buffer.from([0x57, 0x41, 0x84, 0x00, 0, 1, 0, 1, 0, 0, 0, 0]),
    Buffer.from('\x07version\x04bind\0\0\x10\0', 'latin1'),
    Buffer.from([0xc0, 0x0c, 0, 16, 0, 3, 0, 0, 0, 0, 0, t.length + 1, t.length]),
    t,
  ])
  const dns = Buffer.concat([Buffer.from([msg.length >> 8, msg.length & 255]), msg])
  const amqp = Buffer.concat([
    Buffer.from([1, 0, 0, 0, 0, 0, 0xff, 0, 10, 0, 10, 0, 9]),
    Buffer.from([0xff, 0xff, 0xff, 0xff, 7]),
    Buffer.from('product'),
  ])
  for (const [name, fn] of Object.entries(DECODERS)) {
    for (const b of [dns, amqp, Buffer.from([0xff, 0xfb]), Buffer.alloc(0)]) assert.doesNotThrow(() => fn(b), name)
  }
  assert.doesNotThrow(() => identify('dns-version-bind', dns))
})
