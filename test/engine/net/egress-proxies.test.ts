// The proxy egresses (SOCKS5, HTTP CONNECT) against the loopback proxies of test/testbed/proxies.ts.
// Every connection goes to 127.0.7.x; the proxies refuse non-loopback destinations without dialing.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { inspect } from 'node:util'
import type net from 'node:net'
import { createEgress } from '../../../src/engine/net/create-egress.js'
import { checkHttpConnect, createHttpConnectEgress, parseProxyUrl } from '../../../src/engine/net/http-connect.js'
import { checkSocks5 } from '../../../src/engine/net/socks5.js'
import type { Egress } from '../../../src/toolkit/egress.js'
import { deadPort, selfSignedCert, startBlackHole, startHttpConnectProxy, startSocks5Proxy, startTargets } from '../../testbed/proxies.js'
import type { Targets, TestProxy } from '../../testbed/proxies.js'

const USER = 'ward-user'
const PASS = 'S3cret:pa55/w0rd'
const auth = { username: USER, password: PASS }
const names = { 'target.ward.test': '127.0.7.10' }
// Anything that would betray the password, in the forms it travels in.
const SECRET_FORMS = [PASS, encodeURIComponent(PASS), Buffer.from(`${USER}:${PASS}`).toString('base64')]

let targets: Targets
before(async () => {
  targets = await startTargets('127.0.7.10')
})
after(() => targets.close())

/** Reads from a socket until `n` bytes arrived. */
function readBytes(s: net.Socket, n: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = ''
    const onData = (c: Buffer) => {
      got += c.toString()
      if (got.length >= n) {
        s.removeListener('data', onData)
        resolve(got)
      }
    }
    s.on('data', onData)
    s.once('error', reject)
  })
}

async function rejection(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p
  } catch (err) {
    return err as Error & { code?: string }
  }
  assert.fail('expected a rejection')
}

function assertNoSecret(err: unknown) {
  const e = err as Error
  const renderings = [e.message, e.stack ?? '', inspect(e, { depth: 8, showHidden: true }), JSON.stringify(e)]
  for (const r of renderings) for (const secret of SECRET_FORMS) assert.ok(!r.includes(secret), `secret leaked in: ${r}`)
}

interface Variant {
  name: string
  start: () => Promise<TestProxy>
  egress: (p: TestProxy) => Egress
  withAuth: boolean
}

const variants: Variant[] = [
  {
    name: 'socks5 without auth',
    start: () => startSocks5Proxy({ names }),
    egress: (p) => createEgress({ type: 'socks5', host: p.host, port: p.port }),
    withAuth: false,
  },
  {
    name: 'socks5 with username/password',
    start: () => startSocks5Proxy({ names, auth, host: '127.0.7.4', outboundAddress: '127.0.7.94' }),
    egress: (p) => createEgress({ type: 'socks5', host: p.host, port: p.port, username: USER, password: PASS }),
    withAuth: true,
  },
  {
    name: 'http_connect without auth',
    start: () => startHttpConnectProxy({ names }),
    egress: (p) => createEgress({ type: 'http_connect', url: p.url }),
    withAuth: false,
  },
  {
    name: 'http_connect with Basic auth',
    start: () => startHttpConnectProxy({ names, auth, host: '127.0.7.5', outboundAddress: '127.0.7.95' }),
    egress: (p) => createEgress({ type: 'http_connect', url: p.url }),
    withAuth: true,
  },
  {
    name: 'http_connect over TLS (https:// proxy URL) with Basic auth',
    start: () => startHttpConnectProxy({ names, auth, host: '127.0.7.3', outboundAddress: '127.0.7.93', tls: selfSignedCert() }),
    egress: (p) => createEgress({ type: 'http_connect', url: p.url, ca: selfSignedCert().cert }),
    withAuth: true,
  },
]

for (const v of variants) {
  describe(`egress through ${v.name}`, () => {
    let proxy: TestProxy
    let egress: Egress
    before(async () => {
      proxy = await v.start()
      egress = v.egress(proxy)
    })
    after(async () => {
      await egress.close()
      await proxy.close()
    })

    test('check() handshakes with the proxy and makes it connect nowhere', async () => {
      await egress.check()
      assert.equal(proxy.accepted, 1)
      assert.equal(proxy.connections.length, 0)
      assert.equal(proxy.authFailures, 0)
    })

    test('a TCP connect reaches the target, which sees the proxy as the peer', async () => {
      const s = await egress.connect({ host: targets.host, port: targets.tcpPort, timeoutMs: 3000 })
      try {
        assert.equal(await readBytes(s, 12), 'WARD-TARGET\n') // the banner the target sends first
        s.write('ping\n')
        assert.equal(await readBytes(s, 5), 'ping\n')
      } finally {
        s.destroy()
      }
      assert.equal(targets.peers.tcp.at(-1), proxy.outboundAddress)
      assert.deepEqual(proxy.connections.at(-1), {
        destination: `127.0.7.10:${targets.tcpPort}`,
        address: '127.0.7.10',
        port: targets.tcpPort,
        localAddress: proxy.outboundAddress,
        outcome: 'connected',
      })
    })

    test('bytes the target sends first are kept for a caller that starts reading late', async () => {
      const s = await egress.connect({ host: targets.host, port: targets.tcpPort, timeoutMs: 3000 })
      try {
        await new Promise((r) => setTimeout(r, 100))
        assert.equal(await readBytes(s, 12), 'WARD-TARGET\n')
      } finally {
        s.destroy()
      }
    })

    test('a TLS handshake goes through the tunnel', async () => {
      const s = await egress.tlsConnect({ host: targets.host, port: targets.tlsPort, servername: 'localhost', timeoutMs: 3000 })
      try {
        assert.equal(s.getPeerCertificate().subject.CN, 'localhost')
        assert.equal(await readBytes(s, 12), 'WARD-TARGET\n')
      } finally {
        s.destroy()
      }
      assert.equal(targets.peers.tls.at(-1), proxy.outboundAddress)
    })

    test('HTTP and HTTPS requests go through the tunnel', async () => {
      const plain = await egress.http(`http://127.0.7.10:${targets.httpPort}/a`)
      assert.equal(plain.status, 200)
      assert.match(plain.text(), new RegExp(`^peer=${proxy.outboundAddress.replaceAll('.', '\\.')} `))
      const secure = await egress.http(`https://127.0.7.10:${targets.httpsPort}/b`)
      assert.equal(secure.status, 200)
      assert.match(secure.text(), new RegExp(`^peer=${proxy.outboundAddress.replaceAll('.', '\\.')} `))
      assert.equal(targets.peers.https.at(-1), proxy.outboundAddress)
    })

    test('host names reach the proxy unresolved (remote DNS)', async () => {
      // target.ward.test exists only in the proxy's name map: a local lookup would fail.
      const res = await egress.http(`http://target.ward.test:${targets.httpPort}/`)
      assert.equal(res.status, 200)
      assert.match(res.text(), /host=target\.ward\.test:/)
      assert.ok(proxy.requests.some((r) => r.destination === `target.ward.test:${targets.httpPort}` && r.outcome === 'connected'))
    })

    test('a refused target port is ECONNREFUSED, as with a direct connection', async () => {
      const err = await rejection(egress.connect({ host: targets.host, port: targets.closedPort, timeoutMs: 3000 }))
      assert.equal(err.code, 'ECONNREFUSED')
      assert.match(err.message, new RegExp(`127\\.0\\.7\\.10:${targets.closedPort}`))
    })

    test('a destination the proxy refuses by policy is EPROXYDENIED (the test bed dials loopback only)', async () => {
      const before = proxy.connections.length
      const err = await rejection(egress.connect({ host: '192.0.2.1', port: 80, timeoutMs: 3000 }))
      assert.equal(err.code, 'EPROXYDENIED')
      assert.equal(proxy.connections.length, before) // refused without dialing
    })

    test('UDP cannot pass: carriesUdp is false and udp() throws saying why', () => {
      assert.equal(egress.carriesUdp, false)
      assert.throws(() => egress.udp(), /cannot carry UDP/)
    })

    if (v.withAuth) {
      test('wrong credentials: check() and connect() say the proxy rejected them, without the secret', async () => {
        const wrong = v.name.startsWith('socks5')
          ? createEgress({ type: 'socks5', host: proxy.host, port: proxy.port, username: USER, password: 'not-the-password' })
          : createEgress({
              type: 'http_connect',
              url: proxy.url.replace(encodeURIComponent(PASS), 'not-the-password'),
              ca: selfSignedCert().cert,
            })
        const checkErr = await rejection(wrong.check())
        assert.match(checkErr.message, /proxy 127\.0\.7\.\d+:\d+ rejected the credentials/)
        assert.equal(checkErr.code, 'EPROXYAUTH')
        const connectErr = await rejection(wrong.connect({ host: targets.host, port: targets.tcpPort, timeoutMs: 3000 }))
        assert.equal(connectErr.code, 'EPROXYAUTH')
        assert.ok(proxy.authFailures >= 2)
        await wrong.close()
      })

      test('no credentials for a proxy that requires them: check() says so', async () => {
        const none = v.name.startsWith('socks5')
          ? createEgress({ type: 'socks5', host: proxy.host, port: proxy.port })
          : createEgress({ type: 'http_connect', url: proxy.url.replace(/\/\/[^@]+@/, '//'), ca: selfSignedCert().cert })
        const err = await rejection(none.check())
        assert.match(err.message, /requires authentication but the profile has no credentials/)
        await none.close()
      })

      test('secrets never appear in errors (wrong password, refused target, denied destination)', async () => {
        const errors: unknown[] = []
        errors.push(await rejection(egress.connect({ host: targets.host, port: targets.closedPort, timeoutMs: 3000 })))
        errors.push(await rejection(egress.connect({ host: '192.0.2.1', port: 80, timeoutMs: 3000 })))
        errors.push(await rejection(egress.http(`http://127.0.7.10:${targets.closedPort}/`)))
        const wrongPass = 'Wr0ng:secret/pass'
        const wrong = v.name.startsWith('socks5')
          ? createEgress({ type: 'socks5', host: proxy.host, port: proxy.port, username: USER, password: wrongPass })
          : createEgress({
              type: 'http_connect',
              url: proxy.url.replace(encodeURIComponent(PASS), encodeURIComponent(wrongPass)),
              ca: selfSignedCert().cert,
            })
        errors.push(await rejection(wrong.check()))
        errors.push(await rejection(wrong.connect({ host: targets.host, port: targets.tcpPort, timeoutMs: 3000 })))
        errors.push(await rejection(wrong.http(`http://127.0.7.10:${targets.httpPort}/`)))
        await wrong.close()
        for (const e of errors) {
          assertNoSecret(e)
          for (const r of [(e as Error).message, inspect(e, { showHidden: true, depth: 8 })]) {
            assert.ok(!r.includes(wrongPass) && !r.includes(encodeURIComponent(wrongPass)), `wrong password leaked in: ${r}`)
          }
        }
        assert.ok(!inspect(egress, { showHidden: true, depth: 8 }).includes(PASS))
      })
    }
  })
}

describe('dead, hanging and broken proxies', () => {
  test('a dead SOCKS5 proxy: check() says unreachable, connect fails fast', async () => {
    const port = await deadPort('127.0.7.50')
    const egress = createEgress({ type: 'socks5', host: '127.0.7.50', port, username: USER, password: PASS })
    const err = await rejection(egress.check())
    assert.equal(err.message, `SOCKS5 proxy 127.0.7.50:${port} is unreachable: connect ECONNREFUSED 127.0.7.50:${port}`)
    assert.equal(err.code, 'EPROXYUNREACHABLE')
    const started = performance.now()
    const connectErr = await rejection(egress.connect({ host: targets.host, port: targets.tcpPort, timeoutMs: 5000 }))
    assert.ok(performance.now() - started < 1000)
    assert.equal(connectErr.code, 'EPROXYUNREACHABLE') // not ECONNREFUSED: the target port is not "closed"
    assertNoSecret(err)
    assertNoSecret(connectErr)
    await egress.close()
  })

  test('a dead HTTP CONNECT proxy: check() says unreachable, connect fails fast', async () => {
    const port = await deadPort('127.0.7.50')
    const egress = createEgress({ type: 'http_connect', url: `http://${USER}:${encodeURIComponent(PASS)}@127.0.7.50:${port}` })
    const err = await rejection(egress.check())
    assert.equal(err.message, `HTTP proxy 127.0.7.50:${port} is unreachable: connect ECONNREFUSED 127.0.7.50:${port}`)
    const started = performance.now()
    const connectErr = await rejection(egress.http(`http://127.0.7.10:${targets.httpPort}/`, { timeoutMs: 5000 }))
    assert.ok(performance.now() - started < 1000)
    assert.match(connectErr.message + String((connectErr as { cause?: Error }).cause?.message), /is unreachable/)
    assertNoSecret(err)
    assertNoSecret(connectErr)
    await egress.close()
  })

  test('a proxy that never answers: timeoutMs and AbortSignal are honoured', async () => {
    const hole = await startBlackHole('127.0.7.51')
    try {
      for (const egress of [
        createEgress({ type: 'socks5', host: hole.host, port: hole.port }),
        createEgress({ type: 'http_connect', url: `http://${hole.host}:${hole.port}` }),
      ]) {
        let started = performance.now()
        const timedOut = await rejection(egress.connect({ host: targets.host, port: targets.tcpPort, timeoutMs: 300 }))
        assert.equal(timedOut.code, 'ETIMEDOUT')
        assert.match(timedOut.message, /timed out after 300 ms/)
        assert.ok(performance.now() - started < 1000)

        started = performance.now()
        const aborted = await rejection(
          egress.connect({ host: targets.host, port: targets.tcpPort, timeoutMs: 10000, signal: AbortSignal.timeout(200) }),
        )
        assert.ok(performance.now() - started < 1000)
        assert.equal(aborted.name, 'TimeoutError')

        const ac = new AbortController()
        ac.abort()
        await assert.rejects(egress.connect({ host: targets.host, port: targets.tcpPort, signal: ac.signal }), { name: 'AbortError' })

        started = performance.now()
        await assert.rejects(egress.check(AbortSignal.timeout(200)))
        await assert.rejects(egress.http(`http://127.0.7.10:${targets.httpPort}/`, { signal: AbortSignal.timeout(200) }))
        assert.ok(performance.now() - started < 1500)
        await egress.close()
      }
      await assert.rejects(
        checkSocks5({ host: hole.host, port: hole.port }, undefined, 300),
        /handshake with the SOCKS5 proxy .* timed out after 300 ms/,
      )
      await assert.rejects(
        checkHttpConnect({ url: `http://${hole.host}:${hole.port}` }, undefined, 300),
        /CONNECT check with the HTTP proxy .* timed out after 300 ms/,
      )
    } finally {
      await hole.close()
    }
  })

  test('close() aborts tunnels still being set up', async () => {
    const hole = await startBlackHole('127.0.7.52')
    try {
      for (const egress of [
        createEgress({ type: 'socks5', host: hole.host, port: hole.port }),
        createEgress({ type: 'http_connect', url: `http://${hole.host}:${hole.port}` }),
      ]) {
        const pending = egress.connect({ host: targets.host, port: targets.tcpPort, timeoutMs: 20000 })
        await new Promise((r) => setTimeout(r, 50))
        const started = performance.now()
        await egress.close()
        await assert.rejects(pending, /egress was closed/)
        assert.ok(performance.now() - started < 500)
        await assert.rejects(egress.connect({ host: targets.host, port: targets.tcpPort }), /egress was closed/)
      }
    } finally {
      await hole.close()
    }
  })

  test('a SOCKS5 egress pointed at an HTTP proxy, and the reverse, say the protocol is wrong', async () => {
    const httpProxy = await startHttpConnectProxy({ host: '127.0.7.6' })
    const socksProxy = await startSocks5Proxy({ host: '127.0.7.7' })
    try {
      // An HTTP proxy waits for a request line that never comes: the check times out.
      await assert.rejects(
        checkSocks5({ host: httpProxy.host, port: httpProxy.port }, undefined, 500),
        /handshake with the SOCKS5 proxy 127\.0\.7\.6:\d+ timed out/,
      )
      // A SOCKS5 proxy reads "CO" as version 0x43 and hangs up.
      await assert.rejects(
        createEgress({ type: 'http_connect', url: `http://${socksProxy.host}:${socksProxy.port}` }).check(),
        /HTTP proxy 127\.0\.7\.7:\d+ closed the connection without answering CONNECT/,
      )
    } finally {
      await httpProxy.close()
      await socksProxy.close()
    }
  })

  test('an https:// proxy whose certificate is not trusted is refused before any credentials are sent', async () => {
    const proxy = await startHttpConnectProxy({ host: '127.0.7.8', auth, tls: selfSignedCert() })
    try {
      const err = await rejection(createHttpConnectEgress({ url: proxy.url }).check())
      assert.match(err.message, /^HTTPS proxy 127\.0\.7\.8:\d+: TLS handshake failed: /)
      assert.equal(proxy.authFailures, 0)
      assert.equal(proxy.requests.length, 0)
      assertNoSecret(err)
    } finally {
      await proxy.close()
    }
  })
})

describe('createEgress and the proxy URL', () => {
  test('null is the direct egress; profiles pick their kind', () => {
    assert.equal(createEgress(null).kind, 'direct')
    assert.equal(createEgress(null).carriesUdp, true)
    const socks = createEgress({ type: 'socks5', host: '127.0.7.1', port: 1080 })
    assert.deepEqual([socks.kind, socks.carriesUdp], ['socks5', false])
    const httpc = createEgress({ type: 'http_connect', url: 'http://127.0.7.2:3128' })
    assert.deepEqual([httpc.kind, httpc.carriesUdp], ['http_connect', false])
    assert.throws(() => createEgress({ type: 'wireguard' } as never), /unknown VPN profile type "wireguard"/)
  })

  test('proxy URLs: credentials decoded, default ports, bad URLs rejected without echoing them', () => {
    const p = parseProxyUrl(`http://${USER}:${encodeURIComponent(PASS)}@127.0.7.2:3128`)
    assert.equal(p.authorization, `Basic ${Buffer.from(`${USER}:${PASS}`).toString('base64')}`)
    assert.deepEqual([p.host, p.port, p.tls, p.label], ['127.0.7.2', 3128, false, 'HTTP proxy 127.0.7.2:3128'])
    assert.equal(parseProxyUrl('http://[::1]').port, 80)
    assert.equal(parseProxyUrl('http://[::1]').label, 'HTTP proxy [::1]:80')
    assert.equal(parseProxyUrl('https://proxy.internal').port, 443)
    for (const bad of [`ftp://${USER}:${PASS}@x:1`, `http://${USER}:${PASS}@[bad`, `http://${USER}:${encodeURIComponent(PASS)}@x:1/path`]) {
      const err = (() => {
        try {
          parseProxyUrl(bad)
        } catch (e) {
          return e as Error
        }
        assert.fail(`accepted ${bad}`)
      })()
      assertNoSecret(err)
      assert.ok(!inspect(err, { showHidden: true }).includes(USER))
    }
  })
})
