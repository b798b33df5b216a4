// Direct egress: connections leave from this host. With a scope, every TCP connection and UDP
// destination passes the scope guard (toolkit/scope.ts): literals are checked in every spelling,
// names are resolved once by the guard and the socket connects to the checked addresses only.
import net from 'node:net'
import tls from 'node:tls'
import dgram from 'node:dgram'
import { lookup as systemLookup } from 'node:dns'
import type { ConnectOptions, Egress, NativePortScanner, TlsConnectOptions } from '../../toolkit/egress.js'
import { addressBlockedBy, formatAddress, parseAddress, resolveInScope, scopedLookup, ScopeError, type Scope } from '../../toolkit/scope.js'
import { createHttpClient } from './http.js'
import { nativeScanAddress, nativeScanUnavailable } from './native-scan.js'
import { CONNECT_TIMEOUT_MS } from '../../toolkit/timeouts.js'

/** Per scope, the verdict on recent literal hosts (a port scan dials one host thousands of times): canonical address, or null when blocked. */
const literalVerdicts = new WeakMap<Scope, Map<string, string | null>>()

/** net.connect options for `host` under `scope`: a checked literal, or a name with the guard's lookup. */
function connectTarget(host: string, scope: Scope | undefined): { host: string; lookup?: net.LookupFunction } {
  const bare = stripBrackets(host)
  if (!scope || scope.block.length === 0) return { host: bare } // nothing blocked: the system's own lookup
  let verdicts = literalVerdicts.get(scope)
  if (!verdicts) literalVerdicts.set(scope, (verdicts = new Map()))
  let verdict = verdicts.get(bare)
  if (verdict === undefined) {
    const addr = parseAddress(bare)
    if (!addr) return { host: bare, lookup: scopedLookup(scope) as net.LookupFunction }
    // The checked address in canonical form; an IPv6 zone id (fe80::1%eth0) is kept for routing.
    verdict = addressBlockedBy(scope, addr) ? null : bare.includes('%') ? bare : formatAddress(addr)
    if (verdicts.size >= 4096) verdicts.clear()
    verdicts.set(bare, verdict)
  }
  if (verdict === null) throw new ScopeError(host, scope.setting)
  return { host: verdict }
}

export function connectDirect(o: ConnectOptions, scope?: Scope): Promise<net.Socket> {
  if (o.signal?.aborted) return Promise.reject(abortError(o.signal))
  let target: ReturnType<typeof connectTarget>
  try {
    target = connectTarget(o.host, scope)
  } catch (e) {
    return Promise.reject(e as Error)
  }
  return whenReady(net.connect({ ...target, port: o.port }), 'connect', o, `connect to ${o.host}:${o.port}`)
}

/**
 * `s` once it emits `event`; or the failure: its error, `what` timed out, or the abort. On failure
 * `s` (and the socket `under` it, when given) is destroyed; every listener and the timer go either way.
 */
function whenReady<S extends net.Socket>(
  s: S,
  event: 'connect' | 'secureConnect',
  o: { signal?: AbortSignal; timeoutMs?: number },
  what: string,
  under?: net.Socket,
): Promise<S> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(Object.assign(new Error(`${what} timed out`), { code: 'ETIMEDOUT' })),
      o.timeoutMs ?? CONNECT_TIMEOUT_MS,
    )
    const onAbort = () => fail(abortError(o.signal!))
    o.signal?.addEventListener('abort', onAbort, { once: true })
    function cleanup() {
      clearTimeout(timer)
      o.signal?.removeEventListener('abort', onAbort)
      s.removeListener('error', fail)
      s.removeListener(event, ok)
    }
    function fail(err: Error) {
      cleanup()
      s.destroy()
      under?.destroy()
      reject(err)
    }
    function ok() {
      cleanup()
      resolve(s)
    }
    s.once('error', fail)
    s.once(event, ok)
  })
}

// Without a secureContext, tls.connect builds a new OpenSSL context per connection: a port scan
// probing thousands of ports for TLS at once held hundreds of MB of native memory in them.
// Connections with default options share one.
let defaultContext: tls.SecureContext | null = null
const sharedContext = () => (defaultContext ??= tls.createSecureContext({}))

/** Wraps an already connected socket (direct or tunnelled) in TLS. */
export async function tlsOver(socket: net.Socket, o: TlsConnectOptions): Promise<tls.TLSSocket> {
  const host = stripBrackets(o.host)
  const servername = o.servername ?? (net.isIP(host) ? undefined : host)
  const t = tls.connect({ socket, servername, rejectUnauthorized: false, ...(o.tls ?? { secureContext: sharedContext() }) })
  return whenReady(t, 'secureConnect', o, `TLS handshake with ${o.host}:${o.port}`, socket)
}

export function abortError(signal: AbortSignal): Error {
  const reason = signal.reason
  return reason instanceof Error ? reason : Object.assign(new Error(String(reason ?? 'aborted')), { name: 'AbortError', code: 'ABORT_ERR' })
}

export const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host)

/**
 * A UDP socket whose destinations (connect, send) pass the scope guard. dgram resolves every
 * address, literals included, through its `lookup`; binding (the local side) is not egress.
 */
function scopedUdp(type: 'udp4' | 'udp6', scope: Scope): dgram.Socket {
  let binding = false
  const guarded = scopedLookup(scope)
  const lookup = ((host: string, options: never, cb: never) =>
    (binding ? systemLookup : guarded)(host, options, cb)) as unknown as dgram.SocketOptions['lookup']
  const socket = dgram.createSocket({ type, lookup })
  const bind = socket.bind
  // dgram calls lookup synchronously inside bind (also for the implicit bind of send/connect).
  socket.bind = function (this: dgram.Socket, ...args: unknown[]) {
    binding = true
    try {
      return (bind as (...a: unknown[]) => dgram.Socket).apply(this, args)
    } finally {
      binding = false
    }
  } as typeof socket.bind
  return socket
}

/** Builds an Egress from a TCP dialer; proxies only swap the dialer. `scope` guards UDP destinations. */
export function egressFromDialer(
  kind: Egress['kind'],
  dial: (o: ConnectOptions) => Promise<net.Socket>,
  check: Egress['check'],
  scope?: Scope,
): Egress {
  const tlsConnect = async (o: TlsConnectOptions) => tlsOver(await dial(o), o)
  const http = createHttpClient(dial, tlsConnect)
  const carriesUdp = kind === 'direct'
  return {
    kind,
    carriesUdp,
    connect: dial,
    tlsConnect,
    startTls: tlsOver,
    http: http.request,
    udp(type = 'udp4') {
      if (!carriesUdp) throw new Error(`the ${kind} egress cannot carry UDP`)
      return scope && scope.block.length > 0 ? scopedUdp(type, scope) : dgram.createSocket(type)
    },
    check,
    close: http.close,
  }
}

/** The direct egress; with `scope`, every connection is checked against it (the engine always passes the target scope). */
export const createDirectEgress = (scope?: Scope): Egress => ({
  ...egressFromDialer(
    'direct',
    (o) => connectDirect(o, scope),
    async () => {},
    scope,
  ),
  portScan: directPortScanner(scope),
})

/**
 * Native scans from this host. The host passes the scope guard exactly as a connect would (literals
 * in every spelling, names resolved once by the guard); the scan then sends to that address only.
 * The addon itself is loaded on first use (engine/net/native-scan.ts).
 */
function directPortScanner(scope?: Scope): NativePortScanner {
  return { unavailable: nativeScanUnavailable, scan: async (host, o) => nativeScanAddress(await addressOf(host, scope), o) }
}

/**
 * The checked address to scan (IPv4 first when a name has both, as nmap does). The scope guard comes
 * first. A zoned IPv6 address (fe80::1%eth0) is refused with EAFNOSUPPORT: Node's sockets scan it.
 */
async function addressOf(host: string, scope?: Scope): Promise<string> {
  const bare = stripBrackets(host)
  const unusable = () => Object.assign(new Error(`no address of ${host} the native scanner can use`), { code: 'EAFNOSUPPORT' })
  if (bare.includes('%')) throw unusable()
  const found = scope
    ? (await resolveInScope(scope, bare, 0)).map((a) => a.address)
    : net.isIP(bare)
      ? [bare]
      : await new Promise<string[]>((resolve, reject) =>
          systemLookup(bare, { all: true }, (err, list) => (err ? reject(err) : resolve(list.map((x) => x.address)))),
        )
  const pick = found.find((a) => net.isIPv4(a)) ?? found[0]
  if (!pick || pick.includes('%')) throw unusable()
  return pick
}
