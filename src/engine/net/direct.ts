// Direct egress: connections leave from this host.
import net from 'node:net'
import tls from 'node:tls'
import dgram from 'node:dgram'
import type { ConnectOptions, Egress, TlsConnectOptions } from '../../toolkit/egress.js'
import { createHttpClient } from './http.js'

export function connectDirect(o: ConnectOptions): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) return reject(abortError(o.signal))
    const socket = net.connect({ host: stripBrackets(o.host), port: o.port })
    const timer = setTimeout(() => fail(Object.assign(new Error(`connect to ${o.host}:${o.port} timed out`), { code: 'ETIMEDOUT' })), o.timeoutMs ?? 5000)
    const onAbort = () => fail(abortError(o.signal!))
    o.signal?.addEventListener('abort', onAbort, { once: true })
    function cleanup() {
      clearTimeout(timer)
      o.signal?.removeEventListener('abort', onAbort)
      socket.removeListener('error', fail)
      socket.removeListener('connect', ok)
    }
    function fail(err: Error) {
      cleanup()
      socket.destroy()
      reject(err)
    }
    function ok() {
      cleanup()
      resolve(socket)
    }
    socket.once('error', fail)
    socket.once('connect', ok)
  })
}

// Without a secureContext, tls.connect builds a new OpenSSL context per connection: a port scan
// probing thousands of ports for TLS at once held hundreds of MB of native memory in them.
// Connections with default options share one.
let defaultContext: tls.SecureContext | null = null
const sharedContext = () => (defaultContext ??= tls.createSecureContext({}))

/** Wraps an already connected socket (direct or tunnelled) in TLS. */
export function tlsOver(socket: net.Socket, o: TlsConnectOptions): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const host = stripBrackets(o.host)
    const servername = o.servername ?? (net.isIP(host) ? undefined : host)
    const t = tls.connect({ socket, servername, rejectUnauthorized: false, ...(o.tls ?? { secureContext: sharedContext() }) })
    const timer = setTimeout(() => fail(Object.assign(new Error(`TLS handshake with ${o.host}:${o.port} timed out`), { code: 'ETIMEDOUT' })), o.timeoutMs ?? 5000)
    const onAbort = () => fail(abortError(o.signal!))
    o.signal?.addEventListener('abort', onAbort, { once: true })
    function cleanup() {
      clearTimeout(timer)
      o.signal?.removeEventListener('abort', onAbort)
      t.removeListener('error', fail)
    }
    function fail(err: Error) {
      cleanup()
      t.destroy()
      socket.destroy()
      reject(err)
    }
    t.once('error', fail)
    t.once('secureConnect', () => {
      cleanup()
      resolve(t)
    })
  })
}

export function abortError(signal: AbortSignal): Error {
  const reason = signal.reason
  return reason instanceof Error ? reason : Object.assign(new Error(String(reason ?? 'aborted')), { name: 'AbortError', code: 'ABORT_ERR' })
}

export const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host)

/** Builds an Egress from a TCP dialer; proxies only swap the dialer. */
export function egressFromDialer(kind: Egress['kind'], dial: (o: ConnectOptions) => Promise<net.Socket>, check: Egress['check']): Egress {
  const tlsConnect = async (o: TlsConnectOptions) => tlsOver(await dial(o), o)
  const http = createHttpClient(dial, tlsConnect)
  const carriesUdp = kind === 'direct'
  return {
    kind,
    carriesUdp,
    connect: dial,
    tlsConnect,
    http: http.request,
    udp(type = 'udp4') {
      if (!carriesUdp) throw new Error(`the ${kind} egress cannot carry UDP`)
      return dgram.createSocket(type)
    },
    check,
    close: http.close,
  }
}

export const createDirectEgress = (): Egress => egressFromDialer('direct', connectDirect, async () => {})
