// A small DNS client over the scan's egress: UDP queries with retries (TCP when truncated), TCP
// queries, and AXFR. It talks to ONE server given by the caller — never the system resolver.
import type { Socket } from 'node:net'
import type { Egress } from '../../../toolkit/egress.js'
import { ipVersion, stripBrackets } from '../../../toolkit/ip.js'
import { buildQuery, decodeMessage, DnsFormatError, normalizeName, rcodeName, TYPE, type DnsMessage, type DnsRecord } from './message.js'
import { CONNECT_TIMEOUT_MS, DNS_QUERY_TIMEOUT_MS, DNS_TCP_TIMEOUT_MS } from '../../../toolkit/timeouts.js'

export type DnsTransport = 'udp' | 'tcp'

export interface DnsServer {
  host: string
  port: number
}

export type DnsErrorCode = 'timeout' | 'refused' | 'network' | 'malformed' | 'aborted'

export class DnsQueryError extends Error {
  override name = 'DnsQueryError'
  constructor(
    message: string,
    readonly code: DnsErrorCode,
  ) {
    super(message)
  }
}

export interface QueryOptions {
  signal?: AbortSignal
  /** Recursion desired (default true). */
  rd?: boolean
  class?: number
  timeoutMs?: number
  retries?: number
}

export interface DnsClient {
  readonly server: DnsServer
  transport: DnsTransport
  query(name: string, type: number, o?: QueryOptions): Promise<DnsMessage>
}

/** 'ip', 'ip:port', '[v6]', '[v6]:port' or a bare IPv6 literal. Throws on anything else. */
export function parseServer(s: string, defaultPort = 53): DnsServer {
  const v = s.trim()
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(v)
  if (bracketed) return checked(bracketed[1]!, bracketed[2] ? Number(bracketed[2]) : defaultPort, s)
  if (ipVersion(v) === 6) return checked(v, defaultPort, s)
  const m = /^([^:]+)(?::(\d+))?$/.exec(v)
  if (!m) throw new Error(`invalid DNS server ${JSON.stringify(s)}`)
  return checked(m[1]!, m[2] ? Number(m[2]) : defaultPort, s)
}

function checked(host: string, port: number, raw: string): DnsServer {
  if (ipVersion(host) === 0) throw new Error(`DNS server must be an IP literal: ${JSON.stringify(raw)}`)
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`invalid DNS server port in ${JSON.stringify(raw)}`)
  return { host: stripBrackets(host), port }
}

export function createDnsClient(
  net: Egress,
  server: DnsServer,
  o: { transport?: DnsTransport; timeoutMs?: number; retries?: number } = {},
): DnsClient {
  const client: DnsClient = {
    server,
    transport: o.transport ?? (net.carriesUdp ? 'udp' : 'tcp'),
    async query(name, type, q = {}) {
      const opts = { timeoutMs: o.timeoutMs ?? DNS_QUERY_TIMEOUT_MS, retries: o.retries ?? 2, ...q }
      try {
        if (client.transport === 'tcp') return await tcpQuery(net, server, name, type, opts)
        const reply = await udpQuery(net, server, name, type, opts)
        // Truncated: the full answer only comes over TCP (RFC 7766).
        return reply.flags.tc ? await tcpQuery(net, server, name, type, opts) : reply
      } catch (e) {
        // A name that cannot be encoded (label > 63 bytes, name > 255) is a failed query, not a crash.
        if (e instanceof DnsFormatError) throw new DnsQueryError(`${name}: ${e.message}`, 'malformed')
        throw e
      }
    },
  }
  return client
}

function abortedError() {
  return new DnsQueryError('aborted', 'aborted')
}

const sameQuestion = (m: DnsMessage, name: string, type: number) =>
  m.questions.length === 0 || (m.questions[0]!.type === type && m.questions[0]!.name === normalizeName(name))

/** One UDP query through a connected socket, retried on silence. */
export function udpQuery(
  net: Egress,
  server: DnsServer,
  name: string,
  type: number,
  o: QueryOptions & { timeoutMs: number; retries: number },
): Promise<DnsMessage> {
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) return reject(abortedError())
    const { id, bytes } = buildQuery(name, type, { rd: o.rd, class: o.class })
    const socket = net.udp(ipVersion(server.host) === 6 ? 'udp6' : 'udp4')
    let attempts = 0
    let timer: NodeJS.Timeout | undefined
    let settled = false
    const finish = (err: Error | null, msg?: DnsMessage) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      o.signal?.removeEventListener('abort', onAbort)
      try {
        socket.close()
      } catch {
        /* already closed */
      }
      if (err) reject(err)
      else resolve(msg!)
    }
    const onAbort = () => finish(abortedError())
    const send = () => {
      if (attempts++ > o.retries) return finish(new DnsQueryError(`no answer from ${server.host}:${server.port} for ${name}`, 'timeout'))
      socket.send(bytes, (err) => err && finish(new DnsQueryError(err.message, 'network')))
      timer = setTimeout(send, o.timeoutMs)
    }
    o.signal?.addEventListener('abort', onAbort, { once: true })
    const onError = (err: NodeJS.ErrnoException) =>
      finish(
        new DnsQueryError(`${server.host}:${server.port}: ${err.code ?? err.message}`, err.code === 'ECONNREFUSED' ? 'refused' : 'network'),
      )
    socket.on('error', onError)
    socket.on('message', (buf) => {
      let m: DnsMessage
      try {
        m = decodeMessage(buf)
      } catch {
        return // spoofed or broken datagram: keep waiting for the real answer
      }
      if (m.id === id && m.flags.qr && sameQuestion(m, name, type)) finish(null, m)
    })
    // dgram calls back with the error (no 'error' event) when connect fails, e.g. ENETUNREACH.
    socket.connect(server.port, server.host, (err?: Error) => (err ? onError(err) : send()))
  })
}

/** One TCP query: a fresh connection, a length-prefixed message, one answer. */
export async function tcpQuery(
  net: Egress,
  server: DnsServer,
  name: string,
  type: number,
  o: QueryOptions & { timeoutMs: number },
): Promise<DnsMessage> {
  const { id, bytes } = buildQuery(name, type, { rd: o.rd, class: o.class })
  const socket = await tcpConnect(net, server, o)
  try {
    socket.write(frame(bytes))
    let answer: DnsMessage | undefined
    await readFrames(socket, o, (buf) => {
      const m = decodeMessage(buf)
      if (m.id !== id) return true
      answer = m
      return false
    })
    if (!answer) throw new DnsQueryError(`${server.host}:${server.port} closed the connection without an answer`, 'network')
    return answer
  } finally {
    socket.destroy()
  }
}

export type AxfrResult = { ok: true; records: DnsRecord[]; truncated: boolean } | { ok: false; reason: string }

/** Zone transfer over TCP (RFC 5936): records between the opening and the closing SOA. */
export async function axfr(
  net: Egress,
  server: DnsServer,
  zone: string,
  o: { timeoutMs?: number; signal?: AbortSignal; maxRecords?: number } = {},
): Promise<AxfrResult> {
  const timeoutMs = o.timeoutMs ?? DNS_TCP_TIMEOUT_MS
  const maxRecords = o.maxRecords ?? 20_000
  const { id, bytes } = buildQuery(zone, TYPE.AXFR, { rd: false })
  let socket: Socket
  try {
    socket = await tcpConnect(net, server, { timeoutMs: Math.min(timeoutMs, CONNECT_TIMEOUT_MS), signal: o.signal })
  } catch (e) {
    return { ok: false, reason: (e as Error).message }
  }
  const records: DnsRecord[] = []
  let soaSeen = 0
  let refusal: string | undefined
  let truncated = false
  try {
    socket.write(frame(bytes))
    await readFrames(socket, { timeoutMs, signal: o.signal }, (buf) => {
      const m = decodeMessage(buf)
      if (m.id !== id) return true
      if (m.flags.rcode !== 0) {
        refusal = `server answered ${rcodeName(m.flags.rcode)}`
        return false
      }
      if (records.length === 0 && m.answers[0]?.type !== TYPE.SOA) {
        refusal = m.answers.length === 0 ? 'server answered with no records' : 'answer does not start with the SOA'
        return false
      }
      for (const r of m.answers) {
        if (r.type === TYPE.SOA) soaSeen++
        if (records.length < maxRecords) records.push(r)
        else truncated = true
        if (soaSeen === 2) return false
      }
      return true
    })
  } catch (e) {
    if ((e as DnsQueryError).code === 'aborted') throw e
    if (records.length === 0) return { ok: false, reason: (e as Error).message }
    truncated = true
  } finally {
    socket.destroy()
  }
  if (refusal) return { ok: false, reason: refusal }
  if (records.length === 0) return { ok: false, reason: 'connection closed without records' }
  return { ok: true, records, truncated: truncated || soaSeen < 2 }
}

async function tcpConnect(net: Egress, server: DnsServer, o: { timeoutMs: number; signal?: AbortSignal }): Promise<Socket> {
  if (o.signal?.aborted) throw abortedError()
  try {
    return await net.connect({ host: server.host, port: server.port, timeoutMs: o.timeoutMs, signal: o.signal })
  } catch (e) {
    if (o.signal?.aborted) throw abortedError()
    const code = (e as NodeJS.ErrnoException).code
    throw new DnsQueryError(
      `${server.host}:${server.port}/tcp: ${code ?? (e as Error).message}`,
      code === 'ECONNREFUSED' ? 'refused' : code === 'ETIMEDOUT' ? 'timeout' : 'network',
    )
  }
}

const frame = (msg: Buffer) => {
  const len = Buffer.alloc(2)
  len.writeUInt16BE(msg.length, 0)
  return Buffer.concat([len, msg])
}

/**
 * Feeds each length-prefixed message to `onFrame` until it returns false, the peer closes, the
 * time runs out (from the last received data) or the signal aborts.
 */
function readFrames(socket: Socket, o: { timeoutMs: number; signal?: AbortSignal }, onFrame: (msg: Buffer) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let pending = Buffer.alloc(0)
    let timer: NodeJS.Timeout
    const arm = () => {
      clearTimeout(timer)
      timer = setTimeout(() => done(new DnsQueryError('TCP answer timed out', 'timeout')), o.timeoutMs)
    }
    const done = (err?: Error) => {
      clearTimeout(timer)
      o.signal?.removeEventListener('abort', onAbort)
      socket.removeListener('data', onData)
      socket.removeListener('end', onEnd)
      socket.removeListener('close', onEnd)
      socket.removeListener('error', onError)
      if (err) reject(err)
      else resolve()
    }
    const onAbort = () => done(abortedError())
    const onEnd = () => done()
    const onError = (e: Error) => done(new DnsQueryError(e.message, 'network'))
    const onData = (chunk: Buffer) => {
      arm()
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 2) {
        const len = pending.readUInt16BE(0)
        if (pending.length < 2 + len) break
        const msg = pending.subarray(2, 2 + len)
        pending = pending.subarray(2 + len)
        let more: boolean
        try {
          more = onFrame(msg)
        } catch (e) {
          return done(new DnsQueryError((e as Error).message, 'malformed'))
        }
        if (!more) return done()
      }
    }
    if (o.signal?.aborted) return reject(abortedError())
    o.signal?.addEventListener('abort', onAbort, { once: true })
    socket.on('data', onData)
    socket.once('end', onEnd)
    socket.once('close', onEnd)
    socket.once('error', onError)
    arm()
  })
}
