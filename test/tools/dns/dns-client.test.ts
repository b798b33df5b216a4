import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import dgram from 'node:dgram'
import { axfr, createDnsClient, parseServer, type DnsQueryError } from '../../../src/tools/lib/dns/client.js'
import { answersOf, lookupAddresses, MAX_CNAME_HOPS } from '../../../src/tools/lib/dns/lookup.js'
import { buildQuery, CLASS, decodeMessage, encodeMessage, RCODE, TYPE, typeName } from '../../../src/tools/lib/dns/message.js'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import { startDnsServer, type DnsTestServer, type Zone } from '../../testbed/dns-server.js'

const HOST = '127.0.5.55' // this file's own server (the subdomain finder's tests use 127.0.5.53)
const SILENT = { host: '127.0.5.55', port: 5399 }
const rec = (name: string, type: number, data: string) => ({ name, type, class: CLASS.IN, ttl: 60, data })
const ZONES: Zone[] = [
  {
    origin: 'client.example',
    axfr: true,
    records: [
      rec('client.example', TYPE.SOA, 'ns.client.example host.client.example 1 2 3 4 5'),
      rec('client.example', TYPE.NS, 'ns.client.example'),
      rec('a.client.example', TYPE.A, '192.0.2.1'),
      rec('a.client.example', TYPE.AAAA, '2001:db8::1'),
      rec('alias.client.example', TYPE.CNAME, 'a.client.example'),
      // 20 long TXT strings: more than 512 bytes, so UDP answers are truncated.
      ...Array.from({ length: 20 }, (_, i) => rec('big.client.example', TYPE.TXT, `chunk-${i}-${'x'.repeat(40)}`)),
    ],
  },
  { origin: 'closed.example', axfr: false, records: [rec('closed.example', TYPE.SOA, 'ns.closed.example host.closed.example 1 2 3 4 5')] },
  {
    // Answers each CNAME alone (no chasing): c0 → c1 → ... → c19 → a.client.example, and a two-hop chain.
    origin: 'chain.example',
    axfr: false,
    chase: false,
    records: [
      rec('chain.example', TYPE.SOA, 'ns.chain.example host.chain.example 1 2 3 4 5'),
      ...Array.from({ length: 20 }, (_, i) =>
        rec(`c${i}.chain.example`, TYPE.CNAME, i === 19 ? 'a.client.example' : `c${i + 1}.chain.example`),
      ),
      rec('short.chain.example', TYPE.CNAME, 'c18.chain.example'),
    ],
  },
]

const net = createDirectEgress()
let server: DnsTestServer
let silent: dgram.Socket
before(async () => {
  server = await startDnsServer({ host: HOST, port: 53, zones: ZONES })
  silent = dgram.createSocket('udp4')
  await new Promise<void>((r) => silent.bind(SILENT.port, SILENT.host, () => r()))
})
after(async () => {
  await server?.close()
  await new Promise<void>((r) => silent.close(() => r()))
  await net.close()
})

test('messages round-trip through encode and decode', () => {
  const records = [
    rec('x.example', TYPE.A, '198.51.100.7'),
    rec('x.example', TYPE.AAAA, '2001:db8:0:0:1::2'), // equal zero runs: the first is compressed (RFC 5952)
    rec('x.example', TYPE.MX, '10 mail.example'),
    rec('x.example', TYPE.TXT, 'v=spf1 -all'),
    rec('x.example', TYPE.CNAME, 'y.example'),
    rec('x.example', TYPE.SOA, 'ns.example host.example 7 3600 600 86400 300'),
  ]
  const m = decodeMessage(
    encodeMessage({
      id: 4242,
      flags: { qr: true, opcode: 0, aa: true, tc: false, rd: true, ra: true, rcode: 3 },
      questions: [{ name: 'X.Example.', type: TYPE.A, class: CLASS.IN }],
      answers: records,
    }),
  )
  assert.equal(m.id, 4242)
  assert.deepEqual(m.flags, { qr: true, opcode: 0, aa: true, tc: false, rd: true, ra: true, rcode: 3 })
  assert.deepEqual(m.questions, [{ name: 'x.example', type: TYPE.A, class: CLASS.IN }])
  assert.deepEqual(
    m.answers.map((r) => r.data),
    ['198.51.100.7', '2001:db8::1:0:0:2', '10 mail.example', 'v=spf1 -all', 'y.example', 'ns.example host.example 7 3600 600 86400 300'],
  )
})

test('compressed names are followed and loops rejected', () => {
  // Header, question "a.example" at 12, answer owner = pointer to 12, CNAME data = "b" + pointer to "example" (14).
  const q = buildQuery('a.example', TYPE.CNAME, { id: 1 }).bytes
  const header = Buffer.from(q)
  header.writeUInt16BE(0x8180, 2)
  header.writeUInt16BE(1, 6)
  const answer = Buffer.from([0xc0, 12, 0, 5, 0, 1, 0, 0, 0, 60, 0, 4, 1, 0x62, 0xc0, 14])
  const m = decodeMessage(Buffer.concat([header, answer]))
  assert.deepEqual(
    m.answers.map((r) => [r.name, r.data]),
    [['a.example', 'b.example']],
  )
  const loop = Buffer.concat([Buffer.from([0, 1, 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0]), Buffer.from([0xc0, 12, 0, 1, 0, 1])])
  assert.throws(() => decodeMessage(loop), /compression loop/)
  assert.throws(() => decodeMessage(Buffer.alloc(5)), /header/)
})

test('parseServer accepts IP literals with optional ports only', () => {
  assert.deepEqual(parseServer('127.0.5.53'), { host: '127.0.5.53', port: 53 })
  assert.deepEqual(parseServer('127.0.5.53:5353'), { host: '127.0.5.53', port: 5353 })
  assert.deepEqual(parseServer('[::1]:5353'), { host: '::1', port: 5353 })
  assert.deepEqual(parseServer('fd00::53'), { host: 'fd00::53', port: 53 })
  assert.throws(() => parseServer('dns.example'), /IP literal/)
  assert.throws(() => parseServer('127.0.0.1:70000'), /port/)
})

test('UDP query, CNAME chain, and AAAA lookups', async () => {
  const c = createDnsClient(net, { host: HOST, port: 53 })
  assert.equal(c.transport, 'udp')
  const l = await lookupAddresses(c, 'alias.client.example', { aaaa: true })
  assert.deepEqual(l.cnames, ['a.client.example'])
  assert.deepEqual(l.addresses, ['192.0.2.1', '2001:db8::1'])
  const nx = await c.query('nothing.client.example', TYPE.A)
  assert.equal(nx.flags.rcode, RCODE.NXDOMAIN)
  assert.deepEqual(answersOf(nx, 'nothing.client.example', TYPE.A), { cnames: [], records: [] })
})

test('a truncated UDP answer is fetched again over TCP', async () => {
  const c = createDnsClient(net, { host: HOST, port: 53 })
  const tcpBefore = server.stats.tcp
  const m = await c.query('big.client.example', TYPE.TXT)
  assert.equal(m.answers.length, 20)
  assert.equal(server.stats.tcp, tcpBefore + 1)
})

test('TCP transport answers the same', async () => {
  const c = createDnsClient(net, { host: HOST, port: 53 }, { transport: 'tcp' })
  const m = await c.query('a.client.example', TYPE.AAAA)
  assert.deepEqual(
    m.answers.map((r) => r.data),
    ['2001:db8::1'],
  )
})

test('silence times out after the retries; a closed port is refused; abort is quick', async () => {
  const c = createDnsClient(net, SILENT, { timeoutMs: 100, retries: 2 })
  const t0 = performance.now()
  await assert.rejects(c.query('a.client.example', TYPE.A), (e: DnsQueryError) => e.code === 'timeout')
  assert.ok(performance.now() - t0 >= 290)
  const refused = createDnsClient(net, { host: HOST, port: 5398 }, { timeoutMs: 1000 })
  await assert.rejects(refused.query('a.client.example', TYPE.A), (e: DnsQueryError) => e.code === 'refused')
  const ac = new AbortController()
  setTimeout(() => ac.abort(), 50)
  const t1 = performance.now()
  await assert.rejects(
    createDnsClient(net, SILENT, { timeoutMs: 5000 }).query('a', TYPE.A, { signal: ac.signal }),
    (e: DnsQueryError) => e.code === 'aborted',
  )
  assert.ok(performance.now() - t1 < 500)
})

test('AXFR: the whole zone where allowed (several messages), a reason where refused', async () => {
  const ok = await axfr(net, { host: HOST, port: 53 }, 'client.example')
  assert.ok(ok.ok)
  assert.equal(ok.records.length, ZONES[0]!.records.length + 1, 'SOA at both ends')
  assert.equal(ok.truncated, false)
  assert.equal(ok.records[0]!.type, TYPE.SOA)
  assert.equal(ok.records.at(-1)!.type, TYPE.SOA)
  const refused = await axfr(net, { host: HOST, port: 53 }, 'closed.example')
  assert.deepEqual(refused, { ok: false, reason: 'server answered REFUSED' })
  const dead = await axfr(net, { host: HOST, port: 5398 }, 'client.example')
  assert.equal(dead.ok, false)
})

const FLAGS = { qr: true, opcode: 0, aa: true, tc: false, rd: false, ra: false, rcode: 0 }

test('record types in presentation form: encoded and decoded back the same; quoted strings escaped; short rdata refused', () => {
  const recs: Array<[keyof typeof TYPE, string]> = [
    ['SRV', '0 0 443 svc.example.test'],
    ['NAPTR', '100 10 "U" "E2U+sip" "!^.*$!sip:a@b.test!" .'],
    ['CAA', '128 iodef "mailto:\\"x\\"@b.test"'],
    ['URI', '10 1 "ftp://ftp1.example.test/public"'],
    ['HINFO', '"PC" "Linux"'],
    ['RP', 'admin.example.test .'],
    ['DNAME', 'other.test'],
    ['DS', '12345 8 2 abcdef0123'],
    ['DNSKEY', '257 3 8 AwEAAQ=='],
    ['SPF', 'v=spf1 -all'],
  ]
  const wire = encodeMessage({
    id: 7,
    flags: FLAGS,
    answers: recs.map(([t, data]) => ({ name: 'x.test', type: TYPE[t], class: 1, ttl: 60, data })),
  })
  const back = decodeMessage(wire).answers
  assert.deepEqual(
    back.map((r) => [typeName(r.type), r.data]),
    recs,
  )
  // A CAA record whose tag length overruns the rdata is malformed.
  const bad = encodeMessage({ id: 8, flags: FLAGS, answers: [{ name: 'x.test', type: TYPE.CAA, class: 1, ttl: 60, data: '0 issue "a"' }] })
  bad[bad.length - 7] = 200 // the tag length byte (rdata: flags, taglen, "issue", "a")
  assert.throws(() => decodeMessage(bad), /bad CAA record/)
  // Unknown types keep the RFC 3597 form.
  const unknown = encodeMessage({ id: 9, flags: FLAGS, answers: [{ name: 'x.test', type: 65280, class: 1, ttl: 60, data: '\\# 2 abcd' }] })
  assert.equal(decodeMessage(unknown).answers[0]!.data, '\\# 2 abcd')
})

test('CNAME chains are followed across answers and bounded', async () => {
  const client = createDnsClient(net, { host: HOST, port: 53 }, { transport: 'udp', timeoutMs: 1000, retries: 1 })
  const short = await lookupAddresses(client, 'short.chain.example', { aaaa: true })
  assert.deepEqual(short.cnames, ['c18.chain.example', 'c19.chain.example', 'a.client.example'])
  assert.deepEqual(short.addresses, ['192.0.2.1', '2001:db8::1'])
  assert.equal(short.loop, undefined)
  const long = await lookupAddresses(client, 'c0.chain.example', { aaaa: true })
  assert.equal(long.cnames.length, MAX_CNAME_HOPS)
  assert.deepEqual([long.addresses, long.loop], [[], true])
})
