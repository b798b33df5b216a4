// UDP network I/O only: send payloads through connected sockets and classify what comes back.
// A connected socket gets the ICMP port-unreachable of a closed port as ECONNREFUSED; a reply means
// open; silence after every retry means open|filtered (a firewall and a quiet service look alike).
import type { Socket as UdpSocket, RemoteInfo } from 'node:dgram'
import type { Egress } from '../../../toolkit/egress.js'
import { ipVersion } from '../../../toolkit/ip.js'
import { RESOLVE_TIMEOUT_MS } from '../../../toolkit/timeouts.js'

export type PortState = 'open' | 'closed' | 'filtered' | 'open|filtered'

export interface Exchange {
  state: PortState
  reply?: Buffer
  /** Bytes sent per attempt (for amplification ratios). */
  sent: number
  /** Why the port is closed/filtered (ECONNREFUSED, EHOSTUNREACH, ...). */
  reason?: string
}

export interface ExchangeOptions {
  /** Wait per attempt; see RttTracker for the adaptive wait of discovery. */
  timeoutMs: number | (() => number)
  /** Told the round-trip time of every answer (reply or ICMP error). */
  onRtt?: (ms: number) => void
  retries: number
  signal: AbortSignal
  /** Also listen on an unconnected socket: for servers that answer from another port (TFTP). */
  anySourcePort?: boolean
}

const socketType = (host: string) => (ipVersion(host) === 6 ? 'udp6' : 'udp4')

/** Sends `payloads` to host:port (1 + retries times) and waits for an answer, an ICMP error or silence. */
export function exchange(net: Egress, host: string, port: number, payloads: readonly Buffer[], o: ExchangeOptions): Promise<Exchange> {
  const sent = payloads.reduce((n, p) => n + p.length, 0)
  return new Promise((resolve) => {
    if (o.signal.aborted) return resolve({ state: 'open|filtered', sent, reason: 'aborted' })
    const sockets: UdpSocket[] = []
    let timer: NodeJS.Timeout | undefined
    let attempts = 0
    let settled = false
    const release = () => {
      settled = true
      clearTimeout(timer)
      o.signal.removeEventListener('abort', onAbort)
      for (const s of sockets) {
        try {
          s.close()
        } catch {
          /* already closed */
        }
      }
    }
    const finish = (r: Omit<Exchange, 'sent'>) => {
      if (settled) return
      release()
      resolve({ ...r, sent })
    }
    const onAbort = () => finish({ state: 'open|filtered', reason: 'aborted' })
    o.signal.addEventListener('abort', onAbort, { once: true })

    const connected = net.udp(socketType(host))
    sockets.push(connected)
    let sentAt = 0
    const rtt = () => o.onRtt?.(performance.now() - sentAt)
    connected.on('message', (reply) => {
      rtt()
      finish({ state: 'open', reply })
    })
    const onError = (err: NodeJS.ErrnoException) => {
      rtt()
      const code = err.code ?? err.message
      if (code === 'ECONNREFUSED') finish({ state: 'closed', reason: 'port unreachable' })
      else if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EACCES') finish({ state: 'filtered', reason: code })
      else finish({ state: 'open|filtered', reason: code })
    }
    connected.on('error', onError)

    let loose: UdpSocket | undefined
    if (o.anySourcePort) {
      loose = net.udp(socketType(host))
      sockets.push(loose)
      loose.on('message', (reply: Buffer, rinfo: RemoteInfo) => {
        if (rinfo.address !== host) return
        rtt()
        finish({ state: 'open', reply })
      })
      loose.on('error', () => {
        /* the connected socket reports errors */
      })
    }

    const attempt = () => {
      if (settled) return
      if (attempts++ > o.retries) return finish({ state: 'open|filtered', reason: 'no response' })
      sentAt = performance.now()
      for (const p of payloads) {
        connected.send(p, (err) => err && connected.emit('error', err))
        loose?.send(p, port, host, () => {})
      }
      check()
    }
    // Re-reads the wait at least every 250 ms: an adaptive wait may shrink while this attempt waits.
    const check = () => {
      const wait = typeof o.timeoutMs === 'number' ? o.timeoutMs : o.timeoutMs()
      const remaining = wait - (performance.now() - sentAt)
      if (remaining <= 0) attempt()
      else timer = setTimeout(check, Math.min(remaining, 250))
    }
    // dgram calls back with the error (no 'error' event) when connect fails, e.g. ENETUNREACH.
    connected.connect(port, host, (err?: Error) => {
      if (err) return onError(err)
      // Scanning our own host: the kernel may have picked the target port as this socket's own
      // ephemeral port, and the socket would talk to itself. Start again from another port.
      const local = connected.address()
      if (local.port === port && local.address === connected.remoteAddress().address) {
        release()
        return resolve(exchange(net, host, port, payloads, o))
      }
      attempt()
    })
  })
}

/**
 * Adaptive wait, after nmap: once the host has answered (replies or ICMP errors), a silent port is
 * given max(floor, 10 × the slowest round trip seen) per attempt instead of the full timeout.
 * The configured timeout stays the ceiling, and the wait before any answer.
 */
export class RttTracker {
  private samples = 0
  private max = 0
  constructor(
    private readonly ceilingMs: number,
    private readonly floorMs = 250,
  ) {}
  record = (ms: number) => {
    this.samples++
    this.max = Math.max(this.max, ms)
  }
  wait = (): number => (this.samples < 3 ? this.ceilingMs : Math.min(this.ceilingMs, Math.max(this.floorMs, 10 * this.max)))
}

/**
 * The address a hostname resolves to, through the egress's own UDP socket (dgram's lookup), since
 * tools cannot import node:dns. IP literals are returned as they are.
 */
export function resolveHost(net: Egress, host: string, timeoutMs = RESOLVE_TIMEOUT_MS): Promise<string> {
  if (ipVersion(host)) return Promise.resolve(host)
  const tryFamily = (type: 'udp4' | 'udp6') =>
    new Promise<string>((resolve, reject) => {
      const s = net.udp(type)
      const timer = setTimeout(() => done(new Error(`resolving ${host} timed out`)), timeoutMs)
      const done = (err: Error | null, address?: string) => {
        clearTimeout(timer)
        try {
          s.close()
        } catch {
          /* closed */
        }
        if (err) reject(err)
        else resolve(address!)
      }
      s.once('error', (e) => done(e))
      s.connect(9, host, (err?: Error) => {
        if (err) return done(err)
        try {
          done(null, s.remoteAddress().address)
        } catch (e) {
          done(e as Error)
        }
      })
    })
  return tryFamily('udp4').catch(() => tryFamily('udp6'))
}
