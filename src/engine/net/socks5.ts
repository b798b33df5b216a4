// SOCKS5 egress: every TCP connection is a SOCKS5 CONNECT through the profile's proxy (RFC 1928/1929).
// Host names go to the proxy unresolved (remote DNS), so internal names resolve inside the VPN.
// UDP (UDP ASSOCIATE) is out of scope: `carriesUdp` is false and `udp()` throws.
// Also holds what both proxy egresses share: `tunnel` (one deadline over dial + handshake), `proxyEgress`
// (the Egress around a tunnel dialer), `httpWithDeadline`, `egressError`, `hostPort`.
import type net from 'node:net'
import { SocksClient } from 'socks'
import { abortError, connectDirect, egressFromDialer, stripBrackets } from './direct.js'
import type { ConnectOptions, Egress } from '../../toolkit/egress.js'
import { egressError, hostPort } from '../../toolkit/egress-profile.js'
export { egressError, hostPort }
import { ipVersion } from '../../toolkit/ip.js'
import { assertHostInScope, BLOCKED_CODE, type Scope } from '../../toolkit/scope.js'
import { CONNECT_TIMEOUT_MS, EGRESS_CHECK_TIMEOUT_MS, HTTP_TIMEOUT_MS } from '../../toolkit/timeouts.js'

/**
 * The scopes a proxy egress enforces: the proxy's own address (dialled from here, resolved and
 * checked like any direct connection) and the targets' (checked as written before anything is
 * sent: the proxy resolves names itself, on the far side).
 */
export interface ProxyScopes {
  target: Scope
  vpnHost: Scope
}

export interface Socks5Profile {
  host: string
  port: number
  username?: string
  password?: string
}

/**
 * Error codes a proxy egress adds to the usual socket codes (ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH ...,
 * which describe the TARGET as the proxy saw it). These ones say the EGRESS failed, not the target:
 * a scanner must not read them as "port closed".
 */
export type ProxyErrorCode = 'EPROXYUNREACHABLE' | 'EPROXYAUTH' | 'EPROXYDENIED' | 'EPROXY'

/**
 * Dials the proxy, then `negotiate`s the tunnel to `o.host:o.port`, all under one deadline (`o.timeoutMs`,
 * default 5 s) and `o.signal`. A timeout while reaching the proxy is EPROXYUNREACHABLE; after that it is
 * ETIMEDOUT (the target did not answer in time, as far as the proxy tells).
 */
export async function tunnel(
  o: ConnectOptions,
  proxyLabel: string,
  dialProxy: (timeoutMs: number, signal: AbortSignal) => Promise<net.Socket>,
  negotiate: (socket: net.Socket) => Promise<net.Socket>,
  what = `connect to ${hostPort(o.host, o.port)} through ${proxyLabel}`,
): Promise<net.Socket> {
  if (o.signal?.aborted) throw abortError(o.signal)
  const timeoutMs = o.timeoutMs ?? CONNECT_TIMEOUT_MS
  const ac = new AbortController()
  let phase: 'proxy' | 'tunnel' = 'proxy'
  const timer = setTimeout(() => {
    ac.abort(
      phase === 'proxy'
        ? egressError('EPROXYUNREACHABLE', `${proxyLabel} is unreachable: no answer within ${timeoutMs} ms`)
        : egressError('ETIMEDOUT', `${what} timed out after ${timeoutMs} ms`),
    )
  }, timeoutMs)
  const onAbort = () => ac.abort(abortError(o.signal!))
  o.signal?.addEventListener('abort', onAbort, { once: true })
  const stopped = new Promise<never>((_, reject) => ac.signal.addEventListener('abort', () => reject(ac.signal.reason), { once: true }))
  stopped.catch(() => {})
  let socket: net.Socket | undefined
  try {
    // The dialer's own timer is set later than ours so that ours (with the clearer message) fires first.
    const dialing = dialProxy(timeoutMs + 1000, ac.signal).then(
      (s) => (socket = s),
      (err: Error & { code?: string }) => {
        if (ac.signal.aborted) throw ac.signal.reason
        if (err.code?.startsWith('EPROXY') || err.code === BLOCKED_CODE) throw err // already says what went wrong with the proxy
        throw egressError('EPROXYUNREACHABLE', `${proxyLabel} is unreachable: ${err.message}`)
      },
    )
    await Promise.race([dialing, stopped])
    phase = 'tunnel'
    return await Promise.race([negotiate(socket!), stopped])
  } catch (err) {
    socket?.destroy()
    throw err
  } finally {
    clearTimeout(timer)
    o.signal?.removeEventListener('abort', onAbort)
  }
}

/**
 * Makes `http()` settle when its signal or `timeoutMs` fires even while the connection is still being
 * set up: undici (http.ts) does not abort a pending connector, which for a proxy includes the whole
 * tunnel handshake, so a hanging proxy would otherwise hold a request for the connector's 10 s.
 */
export function httpWithDeadline(http: Egress['http']): Egress['http'] {
  return (url, req = {}) => {
    const timeout = AbortSignal.timeout(req.timeoutMs ?? HTTP_TIMEOUT_MS)
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout
    if (signal.aborted) return Promise.reject(abortError(signal))
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(abortError(signal))
      signal.addEventListener('abort', onAbort, { once: true })
      http(url, req)
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', onAbort))
    })
  }
}

/** A proxy profile's check (Egress check): is the proxy up, and does it take the profile's credentials. */
export type ProxyCheck<P> = (p: P, signal?: AbortSignal, timeoutMs?: number, vpnHost?: Scope) => Promise<void>

/** Why a proxy profile cannot carry UDP, by its kind. */
const UDP_REFUSAL = {
  socks5: 'the SOCKS5 profile cannot carry UDP: Ward tunnels only TCP through SOCKS5 (UDP ASSOCIATE is not supported)',
  http_connect: 'the HTTP CONNECT profile cannot carry UDP: an HTTP CONNECT proxy tunnels only TCP',
} as const

/**
 * The Egress of a proxy profile around its tunnel dialer: HTTP(S) and TLS over the tunnel, `http()`
 * deadlines that hold while the tunnel is being set up, `close()` aborting tunnels still being set
 * up, and `udp()` refusing (UDP_REFUSAL).
 */
export function proxyEgress(
  kind: keyof typeof UDP_REFUSAL,
  dialTunnel: (o: ConnectOptions) => Promise<net.Socket>,
  check: Egress['check'],
  targetScope?: Scope,
): Egress {
  const closing = new AbortController()
  const dial = async (o: ConnectOptions) => {
    if (closing.signal.aborted) throw abortError(closing.signal)
    if (targetScope) assertHostInScope(targetScope, o.host)
    // One controller per connection relays both the caller's signal and close().
    const ac = new AbortController()
    const relay = (from: AbortSignal) => () => ac.abort(abortError(from))
    const onClose = relay(closing.signal)
    const onCaller = o.signal ? relay(o.signal) : undefined
    closing.signal.addEventListener('abort', onClose, { once: true })
    if (o.signal && onCaller) {
      if (o.signal.aborted) onCaller()
      else o.signal.addEventListener('abort', onCaller, { once: true })
    }
    try {
      return await dialTunnel({ ...o, signal: ac.signal })
    } finally {
      closing.signal.removeEventListener('abort', onClose)
      if (onCaller) o.signal?.removeEventListener('abort', onCaller)
    }
  }
  const egress = egressFromDialer(kind, dial, check)
  return {
    ...egress,
    http: httpWithDeadline(egress.http),
    udp() {
      throw egressError('EPROXY', UDP_REFUSAL[kind])
    },
    async close() {
      closing.abort(egressError('EPROXY', `the ${kind} egress was closed`))
      await egress.close()
    },
  }
}

// RFC 1928 reply codes → the socket error code a direct connection would have produced.
const REPLY_CODES: Record<string, [code: string, text: string]> = {
  Failure: ['EPROXY', 'general SOCKS server failure'],
  NotAllowed: ['EPROXYDENIED', 'connection not allowed by ruleset'],
  NetworkUnreachable: ['ENETUNREACH', 'network unreachable'],
  HostUnreachable: ['EHOSTUNREACH', 'host unreachable'],
  ConnectionRefused: ['ECONNREFUSED', 'connection refused'],
  TTLExpired: ['ETIMEDOUT', 'TTL expired'],
  CommandNotSupported: ['EPROXY', 'command not supported'],
  AddressNotSupported: ['EPROXY', 'address type not supported'],
}

export function createSocks5Egress(p: Socks5Profile, scopes?: ProxyScopes): Egress {
  const proxyHost = stripBrackets(p.host)
  const label = `SOCKS5 proxy ${hostPort(proxyHost, p.port)}`
  const hasCredentials = Boolean(p.username || p.password)
  const dialProxy = (timeoutMs: number, signal: AbortSignal) =>
    connectDirect({ host: proxyHost, port: p.port, timeoutMs, signal }, scopes?.vpnHost)

  const dial = (o: ConnectOptions) =>
    tunnel(o, label, dialProxy, async (socket) => {
      const host = stripBrackets(o.host)
      // `socks` writes the name length as host.length: only ASCII names (undici hands us punycode) are safe.
      if (!ipVersion(host) && !/^[\x21-\x7e]{1,255}$/.test(host))
        throw egressError('EINVAL', `cannot send host name ${JSON.stringify(host)} to a SOCKS5 proxy`)
      try {
        const { socket: tunnelled } = await SocksClient.createConnection({
          command: 'connect',
          proxy: { host: proxyHost, port: p.port, type: 5, userId: p.username, password: p.password },
          destination: { host, port: o.port },
          existing_socket: socket,
          timeout: 24 * 3600 * 1000, // `tunnel` owns the deadline
        })
        return await asFreshSocket(tunnelled as net.Socket)
      } catch (err) {
        // SocksClientError carries the options (with the password): never let it out, rebuild the error.
        throw socksError((err as Error).message, label, hostPort(host, o.port), hasCredentials)
      }
    })

  return proxyEgress('socks5', dial, (signal) => checkSocks5(p, signal, undefined, scopes?.vpnHost), scopes?.target)
}

/**
 * `socks` resumes the socket on its next setImmediate and emits the bytes that followed its reply (a
 * target's banner) as a 'data' event, lost if nobody listens yet. Catch them, then hand the socket back
 * like a fresh one (not flowing, bytes buffered) so a caller that starts reading later still gets them.
 */
async function asFreshSocket(socket: net.Socket): Promise<net.Socket> {
  const early: Buffer[] = []
  const keep = (chunk: Buffer) => early.push(chunk)
  socket.on('data', keep) // the socket is paused here: this listener does not resume it
  await new Promise((resolve) => setImmediate(resolve)) // runs after socks' own setImmediate
  socket.removeListener('data', keep)
  socket.pause()
  // Adding then removing a 'readable' listener returns readableFlowing to null (the initial state):
  // a later 'data' listener or read() then starts the flow as on a direct socket.
  const noop = () => {}
  socket.on('readable', noop).removeListener('readable', noop)
  if (early.length) socket.unshift(Buffer.concat(early))
  return socket
}

function socksError(message: string, label: string, target: string, hasCredentials: boolean): Error {
  if (message.startsWith('Socks5 Authentication failed')) return egressError('EPROXYAUTH', `${label} rejected the credentials`)
  if (message.includes('no accepted authentication type')) return noMethodError(label, hasCredentials)
  if (message.includes('invalid socks version')) return egressError('EPROXY', `${label} does not speak SOCKS5`)
  const rejected = /^Socks5 proxy rejected connection - (\w+)/.exec(message)
  if (rejected) {
    const [code, text] = REPLY_CODES[rejected[1]] ?? ['EPROXY', `reply ${rejected[1]}`]
    return egressError(code, `connect to ${target} through ${label} failed: ${text}`)
  }
  if (message === 'Socket closed') return egressError('EPROXY', `${label} closed the connection during the SOCKS5 handshake`)
  return egressError('EPROXY', `${label}: SOCKS5 handshake failed (${message})`)
}

const noMethodError = (label: string, hasCredentials: boolean) =>
  hasCredentials
    ? egressError('EPROXYAUTH', `${label} accepts none of the offered authentication methods (no authentication, username/password)`)
    : egressError('EPROXYAUTH', `${label} requires authentication but the profile has no credentials`)

/**
 * The proxy check: greeting and, when the proxy asks for it, username/password authentication — then
 * close. No CONNECT is sent, so the check sends no traffic beyond the proxy. Offers the same methods
 * as the real connections do, so it passes exactly when they would authenticate.
 */
export const checkSocks5: ProxyCheck<Socks5Profile> = async (p, signal, timeoutMs = EGRESS_CHECK_TIMEOUT_MS, vpnHost) => {
  const proxyHost = stripBrackets(p.host)
  const label = `SOCKS5 proxy ${hostPort(proxyHost, p.port)}`
  const hasCredentials = Boolean(p.username || p.password)
  const user = Buffer.from(p.username ?? '')
  const pass = Buffer.from(p.password ?? '')
  if (user.length > 255 || pass.length > 255)
    throw egressError('EPROXYAUTH', `the SOCKS5 username and password must each be at most 255 bytes`)
  const socket = await tunnel(
    { host: proxyHost, port: p.port, timeoutMs, signal },
    label,
    (ms, s) => connectDirect({ host: proxyHost, port: p.port, timeoutMs: ms, signal: s }, vpnHost),
    async (s) => {
      const replies = reader(s, label)
      s.write(Buffer.from(hasCredentials ? [5, 2, 0, 2] : [5, 1, 0]))
      const [version, method] = await replies.read(2)
      if (version !== 5) throw egressError('EPROXY', `${label} does not speak SOCKS5`)
      if (method === 0xff) throw noMethodError(label, hasCredentials)
      if (method === 2 && hasCredentials) {
        s.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]))
        const [, status] = await replies.read(2)
        if (status !== 0) throw egressError('EPROXYAUTH', `${label} rejected the credentials`)
      } else if (method !== 0) {
        throw egressError('EPROXY', `${label} chose an authentication method Ward did not offer (0x${method.toString(16)})`)
      }
      return s
    },
    `the handshake with the ${label}`,
  )
  socket.destroy()
}

/** Reads exact byte counts from a socket; rejects when it closes first. */
function reader(socket: net.Socket, label: string) {
  let buffered = Buffer.alloc(0)
  let waiting: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | undefined
  let failure: Error | undefined
  const pump = () => {
    if (!waiting) return
    if (buffered.length >= waiting.n) {
      const out = buffered.subarray(0, waiting.n)
      buffered = buffered.subarray(waiting.n)
      const w = waiting
      waiting = undefined
      w.resolve(out)
    } else if (failure) {
      const w = waiting
      waiting = undefined
      w.reject(failure)
    }
  }
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk])
    pump()
  })
  const end = (err?: Error) => {
    failure ??= egressError('EPROXY', `${label} closed the connection during the SOCKS5 handshake${err ? ` (${err.message})` : ''}`)
    pump()
  }
  socket.on('error', end)
  socket.on('close', () => end())
  return {
    read(n: number): Promise<Buffer> {
      return new Promise((resolve, reject) => {
        waiting = { n, resolve, reject }
        pump()
      })
    },
  }
}
