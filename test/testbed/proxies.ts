// Loopback test bed for the VPN-profile egresses: a SOCKS5 proxy (no auth or username/password), an
// HTTP CONNECT proxy (no auth or Basic; plain or TLS), and target servers (TCP, TLS, HTTP, HTTPS) that
// record who connected. Each proxy binds its outbound sockets to its own `outboundAddress`, so a test
// can prove that a target saw the connection coming from the proxy and not from Ward.
// Safety net for the network rule: the proxies only ever dial loopback (127.0.0.0/8, ::1). Names are
// resolved from the proxy's own `names` map ('localhost' → 127.0.0.1), never through the system resolver.
import net from 'node:net'
import tls from 'node:tls'
import http from 'node:http'
import https from 'node:https'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A request a client made to a proxy (names as sent, unresolved). */
export interface ProxyRequest {
  destination: string
  outcome: 'connected' | 'denied' | 'refused' | 'error'
}

/** A connection the proxy itself opened (it sent packets to `address:port`). */
export interface ProxyConnection {
  destination: string
  address: string
  port: number
  /** Local address of the proxy's outbound socket: the peer address the target sees. */
  localAddress: string | null
  outcome: 'connected' | 'refused' | 'error'
}

export interface TestProxy {
  host: string
  port: number
  /** For the HTTP CONNECT proxy: its URL with the credentials, ready for a profile. */
  url: string
  outboundAddress: string
  requests: ProxyRequest[]
  connections: ProxyConnection[]
  /** Client sessions that were refused for missing or wrong credentials. */
  authFailures: number
  /** Client TCP connections accepted by the proxy (including checks). */
  accepted: number
  close(): Promise<void>
}

export interface ProxyOptions {
  /** Listen address (default 127.0.7.1 for SOCKS5, 127.0.7.2 for HTTP CONNECT). */
  host?: string
  port?: number
  /** Address the outbound sockets bind to (default 127.0.7.99 / 127.0.7.98). */
  outboundAddress?: string
  auth?: { username: string; password: string }
  /** Extra name → loopback IP entries for the proxy's own "DNS". */
  names?: Record<string, string>
  /** HTTP CONNECT only: serve the proxy over TLS with this key/cert. */
  tls?: { key: string; cert: string }
}

const loopback = new net.BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')

/** The loopback IP a proxy would dial for `host`, or null (denied: not loopback, or an unknown name). */
function resolveLoopback(host: string, names: Record<string, string>): string | null {
  const ip = net.isIP(host) ? host : (names[host.toLowerCase()] ?? (host.toLowerCase() === 'localhost' ? '127.0.0.1' : null))
  if (!ip) return null
  const family = net.isIP(ip)
  if (family === 4 && loopback.check(ip, 'ipv4')) return ip
  if (family === 6 && loopback.check(ip, 'ipv6')) return ip
  return null
}

function dialOut(address: string, port: number, outboundAddress: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    // An IPv4 local address cannot source an IPv6 connection: ::1 targets see ::1.
    const localAddress = net.isIP(address) === 4 ? outboundAddress : undefined
    const s = net.connect({ host: address, port, localAddress })
    s.setTimeout(3000, () => s.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })))
    s.once('error', reject)
    s.once('connect', () => {
      s.setTimeout(0)
      s.removeListener('error', reject)
      resolve(s)
    })
  })
}

function splice(client: net.Socket, upstream: net.Socket, pending: Buffer) {
  if (pending.length) upstream.write(pending)
  client.pipe(upstream)
  upstream.pipe(client)
  const both = () => {
    client.destroy()
    upstream.destroy()
  }
  client.on('error', both).on('close', both)
  upstream.on('error', both).on('close', both)
}

/** Exact-length reads over a socket; `detach()` stops reading and returns what was buffered. */
function byteReader(socket: net.Socket) {
  let buf = Buffer.alloc(0)
  let want: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | undefined
  let closed = false
  const pump = () => {
    if (!want) return
    if (buf.length >= want.n) {
      const w = want
      want = undefined
      const out = buf.subarray(0, w.n)
      buf = buf.subarray(w.n)
      w.resolve(out)
    } else if (closed) {
      const w = want
      want = undefined
      w.reject(new Error('client went away'))
    }
  }
  const onData = (c: Buffer) => {
    buf = Buffer.concat([buf, c])
    pump()
  }
  const onEnd = () => {
    closed = true
    pump()
  }
  socket.on('data', onData).on('close', onEnd).on('error', onEnd)
  return {
    read: (n: number) => new Promise<Buffer>((resolve, reject) => ((want = { n, resolve, reject }), pump())),
    detach(): Buffer {
      socket.removeListener('data', onData)
      socket.pause()
      return buf
    },
  }
}

function listen(server: net.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve((server.address() as net.AddressInfo).port))
  })
}

function closer(server: net.Server, sockets: Set<net.Socket>) {
  server.on('connection', (s: net.Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy()
      server.close(() => resolve())
    })
}

function baseProxy(o: ProxyOptions, defaults: { host: string; outbound: string }) {
  const state = {
    host: o.host ?? defaults.host,
    outboundAddress: o.outboundAddress ?? defaults.outbound,
    requests: [] as ProxyRequest[],
    connections: [] as ProxyConnection[],
    authFailures: 0,
    accepted: 0,
  }
  const sockets = new Set<net.Socket>()
  /** Resolves, checks and dials a destination, recording everything. */
  async function open(
    destination: string,
    host: string,
    port: number,
  ): Promise<{ upstream?: net.Socket; outcome: ProxyRequest['outcome']; code?: string }> {
    const address = resolveLoopback(host, o.names ?? {})
    if (!address || port < 1 || port > 65535) {
      state.requests.push({ destination, outcome: 'denied' })
      return { outcome: 'denied' }
    }
    try {
      const upstream = await dialOut(address, port, state.outboundAddress)
      sockets.add(upstream)
      upstream.on('close', () => sockets.delete(upstream))
      state.connections.push({ destination, address, port, localAddress: upstream.localAddress ?? null, outcome: 'connected' })
      state.requests.push({ destination, outcome: 'connected' })
      return { upstream, outcome: 'connected' }
    } catch (err) {
      const code = (err as { code?: string }).code
      const outcome = code === 'ECONNREFUSED' ? 'refused' : 'error'
      state.connections.push({ destination, address, port, localAddress: null, outcome })
      state.requests.push({ destination, outcome })
      return { outcome, code }
    }
  }
  return { state, sockets, open }
}

/** A SOCKS5 proxy (CONNECT only) on loopback; username/password auth when `auth` is given. */
export async function startSocks5Proxy(o: ProxyOptions = {}): Promise<TestProxy> {
  const { state, sockets, open } = baseProxy(o, { host: '127.0.7.1', outbound: '127.0.7.99' })
  const server = net.createServer((client) => {
    state.accepted++
    client.on('error', () => {})
    handle(client).catch(() => client.destroy())
  })
  async function handle(client: net.Socket) {
    const r = byteReader(client)
    const [version, nMethods] = await r.read(2)
    if (version !== 5) return void client.destroy()
    const methods = [...(await r.read(nMethods))]
    if (o.auth) {
      if (!methods.includes(2)) {
        state.authFailures++
        return void client.end(Buffer.from([5, 0xff]))
      }
      client.write(Buffer.from([5, 2]))
      await r.read(1) // sub-negotiation version
      const user = (await r.read((await r.read(1))[0])).toString()
      const pass = (await r.read((await r.read(1))[0])).toString()
      if (user !== o.auth.username || pass !== o.auth.password) {
        state.authFailures++
        return void client.end(Buffer.from([1, 1]))
      }
      client.write(Buffer.from([1, 0]))
    } else {
      if (!methods.includes(0)) return void client.end(Buffer.from([5, 0xff]))
      client.write(Buffer.from([5, 0]))
    }
    const [, command, , addressType] = await r.read(4)
    let host: string
    if (addressType === 1) host = [...(await r.read(4))].join('.')
    else if (addressType === 4) {
      const b = await r.read(16)
      host = Array.from({ length: 8 }, (_, i) => b.readUInt16BE(i * 2).toString(16)).join(':')
    } else if (addressType === 3) host = (await r.read((await r.read(1))[0])).toString()
    else return void client.end(reply(8))
    const port = (await r.read(2)).readUInt16BE()
    if (command !== 1) return void client.end(reply(7))
    const destination = `${net.isIP(host) === 6 ? `[${host}]` : host}:${port}`
    const result = await open(destination, host, port)
    if (!result.upstream) {
      const code = result.outcome === 'denied' ? 2 : result.code === 'ECONNREFUSED' ? 5 : result.code === 'ETIMEDOUT' ? 6 : 4
      return void client.end(reply(code))
    }
    client.write(reply(0, result.upstream))
    splice(client, result.upstream, r.detach())
  }
  const close = closer(server, sockets)
  const port = await listen(server, state.host, o.port ?? 0)
  const url = `socks5://${state.host}:${port}`
  return Object.assign(state, { port, url, close })
}

function reply(code: number, bound?: net.Socket): Buffer {
  const addr = bound?.localAddress && net.isIP(bound.localAddress) === 4 ? bound.localAddress.split('.').map(Number) : [0, 0, 0, 0]
  const port = Buffer.alloc(2)
  port.writeUInt16BE(bound?.localPort ?? 0)
  return Buffer.concat([Buffer.from([5, code, 0, 1, ...addr]), port])
}

/** An HTTP CONNECT proxy on loopback; Basic auth when `auth` is given; TLS to the proxy when `tls` is. */
export async function startHttpConnectProxy(o: ProxyOptions = {}): Promise<TestProxy> {
  const { state, sockets, open } = baseProxy(o, { host: '127.0.7.2', outbound: '127.0.7.98' })
  const expected = o.auth ? `Basic ${Buffer.from(`${o.auth.username}:${o.auth.password}`).toString('base64')}` : undefined
  const onClient = (client: net.Socket) => {
    state.accepted++
    client.on('error', () => {})
    handle(client).catch(() => client.destroy())
  }
  // A TLS proxy's clients are TLSSockets: count and track the raw TCP connection separately.
  const server = o.tls ? tls.createServer({ key: o.tls.key, cert: o.tls.cert }, onClient) : net.createServer(onClient)
  const respond = (client: net.Socket, status: string, extra = '') =>
    client.end(`HTTP/1.1 ${status}\r\n${extra}Content-Length: 0\r\nConnection: close\r\n\r\n`)
  async function handle(client: net.Socket) {
    let head = Buffer.alloc(0)
    const end = await new Promise<number>((resolve, reject) => {
      const onData = (c: Buffer) => {
        head = Buffer.concat([head, c])
        const i = head.indexOf('\r\n\r\n')
        if (i >= 0) {
          client.removeListener('data', onData)
          client.pause()
          resolve(i)
        } else if (head.length > 65536) reject(new Error('head too large'))
      }
      client.on('data', onData)
      client.once('close', () => reject(new Error('client went away')))
    })
    const [requestLine, ...headerLines] = head.subarray(0, end).toString('latin1').split('\r\n')
    const pending = head.subarray(end + 4)
    const [method, authority] = requestLine.split(' ')
    const headers = new Map(headerLines.map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
    if (method !== 'CONNECT') return respond(client, '405 Method Not Allowed')
    if (expected && headers.get('proxy-authorization') !== expected) {
      state.authFailures++
      return respond(client, '407 Proxy Authentication Required', 'Proxy-Authenticate: Basic realm="ward-testbed"\r\n')
    }
    const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(authority ?? '')
    if (!m) return respond(client, '400 Bad Request')
    const host = m[1] ?? m[2]
    const result = await open(authority, host, Number(m[3]))
    if (!result.upstream) {
      if (result.outcome === 'denied') return respond(client, '403 Forbidden')
      return respond(client, result.code === 'ETIMEDOUT' ? '504 Gateway Timeout' : '502 Bad Gateway')
    }
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    splice(client, result.upstream, pending)
  }
  const close = closer(server, sockets)
  if (o.tls) {
    // 'connection' fires with the raw socket for TLS servers too; also track the TLS sockets.
    server.on('secureConnection', (s: net.Socket) => {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
    })
  }
  const port = await listen(server, state.host, o.port ?? 0)
  const credentials = o.auth ? `${encodeURIComponent(o.auth.username)}:${encodeURIComponent(o.auth.password)}@` : ''
  const url = `${o.tls ? 'https' : 'http'}://${credentials}${state.host}:${port}`
  return Object.assign(state, { port, url, close })
}

/** A port on `host` with nothing listening (a listener opened then closed), for "dead proxy" tests. */
export async function deadPort(host = '127.0.7.50'): Promise<number> {
  const s = net.createServer()
  const port = await listen(s, host, 0)
  await new Promise<void>((r) => s.close(() => r()))
  return port
}

/** A listener that accepts TCP and never answers (a proxy that hangs), for timeout/abort tests. */
export async function startBlackHole(host = '127.0.7.51') {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((s) => s.on('error', () => {}))
  const close = closer(server, sockets)
  const port = await listen(server, host, 0)
  return { host, port, close }
}

let cachedCert: { key: string; cert: string } | undefined
/** A throwaway self-signed certificate (openssl) for localhost and the 127.0.7.x test addresses. */
export function selfSignedCert(): { key: string; cert: string } {
  if (cachedCert) return cachedCert
  const dir = mkdtempSync(join(tmpdir(), 'ward-proxies-'))
  try {
    const san = 'subjectAltName=DNS:localhost,DNS:target.ward.test,IP:127.0.7.2,IP:127.0.7.3,IP:127.0.7.10,IP:127.0.0.1'
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        san,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    )
    cachedCert = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') }
    return cachedCert
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export interface Targets {
  host: string
  /** Sends "WARD-TARGET\n" first (a banner), then echoes. */
  tcpPort: number
  /** Same over TLS. */
  tlsPort: number
  /** Answers every request with the peer address as text. */
  httpPort: number
  httpsPort: number
  /** Peer address of every connection, per server. */
  peers: { tcp: string[]; tls: string[]; http: string[]; https: string[] }
  /** A port on `host` that refuses connections. */
  closedPort: number
  close(): Promise<void>
}

/** Target servers on `host` (default 127.0.7.10) that record the address each connection came from. */
export async function startTargets(host = '127.0.7.10'): Promise<Targets> {
  const { key, cert } = selfSignedCert()
  const peers = { tcp: [] as string[], tls: [] as string[], http: [] as string[], https: [] as string[] }
  const echo = (list: string[]) => (s: net.Socket) => {
    list.push(s.remoteAddress ?? '?')
    s.on('error', () => {})
    s.write('WARD-TARGET\n')
    s.pipe(s)
  }
  const web = (list: string[]) => (req: http.IncomingMessage, res: http.ServerResponse) => {
    list.push(req.socket.remoteAddress ?? '?')
    res.setHeader('content-type', 'text/plain')
    res.end(`peer=${req.socket.remoteAddress} host=${req.headers.host}`)
  }
  const servers: { server: net.Server; sockets: Set<net.Socket> }[] = []
  const start = async (server: net.Server) => {
    const sockets = new Set<net.Socket>()
    servers.push({ server, sockets })
    server.on('connection', (s: net.Socket) => {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
    })
    return listen(server, host, 0)
  }
  const tcpPort = await start(net.createServer(echo(peers.tcp)))
  const tlsPort = await start(tls.createServer({ key, cert }, echo(peers.tls)))
  const httpPort = await start(http.createServer(web(peers.http)))
  const httpsPort = await start(https.createServer({ key, cert }, web(peers.https)))
  const closedPort = await deadPort(host)
  return {
    host,
    tcpPort,
    tlsPort,
    httpPort,
    httpsPort,
    peers,
    closedPort,
    async close() {
      await Promise.all(
        servers.map(
          ({ server, sockets }) =>
            new Promise<void>((resolve) => {
              for (const s of sockets) s.destroy()
              server.close(() => resolve())
            }),
        ),
      )
    },
  }
}
