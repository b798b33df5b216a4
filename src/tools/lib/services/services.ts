// Service detection on one open port: run the probes of probes.ts in order (one connection each) and
// let the match rules (match-rules.ts, applied by banners.ts) name what answered. Network I/O only.
import type { Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'
import type { Egress } from '../../../toolkit/egress.js'
import { identify, looksLikeTls, printable, probesFor, type Identified, type ServiceFacts } from './banners.js'
import { PORT_SERVICE_NAMES, probeOrder, tlsSniffHello, type Probe } from './probes.js'
import { SERVICE_PROBE_TIMEOUT_MS } from '../../../toolkit/timeouts.js'

export interface ServiceInfo {
  service: string | null
  version: string | null
  product: string | null
  banner: string | null
  tls: boolean
  /** A probe reply was recognised (else `service` is the port's IANA name, a guess). */
  identified: boolean
  /** What the replies revealed about authentication (see banners.ts). */
  facts: ServiceFacts
  /** The probe whose reply named the service (probes.ts id), null when none did. */
  probe?: string | null
  /** The matching rule's CPE, when it gives one (else products.ts's cpeOf applies). */
  cpe?: string
  /** Extra detail the matching rule read. */
  info?: string
}

export interface DetectOptions {
  signal: AbortSignal
  /** Connect timeout and longest wait for a reply, per probe (ms). Default 2000. */
  timeoutMs?: number
  /** Called as probes end: how many of the planned probes were tried (a port may need them all). */
  onProbe?: (tried: number, planned: number) => void
}

export const DEFAULT_PROBE_TIMEOUT_MS = SERVICE_PROBE_TIMEOUT_MS
/** Once a reply has started, this much silence ends it (a banner rarely comes in pieces further apart). */
const IDLE_MS = 120
const MAX_REPLY_BYTES = 16 * 1024
/** An empty reply faster than this was the peer closing, not us waiting. */
const HANGUP_MS = 100

/** Service names of TLS-wrapped protocols. */
const OVER_TLS: Record<string, string> = { http: 'https', imap: 'imaps', pop3: 'pop3s', smtp: 'smtps', ftp: 'ftps' }

/**
 * Names the service on `host:port`. Tries the probes hinted for the port first, then the rest; the first
 * recognised reply wins. Unrecognised: the IANA name of the port (or null) with whatever banner came.
 */
export async function detectService(net: Egress, host: string, port: number, opts: DetectOptions): Promise<ServiceInfo> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS
  const queue = probeOrder(port)
  let banner: string | null = null
  let tlsBanner: string | null = null
  let tlsFailed = false
  // Whether the port answers a ClientHello with a TLS record, learnt once per port before any TLS
  // handshake: a handshake that is never answered holds an OpenSSL connection (tens of KB) for the
  // whole timeout, and most silent ports do not speak TLS.
  let speaksTls: boolean | undefined
  let hangups = 0
  // nmap's softmatch: the service is known; only probes with hard rules for it are still worth trying.
  let soft: ServiceInfo | null = null
  const named = (found: Identified, probe: Probe): ServiceInfo => {
    const { soft: _soft, ...rest } = found
    const service = probe.tls ? (OVER_TLS[found.service] ?? `${found.service}-tls`) : found.service
    return { ...rest, service, tls: !!probe.tls, banner: found.banner ?? tlsBanner, identified: true, probe: probe.id }
  }
  const planned = queue.length
  while (queue.length && !opts.signal.aborted) {
    if (queue.length < planned) opts.onProbe?.(planned - queue.length, planned)
    const probe = queue.shift()!
    if (probe.tls && tlsFailed) continue
    if (probe.tls && speaksTls === undefined) {
      const sniffStarted = performance.now()
      let answer: Buffer
      try {
        answer = await sniffTls(net, host, port, timeoutMs, opts.signal)
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ECONNREFUSED') break // as for a probe: the port stopped accepting
        answer = Buffer.alloc(0)
      }
      speaksTls = looksLikeTls(answer)
      if (!speaksTls) {
        tlsFailed = true
        hangups = !answer.length && performance.now() - sniffStarted < HANGUP_MS ? hangups + 1 : 0
        if (hangups >= 3) break
        continue
      }
    }
    let reply: ProbeReply
    const started = performance.now()
    try {
      reply = await runProbe(net, host, port, probe, timeoutMs, opts.signal)
    } catch (e) {
      if (probe.tls && (e as NodeJS.ErrnoException).code !== 'ECONNREFUSED') {
        tlsFailed = true
        continue
      }
      break // the port stopped accepting connections: nothing more to learn
    }
    if (probe.tls) tlsBanner = reply.tlsInfo
    const found = identify(probe.id, reply.data)
    if (found && !found.soft) return named(found, probe)
    if (found && !soft) {
      soft = named(found, probe)
      const { any, ids } = probesFor(found.service)
      if (!any) queue.splice(0, queue.length, ...queue.filter((p) => ids.has(p.id)))
      continue
    }
    if (reply.data.length && !banner && !looksLikeTls(reply.data)) banner = printable(reply.data)
    // A port that hangs up at once, silently, on every probe (tcpwrapped) will not say more.
    hangups = !reply.data.length && performance.now() - started < HANGUP_MS ? hangups + 1 : 0
    if (hangups >= 3) break
    if (!probe.tls && looksLikeTls(reply.data)) {
      // The port answered plain text with a TLS record: it speaks TLS (no sniff needed); try TLS next.
      speaksTls = true
      const i = queue.findIndex((p) => p.tls)
      if (i > 0) queue.unshift(...queue.splice(i, 1))
    }
  }
  if (soft) return soft
  const guess = PORT_SERVICE_NAMES[port] ?? null
  // Every probe met a connection closed at once, silently: a wrapper (tcpd, a firewall proxy) that
  // accepts and drops us. nmap's name for it.
  if (hangups >= 3 && !banner && !tlsBanner)
    return { service: 'tcpwrapped', product: null, version: null, banner: null, tls: false, facts: {}, identified: true, probe: null }
  if (tlsBanner)
    return {
      service: guess ?? 'ssl',
      product: null,
      version: null,
      banner: banner ?? tlsBanner,
      tls: true,
      facts: {},
      identified: false,
      probe: null,
    }
  return { service: guess, product: null, version: null, banner, tls: false, facts: {}, identified: false, probe: null }
}

interface ProbeReply {
  data: Buffer
  /** "TLSv1.3 TLS_AES_256_GCM_SHA384" when the probe ran over TLS. */
  tlsInfo: string | null
}

async function runProbe(
  net: Egress,
  host: string,
  port: number,
  probe: Probe,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ProbeReply> {
  const sock: Socket = probe.tls
    ? await net.tlsConnect({ host, port, timeoutMs, signal })
    : await net.connect({ host, port, timeoutMs, signal })
  sock.on('error', ignore) // errors end the reply via readReply; never let one go unhandled
  try {
    const tlsInfo = probe.tls ? describeTls(sock as TLSSocket) : null
    if (probe.listenFirstMs) {
      const greeting = await readReply(sock, Math.min(probe.listenFirstMs, timeoutMs), signal)
      if (greeting.length || !probe.payload) return { data: greeting, tlsInfo }
    }
    if (probe.payload) sock.write(probe.payload(host))
    return { data: await readReply(sock, timeoutMs, signal), tlsInfo }
  } finally {
    sock.destroy()
  }
}

const ignore = () => {}

/** The first bytes `host:port` answers our ClientHello with, over a plain connection (no TLS socket). */
async function sniffTls(net: Egress, host: string, port: number, timeoutMs: number, signal: AbortSignal): Promise<Buffer> {
  const sock = await net.connect({ host, port, timeoutMs, signal })
  sock.on('error', ignore)
  try {
    sock.write(tlsSniffHello(host))
    // A record header (5 bytes) is all looksLikeTls needs: stop there rather than wait for the flight's end.
    return await readReply(sock, timeoutMs, signal, 5)
  } finally {
    sock.destroy()
  }
}

function describeTls(s: TLSSocket): string {
  const cipher = s.getCipher()?.name
  return [s.getProtocol(), cipher].filter(Boolean).join(' ') || 'TLS'
}

/** Bytes the peer sends until it goes quiet for IDLE_MS, closes, `waitMs` passes, `maxBytes` came, or the scan stops. */
export function readReply(sock: Socket, waitMs: number, signal: AbortSignal, maxBytes = MAX_REPLY_BYTES): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let idle: NodeJS.Timeout | undefined
    const overall = setTimeout(finish, waitMs)
    const onData = (c: Buffer) => {
      chunks.push(c)
      size += c.length
      if (size >= maxBytes) return finish()
      clearTimeout(idle)
      idle = setTimeout(finish, IDLE_MS)
    }
    function finish() {
      clearTimeout(overall)
      clearTimeout(idle)
      sock.off('data', onData)
      sock.off('end', finish)
      sock.off('close', finish)
      sock.off('error', finish)
      signal.removeEventListener('abort', finish)
      resolve(Buffer.concat(chunks))
    }
    if (signal.aborted) return finish()
    sock.on('data', onData)
    sock.once('end', finish)
    sock.once('close', finish)
    sock.once('error', finish)
    signal.addEventListener('abort', finish, { once: true })
  })
}

/**
 * Whether the FTP server on `host:port` lets "anonymous" log in (USER anonymous / PASS an e-mail address,
 * the RFC 1635 convention). null when the dialogue could not be completed.
 */
export async function ftpAnonymousLogin(net: Egress, host: string, port: number, opts: DetectOptions): Promise<boolean | null> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS
  let sock: Socket
  try {
    sock = await net.connect({ host, port, timeoutMs, signal: opts.signal })
  } catch {
    return null
  }
  sock.on('error', ignore)
  try {
    const code = async (send?: string) => {
      if (send) sock.write(send)
      const reply = (await readReply(sock, timeoutMs, opts.signal)).toString('latin1')
      // Multi-line replies ("220-...") end with the line "220 ..."; the last complete code decides.
      const codes = [...reply.matchAll(/^(\d{3}) /gm)].map((m) => Number(m[1]))
      return codes.at(-1) ?? null
    }
    if ((await code()) !== 220) return null
    const user = await code('USER anonymous\r\n')
    if (user === 230) return true
    if (user !== 331) return user === 530 ? false : null
    const pass = await code('PASS ward@example.com\r\n')
    if (pass === 230) return true
    return pass === 530 || pass === 421 ? false : null
  } finally {
    if (!sock.destroyed) sock.end('QUIT\r\n')
    sock.destroy()
  }
}

/** What scanners that build on service detection read of it. */
export type DetectedService = Pick<ServiceInfo, 'service' | 'version' | 'product' | 'banner' | 'tls'>
