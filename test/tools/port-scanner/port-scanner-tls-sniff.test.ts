// Service detection sniffs for TLS with one raw ClientHello over a plain connection before any real TLS
// handshake: silent and plain-text ports never get a TLS socket (each one holds OpenSSL memory for the
// whole probe timeout), TLS servers, TLS 1.3-only ones included, are still found. Real loopback
// listeners of our own on 127.0.13.x; the egress is the real direct one, wrapped only to count calls.
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import tls from 'node:tls'
import { portScanner } from '../../../src/tools/port-scanner/run.js'
import { detectService } from '../../../src/tools/lib/services/services.js'
import { SNIFF_SUITES, tlsSniffHello } from '../../../src/tools/lib/services/probes.js'
import { EXT, splitHandshake, splitRecords } from '../../../src/tools/lib/tls/hello.js'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import type { Egress } from '../../../src/toolkit/egress.js'
import { runTool, type HarnessResult } from '../../helpers/tool-harness.js'
import { testCert } from '../../testbed/tcp-services.js'

/** The direct egress, counting the plain and TLS connections the tool asks for. */
function countingEgress() {
  const inner = createDirectEgress()
  const counts = { connect: 0, tlsConnect: 0 }
  const egress: Egress = {
    ...inner,
    connect: (o) => (counts.connect++, inner.connect(o)),
    tlsConnect: (o) => (counts.tlsConnect++, inner.tlsConnect(o)),
  }
  return { egress, counts, close: () => inner.close() }
}

/** A listener on `host:port` whose connections `onConn` handles; close() also ends the open connections. */
async function listen(server: net.Server, host: string, port = 0) {
  const sockets = new Set<net.Socket>()
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  server.on('tlsClientError', () => {})
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host, port }, resolve)
  })
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise((r) => server.close(r))
    },
  }
}

/** A TLS server answering HTTP requests, as a TLS-wrapped web server does. */
function httpsServer(opts: tls.TlsOptions = {}) {
  return tls.createServer({ ...testCert(), ...opts }, (s) => {
    s.on('error', () => {})
    let req = ''
    s.on('data', (d) => {
      req += d.toString('latin1')
      if (req.includes('\r\n\r\n')) s.end('HTTP/1.1 200 OK\r\nServer: nginx/1.25.3\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
    })
  })
}

type PortRow = { port: number; service: string | null; product: string | null; version: string | null; tls: boolean }
const rows = (r: HarnessResult) => (r.output.ports ?? []) as PortRow[]
const signal = () => new AbortController().signal

describe('TLS sniffing before service detection handshakes', () => {
  test('the sniffing hello: one TLS record, TLS 1.0-1.3 offered with an x25519 key share, fewer than 128 suites, no 256..511-byte size', () => {
    assert.ok(SNIFF_SUITES.length < 128 && SNIFF_SUITES.includes(0x1301) && SNIFF_SUITES.includes(0xc02f) && SNIFF_SUITES.includes(0x002f))
    for (const host of ['127.0.13.1', 'ward-testbed.local', '::1']) {
      const split = splitRecords(tlsSniffHello(host))!
      assert.equal(split.records.length, 1)
      assert.equal(split.rest.length, 0)
      const [rec] = split.records
      assert.deepEqual([rec.type, rec.version], [22, 0x0301])
      const hs = splitHandshake(rec.body).messages
      assert.equal(hs.length, 1)
      assert.equal(hs[0].type, 1)
      assert.ok(rec.body.length >= 512, `ClientHello of ${rec.body.length} bytes`)
      const body = hs[0].body
      assert.equal(body.readUInt16BE(0), 0x0303)
      // Skip version, random, session id, suites and compression to reach the extensions.
      let off = 2 + 32
      off += 1 + body[off]
      off += 2 + body.readUInt16BE(off)
      off += 1 + body[off]
      const exts = new Map<number, Buffer>()
      for (let o = off + 2; o + 4 <= body.length; o += 4 + body.readUInt16BE(o + 2))
        exts.set(body.readUInt16BE(o), body.subarray(o + 4, o + 4 + body.readUInt16BE(o + 2)))
      assert.deepEqual(exts.get(EXT.supportedVersions), Buffer.from([8, 3, 4, 3, 3, 3, 2, 3, 1]))
      assert.equal(exts.get(EXT.keyShare)?.readUInt16BE(2), 0x001d)
      assert.equal(exts.has(EXT.serverName), host === 'ward-testbed.local', `SNI only for a name (${host})`)
    }
  })

  test('silent and plain-text ports: detection ends without a single TLS handshake; ports reported open with their guess', async () => {
    const host = '127.0.13.1'
    const heard: Buffer[] = []
    const silent = await listen(
      net.createServer((s) => {
        s.on('error', () => {})
        s.on('data', (d) => heard.push(d)) // accepts, listens, never speaks
      }),
      host,
      443, // a TLS port: the TLS probe comes first
    )
    const chatty = await listen(
      net.createServer((s) => {
        s.on('error', () => {})
        s.on('data', () => s.write('ERR unknown command\r\n'))
      }),
      host,
    )
    const { egress, counts, close } = countingEgress()
    try {
      const info = await detectService(egress, host, silent.port, { signal: signal(), timeoutMs: 300 })
      assert.deepEqual([info.service, info.tls, info.identified, info.banner], ['https', false, false, null])
      assert.equal(counts.tlsConnect, 0, 'no TLS handshake with a silent port')
      assert.ok(
        heard.some((d) => d[0] === 22 && d[1] === 3),
        'the silent port got our ClientHello over a plain connection',
      )

      const plain = await detectService(egress, host, chatty.port, { signal: signal(), timeoutMs: 300 })
      assert.deepEqual([plain.service, plain.tls, plain.identified], [null, false, false])
      assert.match(plain.banner ?? '', /^ERR unknown command/)
      assert.equal(counts.tlsConnect, 0, 'no TLS handshake with a port answering plain text')

      // The whole tool: both ports open, the silent one under its port's name, still no TLS handshake.
      const r = await runTool(portScanner, { target: host, params: { ports: `${silent.port},${chatty.port}`, timeout_ms: 300 }, egress })
      assert.equal(r.error, undefined)
      assert.deepEqual(
        rows(r).map((p) => [p.port, p.service, p.tls]),
        [
          [silent.port, 'https', false],
          [chatty.port, null, false],
        ].sort((a, b) => (a[0] as number) - (b[0] as number)),
      )
      assert.deepEqual(
        r.findings
          .filter((f) => f.check.id === 'open_port')
          .map((f) => f.port)
          .sort(),
        [silent.port, chatty.port].sort(),
      )
      assert.equal(counts.tlsConnect, 0)
    } finally {
      await close()
      await silent.close()
      await chatty.close()
    }
  })

  test('a TLS server is still detected (https over TLS): sniffed, then one real handshake', async () => {
    const host = '127.0.13.2'
    const server = await listen(httpsServer(), host, 8443) // a TLS port: the TLS probe (and so the sniff) comes first
    const other = await listen(httpsServer(), host) // elsewhere plain probes come first; their TLS alert also tells
    const { egress, counts, close } = countingEgress()
    try {
      const info = await detectService(egress, host, server.port, { signal: signal(), timeoutMs: 2000 })
      assert.deepEqual([info.service, info.product, info.version, info.tls, info.identified], ['https', 'nginx', '1.25.3', true, true])
      assert.deepEqual(counts, { connect: 1, tlsConnect: 1 }, 'the sniff, then one real handshake')

      const r = await runTool(portScanner, { target: host, params: { ports: `${server.port},${other.port}`, timeout_ms: 1000 }, egress })
      assert.equal(r.error, undefined)
      assert.deepEqual(
        rows(r).map((p) => [p.port, p.service, p.product, p.tls]),
        [
          [server.port, 'https', 'nginx', true],
          [other.port, 'https', 'nginx', true],
        ].sort((a, b) => (a[0] as number) - (b[0] as number)),
      )
    } finally {
      await close()
      await server.close()
      await other.close()
    }
  })

  test('a TLS 1.3-only server is still detected', async () => {
    const host = '127.0.13.3'
    const server = await listen(httpsServer({ minVersion: 'TLSv1.3' }), host, 4443)
    const { egress, counts, close } = countingEgress()
    try {
      const info = await detectService(egress, host, server.port, { signal: signal(), timeoutMs: 2000 })
      assert.deepEqual([info.service, info.product, info.tls, info.identified], ['https', 'nginx', true, true])
      assert.deepEqual(counts, { connect: 1, tlsConnect: 1 })
      assert.match(info.banner ?? '', /^HTTP\/1\.1 200 OK/)
    } finally {
      await close()
      await server.close()
    }
  })
})
