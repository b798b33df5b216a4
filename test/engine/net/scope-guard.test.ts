// The scope guard on real connections: every spelling of a blocked address, names that resolve into
// a blocked range, redirects followed by the web tools, addresses taken from DNS answers, UDP, and
// both proxy egresses (proxy host and tunnelled targets). Blocked attempts send nothing (the test
// beds on the blocked address count every connection) and fail with one message whatever the port.
// Loopback addresses of this file: 127.0.20.x.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import dgram from 'node:dgram'
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import { createEgress } from '../../../src/engine/net/create-egress.js'
import { createScopedDispatcher } from '../../../src/engine/net/scoped-dispatcher.js'
import { parseScope, type Scope } from '../../../src/toolkit/scope.js'
import { resolveStartUrl } from '../../../src/tools/lib/http/start-url.js'
import { subdomainFinder } from '../../../src/tools/subdomain-finder/run.js'
import { portScanner } from '../../../src/tools/port-scanner/run.js'
import { runTool } from '../../helpers/tool-harness.js'
import { startDnsServer, type Zone } from '../../testbed/dns-server.js'
import { startHttpConnectProxy, startSocks5Proxy, startTargets, type Targets, type TestProxy } from '../../testbed/proxies.js'
import { CLASS, normalizeName, TYPE } from '../../../src/tools/lib/dns/message.js'
import { request } from 'undici'

const BLOCKED = '127.0.20.9'
const ALLOWED = '127.0.20.10'
/** 127.0.20.9 as the bypasses spell it. */
const SPELLINGS = [
  '127.0.20.9',
  '::ffff:127.0.20.9',
  '[::ffff:127.0.20.9]',
  '0:0:0:0:0:ffff:7f00:1409',
  '::ffff:7f00:1409',
  '0x7f.0.20.9',
  '0x7f.0x0.0x14.0x9',
  '0177.0.024.011',
  '2130711561',
  '127.5129',
  '127.0.5129',
  '64:ff9b::7f00:1409',
]

const scope: Scope = parseScope('WARD_TARGET_BLOCKLIST', `${BLOCKED}/32`)
let blocked: Targets
let allowed: Targets

before(async () => {
  blocked = await startTargets(BLOCKED)
  allowed = await startTargets(ALLOWED)
})
after(async () => {
  await blocked.close()
  await allowed.close()
})

const untouched = () => assert.deepEqual(blocked.peers, { tcp: [], tls: [], http: [], https: [] }, 'the blocked test bed saw a connection')
const code = (e: unknown) => (e as { code?: string }).code

describe('direct egress', () => {
  const egress = createDirectEgress(scope)
  after(() => egress.close())

  test('every spelling of a blocked address is refused before connecting, for TCP, TLS and HTTP(S)', async () => {
    for (const host of SPELLINGS) {
      await assert.rejects(egress.connect({ host, port: blocked.tcpPort }), (e) => code(e) === 'EBLOCKED', host)
      await assert.rejects(egress.tlsConnect({ host, port: blocked.tlsPort }), (e) => code(e) === 'EBLOCKED', host)
      const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
      await assert.rejects(egress.http(`http://${h}:${blocked.httpPort}/`), (e) => code(e) === 'EBLOCKED', host)
      await assert.rejects(egress.http(`https://${h}:${blocked.httpsPort}/`), (e) => code(e) === 'EBLOCKED', host)
    }
    untouched()
    // The same egress still reaches what is in scope.
    const s = await egress.connect({ host: ALLOWED, port: allowed.tcpPort })
    s.destroy()
    assert.equal((await egress.http(`http://${ALLOWED}:${allowed.httpPort}/`)).status, 200)
  })

  test('open, closed and filtered ports of a blocked address give one message', async () => {
    const messages = new Set<string>()
    for (const port of [blocked.tcpPort, blocked.closedPort, 9]) {
      const e = await egress.connect({ host: '::ffff:127.0.20.9', port }).then(
        () => null,
        (err: Error) => err,
      )
      messages.add(e!.message)
    }
    assert.deepEqual(
      [...messages],
      ['connection to ::ffff:127.0.20.9 blocked: outside the allowed scope (WARD_TARGET_BLOCKLIST); nothing was sent'],
    )
  })

  test('a name that resolves into a blocked range is refused (localhost: the one name tests resolve)', async () => {
    const loopback = createDirectEgress(parseScope('WARD_TARGET_BLOCKLIST', '127.0.0.0/8,::1'))
    try {
      for (const host of ['localhost', 'LOCALHOST.', '0.0.0.0', '::', '0'])
        await assert.rejects(loopback.connect({ host, port: allowed.tcpPort }), (e) => code(e) === 'EBLOCKED', host)
      await assert.rejects(loopback.http(`http://localhost:${allowed.httpPort}/`), (e) => code(e) === 'EBLOCKED')
    } finally {
      await loopback.close()
    }
    // A scanner whose target name resolves into the range ends with the guard's message, not "filtered".
    const scanEgress = createDirectEgress(parseScope('WARD_TARGET_BLOCKLIST', '127.0.0.0/8,::1'))
    const r = await runTool(portScanner, { target: 'localhost', params: { ports: String(allowed.tcpPort) }, egress: scanEgress })
    await scanEgress.close()
    assert.match(String(r.error?.message), /connection to localhost blocked: outside the allowed scope/)
    // Resolution happens once, in the guard, and the socket goes to the checked address.
    const onlyV6 = createDirectEgress(parseScope('WARD_TARGET_BLOCKLIST', '::1'))
    await assert.rejects(onlyV6.connect({ host: 'localhost', port: allowed.tcpPort }), (e) => code(e) === 'EBLOCKED')
    await onlyV6.close()
  })

  test('UDP: datagrams to a blocked address are never sent; allowed ones are', async () => {
    const listener = dgram.createSocket('udp4')
    const got: string[] = []
    listener.on('message', (m) => got.push(m.toString()))
    await new Promise<void>((r) => listener.bind(0, BLOCKED, () => r()))
    const port = (listener.address() as AddressInfo).port
    try {
      for (const host of SPELLINGS.filter((s) => !s.includes(':'))) {
        const s = egress.udp('udp4')
        const err = await new Promise<Error | null>((resolve) => s.connect(port, host, (e?: Error) => resolve(e ?? null)))
        assert.equal(code(err), 'EBLOCKED', `connect ${host}`)
        s.close()
        const u = egress.udp('udp4')
        const sent = await new Promise<Error | null>((resolve) => u.send('x', port, host, (e) => resolve(e ?? null)))
        assert.equal(code(sent), 'EBLOCKED', `send ${host}`)
        u.close()
      }
      await new Promise((r) => setTimeout(r, 100))
      assert.deepEqual(got, [])
      // Control: the same socket kind reaches an allowed address (so the block above is the guard).
      const open = dgram.createSocket('udp4')
      await new Promise<void>((r) => open.bind(0, ALLOWED, () => r()))
      const seen = new Promise<string>((r) => open.once('message', (m) => r(m.toString())))
      const u = egress.udp('udp4')
      u.send('hello', (open.address() as AddressInfo).port, ALLOWED)
      assert.equal(await seen, 'hello')
      u.close()
      open.close()
    } finally {
      listener.close()
    }
  })
})

describe('redirects followed by the web tools', () => {
  let site: http.Server
  let base: string
  before(async () => {
    // /r?to=<host> redirects to the blocked bed's web server under that spelling of its address.
    site = http.createServer((req, res) => {
      const to = new URL(req.url!, 'http://x').searchParams.get('to')
      if (!to) return res.end('home')
      res.writeHead(302, { location: `http://${to}:${blocked.httpPort}/loot` }).end()
    })
    await new Promise<void>((r) => site.listen(0, ALLOWED, () => r()))
    base = `http://${ALLOWED}:${(site.address() as AddressInfo).port}`
  })
  after(() => new Promise<void>((r) => site.close(() => r())))

  test('a redirect into a blocked address is not followed, whatever its spelling', async () => {
    const egress = createDirectEgress(scope)
    try {
      for (const spelling of SPELLINGS) {
        const to = spelling.includes(':') && !spelling.startsWith('[') ? `[${spelling}]` : spelling
        const logs: string[] = []
        const r = await resolveStartUrl({
          net: egress,
          target: { name: `${base}/r?to=${encodeURIComponent(to)}`, type: 'url' },
          redirectLevel: 'allow_all',
          scanOriginalUrl: false,
          signal: new AbortController().signal,
          log: (l) => logs.push(l),
        }).catch((e: Error) => e)
        const text = r instanceof Error ? r.message : logs.join('\n')
        assert.match(text, /blocked: outside the allowed scope/, `${spelling}: ${text}`)
      }
      untouched()
    } finally {
      await egress.close()
    }
  })
})

describe('addresses from DNS answers', () => {
  const NS_BLOCKED = '127.0.20.66'
  const DNS = '127.0.20.53'
  const rr = (name: string, type: keyof typeof TYPE, data: string) => ({
    name: normalizeName(name),
    type: TYPE[type],
    class: CLASS.IN,
    ttl: 300,
    data,
  })
  const zone: Zone = {
    origin: 'scope.example',
    axfr: true,
    records: [
      rr('scope.example', 'SOA', 'ns1.scope.example hostmaster.scope.example 1 3600 600 604800 300'),
      rr('scope.example', 'NS', 'ns1.scope.example'),
      rr('scope.example', 'NS', 'ns2.scope.example'),
      rr('ns1.scope.example', 'A', NS_BLOCKED),
      rr('ns2.scope.example', 'A', DNS),
      rr('www.scope.example', 'A', ALLOWED),
    ],
  }
  let accepted = 0
  let trap: net.Server

  test('a name server address from the answers that is blocked gets no zone transfer attempt; the allowed one does', async () => {
    trap = net.createServer((s) => {
      accepted++
      s.destroy()
    })
    await new Promise<void>((r) => trap.listen(53, NS_BLOCKED, () => r()))
    const dns = await startDnsServer({ host: DNS, zones: [zone] })
    try {
      const egress = createDirectEgress(parseScope('WARD_TARGET_BLOCKLIST', NS_BLOCKED))
      const r = await runTool(subdomainFinder, { target: 'scope.example', params: { resolver: DNS }, egress })
      await egress.close()
      const axfr = r.logs.filter((l) => l.startsWith('AXFR'))
      assert.ok(
        axfr.some((l) => l.includes(`(${NS_BLOCKED}): refused — `) && l.includes('EBLOCKED')),
        axfr.join('\n'),
      )
      assert.ok(
        axfr.some((l) => l.includes(`(${DNS}): ALLOWED`)),
        axfr.join('\n'),
      )
      assert.equal(accepted, 0, 'the blocked name server was contacted')
    } finally {
      await dns.close()
      await new Promise<void>((r) => trap.close(() => r()))
    }
  })
})

describe('proxy egresses', () => {
  let socks: TestProxy
  let httpc: TestProxy
  before(async () => {
    socks = await startSocks5Proxy({ host: '127.0.20.30', outboundAddress: '127.0.20.98' })
    httpc = await startHttpConnectProxy({ host: '127.0.20.31', outboundAddress: '127.0.20.97' })
  })
  after(async () => {
    await socks.close()
    await httpc.close()
  })
  const profiles = () => [
    { type: 'socks5' as const, host: socks.host, port: socks.port },
    { type: 'http_connect' as const, url: `http://${httpc.host}:${httpc.port}` },
  ]

  test('a proxy host in a blocked range is never contacted, in any spelling', async () => {
    for (const spelling of ['127.0.20.30', '::ffff:127.0.20.30', '0x7f.0.20.30', '2130711582']) {
      const vpnHost = parseScope('WARD_VPN_HOST_BLOCKLIST', '127.0.20.30/31')
      for (const p of profiles()) {
        const host = p.type === 'socks5' ? spelling : spelling.includes(':') ? `[${spelling}]` : spelling
        const profile = p.type === 'socks5' ? { ...p, host } : { ...p, url: `http://${host}:${p.type === 'http_connect' ? httpc.port : 0}` }
        const egress = createEgress(profile, { target: parseScope('WARD_TARGET_BLOCKLIST', ''), vpnHost })
        await assert.rejects(egress.check(), (e) => code(e) === 'EBLOCKED', `${p.type} ${spelling}`)
        await assert.rejects(
          egress.connect({ host: ALLOWED, port: allowed.tcpPort }),
          (e) => code(e) === 'EBLOCKED',
          `${p.type} ${spelling}`,
        )
        await egress.close()
      }
    }
    assert.equal(socks.accepted + httpc.accepted, 0)
  })

  test('targets in a blocked range are refused before the proxy is asked; one message whatever the port', async () => {
    const before = socks.accepted + httpc.accepted
    for (const p of profiles()) {
      const egress = createEgress(p, { target: scope, vpnHost: parseScope('WARD_VPN_HOST_BLOCKLIST', 'metadata') })
      try {
        const messages = new Set<string>()
        for (const host of SPELLINGS) {
          for (const port of [blocked.tcpPort, blocked.closedPort, 9]) {
            const e = await egress.connect({ host, port }).then(
              () => null,
              (err: Error) => err,
            )
            assert.equal(code(e), 'EBLOCKED', `${p.type} ${host}:${port}`)
            messages.add(e!.message.replace(host, 'HOST'))
          }
        }
        assert.equal(messages.size, 1, [...messages].join('\n'))
        // Control: through the same proxy, an allowed target answers.
        assert.equal((await egress.http(`http://${ALLOWED}:${allowed.httpPort}/`)).status, 200)
      } finally {
        await egress.close()
      }
    }
    untouched()
    assert.equal(
      socks.requests.concat(httpc.requests).filter((r) => r.destination.includes('127.0.20.9') || r.destination.includes('7f00')).length,
      0,
    )
    assert.ok(socks.accepted + httpc.accepted > before)
  })
})

describe("Ward's own requests (report callbacks)", () => {
  test('the scoped dispatcher refuses every spelling and names nothing about the port', async () => {
    const dispatcher = createScopedDispatcher(parseScope('WARD_CALLBACK_BLOCKLIST', `${BLOCKED}/32`), 2000)
    try {
      const messages = new Set<string>()
      for (const spelling of SPELLINGS) {
        const h = spelling.includes(':') && !spelling.startsWith('[') ? `[${spelling}]` : spelling
        for (const port of [blocked.httpPort, blocked.closedPort]) {
          const e = await request(`http://${h}:${port}/hook`, { method: 'POST', body: '{}', dispatcher }).then(
            () => null,
            (err: Error) => err,
          )
          assert.equal(code(e), 'EBLOCKED', `${spelling}:${port}`)
          messages.add(`${e!.message}`.replace(/connection to \S+ blocked/, 'connection to HOST blocked'))
        }
      }
      assert.deepEqual([...messages], ['connection to HOST blocked: outside the allowed scope (WARD_CALLBACK_BLOCKLIST); nothing was sent'])
      untouched()
      const ok = await request(`http://${ALLOWED}:${allowed.httpPort}/`, { dispatcher })
      assert.equal(ok.statusCode, 200)
      await ok.body.dump()
      // Unlike a scan's, Ward's own HTTPS requests verify the certificate (the test bed's is self-signed).
      await assert.rejects(request(`https://${ALLOWED}:${allowed.httpsPort}/`, { dispatcher }), (e) =>
        /SELF_SIGNED|UNABLE_TO_VERIFY|CERT/.test(String(code(e))),
      )
    } finally {
      await dispatcher.close()
    }
  })
})
