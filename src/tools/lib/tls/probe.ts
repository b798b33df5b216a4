// Socket side of the hand-built handshakes: one connection per probe, every read bounded by a timeout
// and by the scan's signal. Returns typed outcomes; never prints.
import type { Socket } from 'node:net'
import type { Egress } from '../../../toolkit/egress.js'
import {
  CONTENT,
  HS,
  buildHeartbeatProbe,
  isHeartbleedEcho,
  parseCertificateMessage,
  parseServerHello,
  parseSsl2ServerHello,
  splitHandshake,
  splitRecords,
  type ServerHello,
  type Ssl2ServerHello,
} from './hello.js'
import { CONNECT_TIMEOUT_MS } from '../../../toolkit/timeouts.js'

export interface Endpoint {
  host: string
  port: number
}

export interface ProbeOptions {
  signal: AbortSignal
  /** Per read and per connect (default 5 s). */
  timeoutMs?: number
}

type ReadEnd = 'closed' | 'timeout'

/** Bytes a reader keeps at most. */
const MAX_FLIGHT_BYTES = 1 << 20

/** Buffers a socket's bytes and waits until a parser recognises what it needs. */
export class SocketReader {
  private buf = Buffer.alloc(0)
  private ended = false
  private wake: (() => void) | null = null

  constructor(
    readonly socket: Socket,
    private readonly signal: AbortSignal,
  ) {
    const end = () => {
      this.ended = true
      this.wake?.()
    }
    socket.on('data', (d: Buffer) => {
      if (this.ended) return
      // A first flight is a few KiB (certificates included): a server sending more without the parser
      // being satisfied is hostile or not TLS; reading stops there, as if it had closed.
      if (this.buf.length + d.length > MAX_FLIGHT_BYTES) {
        socket.destroy()
        return end()
      }
      this.buf = Buffer.concat([this.buf, d])
      this.wake?.()
    })
    socket.on('close', end)
    socket.on('end', end)
    socket.on('error', end)
  }

  get bytes(): Buffer {
    return this.buf
  }

  /** Resolves with the parser's result, or how the wait ended. The parser sees all bytes so far. */
  until<T>(parse: (buf: Buffer, ended: boolean) => T | undefined, timeoutMs: number): Promise<T | ReadEnd> {
    return new Promise((resolve) => {
      const finish = (v: T | ReadEnd) => {
        clearTimeout(timer)
        this.signal.removeEventListener('abort', onAbort)
        this.wake = null
        resolve(v)
      }
      const check = () => {
        const r = parse(this.buf, this.ended)
        if (r !== undefined) return finish(r)
        if (this.ended || this.signal.aborted) finish('closed')
      }
      const onAbort = () => {
        this.socket.destroy()
        finish('closed')
      }
      const timer = setTimeout(() => finish('timeout'), timeoutMs)
      this.signal.addEventListener('abort', onAbort, { once: true })
      this.wake = check
      check()
    })
  }

  close(): void {
    this.socket.destroy()
  }
}

export type HelloOutcome =
  | { kind: 'hello'; hello: ServerHello; certificates: Buffer[]; complete: boolean; serverKeyExchange?: Buffer; certificateStatus: boolean }
  | { kind: 'alert'; level: number; description: number }
  | { kind: 'closed' | 'timeout' | 'not-tls' }

/**
 * Parses a server's first flight. With `untilDone`, waits for ServerHelloDone (SSLv3..TLS 1.2) so the
 * Certificate message is in; otherwise stops at ServerHello.
 */
export function firstFlightParser(untilDone: boolean) {
  return (buf: Buffer, ended: boolean): HelloOutcome | undefined => {
    const split = splitRecords(buf)
    if (!split) return { kind: 'not-tls' }
    let hs = Buffer.alloc(0)
    for (const r of split.records) {
      if (r.type === CONTENT.alert && hs.length === 0) return { kind: 'alert', level: r.body[0] ?? 0, description: r.body[1] ?? 0 }
      if (r.type === CONTENT.handshake) hs = Buffer.concat([hs, r.body])
      else if (hs.length) break // encrypted TLS 1.3 records or a change_cipher_spec follow the hello
    }
    const { messages } = splitHandshake(hs)
    const sh = messages.find((m) => m.type === HS.serverHello)
    if (!sh) return ended ? { kind: 'closed' } : undefined
    let hello: ServerHello
    try {
      hello = parseServerHello(sh.body)
    } catch {
      return { kind: 'not-tls' }
    }
    const certMsg = messages.find((m) => m.type === HS.certificate)
    const certificates = certMsg && hello.version < 0x0304 ? safe(() => parseCertificateMessage(certMsg.body), []) : []
    const done = messages.some((m) => m.type === HS.serverHelloDone)
    const tls12 = hello.version < 0x0304
    const ske = tls12 ? messages.find((m) => m.type === HS.serverKeyExchange)?.body : undefined
    const out = {
      kind: 'hello' as const,
      hello,
      certificates,
      complete: done,
      ...(ske ? { serverKeyExchange: ske } : {}),
      certificateStatus: tls12 && messages.some((m) => m.type === HS.certificateStatus),
    }
    if (!untilDone || !tls12 || done) return out
    return ended ? out : undefined
  }
}

function safe<T>(f: () => T, fallback: T): T {
  try {
    return f()
  } catch {
    return fallback
  }
}

async function open(net: Egress, ep: Endpoint, o: ProbeOptions): Promise<SocketReader> {
  const socket = await net.connect({ host: ep.host, port: ep.port, timeoutMs: o.timeoutMs ?? CONNECT_TIMEOUT_MS, signal: o.signal })
  socket.setNoDelay(true)
  return new SocketReader(socket, o.signal)
}

/** Sends one ClientHello and reads the answer. Throws only when the TCP connection cannot be made. */
export async function sendHello(
  net: Egress,
  ep: Endpoint,
  hello: Buffer,
  o: ProbeOptions & { untilDone?: boolean },
): Promise<HelloOutcome> {
  const reader = await open(net, ep, o)
  try {
    reader.socket.write(hello)
    const r = await reader.until(firstFlightParser(o.untilDone ?? false), o.timeoutMs ?? CONNECT_TIMEOUT_MS)
    return typeof r === 'string' ? { kind: r } : r
  } finally {
    reader.close()
  }
}

export type Ssl2Outcome = { kind: 'hello'; hello: Ssl2ServerHello } | { kind: 'rejected' }

export async function sendSsl2Hello(net: Egress, ep: Endpoint, hello: Buffer, o: ProbeOptions): Promise<Ssl2Outcome> {
  const reader = await open(net, ep, o)
  try {
    reader.socket.write(hello)
    const r = await reader.until((buf, ended) => {
      const h = parseSsl2ServerHello(buf)
      if (h === null) return null
      if (h === undefined) return ended ? null : undefined
      return h
    }, o.timeoutMs ?? CONNECT_TIMEOUT_MS)
    return r && typeof r === 'object' && r.version === 0x0002 ? { kind: 'hello', hello: r } : { kind: 'rejected' }
  } finally {
    reader.close()
  }
}

export type HeartbleedOutcome =
  | { kind: 'no-heartbeat' }
  | { kind: 'vulnerable'; version: number }
  | { kind: 'not-vulnerable'; version: number }
  | { kind: 'inconclusive'; reason: string }

/**
 * Handshake up to ServerHelloDone advertising heartbeat, then one bounded heartbeat request
 * (see buildHeartbeatProbe). Only an echo of our own over-long payload counts as vulnerable.
 */
export async function heartbleedProbe(net: Egress, ep: Endpoint, hello: Buffer, o: ProbeOptions): Promise<HeartbleedOutcome> {
  const reader = await open(net, ep, o)
  try {
    reader.socket.write(hello)
    const first = await reader.until(firstFlightParser(true), o.timeoutMs ?? CONNECT_TIMEOUT_MS)
    if (typeof first === 'string' || first.kind !== 'hello')
      return { kind: 'inconclusive', reason: `no ServerHello (${typeof first === 'string' ? first : first.kind})` }
    const version = first.hello.version
    if (!first.hello.extensions.has(0x000f)) return { kind: 'no-heartbeat' }
    if (!first.complete) return { kind: 'inconclusive', reason: 'the server did not finish its first flight' }
    const consumed = reader.bytes.length
    reader.socket.write(buildHeartbeatProbe(version))
    const answer = await reader.until(
      (buf, ended) => {
        const split = splitRecords(buf.subarray(consumed))
        if (!split) return 'other' as const
        for (const r of split.records) {
          if (r.type === CONTENT.heartbeat) return isHeartbleedEcho(r.body) ? ('echo' as const) : ('other' as const)
          if (r.type === CONTENT.alert) return 'other' as const
        }
        return ended ? ('other' as const) : undefined
      },
      Math.min(o.timeoutMs ?? CONNECT_TIMEOUT_MS, 3000),
    )
    return answer === 'echo' ? { kind: 'vulnerable', version } : { kind: 'not-vulnerable', version }
  } finally {
    reader.close()
  }
}
