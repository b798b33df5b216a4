// TCP connect scan: sockets only, returns facts (open / closed / filtered). No findings, no logging.
//
// Timing is adaptive in the manner of nmap: many connects in flight (a window), a per-probe timeout
// derived from the measured round-trip time (srtt + 4 * rttvar, clamped), and one retry of every port
// that timed out under a shortened timeout. A retried port that then answers means the first probe was
// lost, not filtered: that is the congestion signal, and the window is halved. Replies grow the window
// again. Timeouts alone never shrink it, so a firewalled host (mostly silent ports) still scans at full
// parallelism. Delay is the other signal (as in TCP Vegas): when the smoothed round trip is both twice
// the smallest one seen and QUEUE_DELAY_MS above it, answers are waiting in a queue — ours (the event
// loop) or the network's — and more connects in flight would only lengthen it, so the window shrinks
// by a fifth per round trip (and grows again only once the queue is half that). On loopback this settles near a hundred in flight, which is faster than a
// thousand; on a long path the round trip hardly moves and the window stays high.
import { setMaxListeners } from 'node:events'
import type { Socket } from 'node:net'
import type { Egress } from '../../../toolkit/egress.js'
import { ipVersion } from '../../../toolkit/ip.js'
import { TargetUnreachableError } from '../../../toolkit/errors.js'
import { DISCOVERY_CONNECT_TIMEOUT_MS } from '../../../toolkit/timeouts.js'

export type PortState = 'open' | 'closed' | 'filtered'
export interface PortResult {
  port: number
  state: PortState
}
export interface DiscoverOptions {
  /** Longest wait for one connect (ms); the adaptive timeout never exceeds it. Default 1000. */
  timeoutMs?: number
  /** Most connects in flight. Default 1000 (100 through a proxy egress, which opens a tunnel per connect). */
  concurrency?: number
  signal: AbortSignal
  onProgress?(done: number, total: number): void
  onOpen?(port: number): void
  /** Most probes (SYNs or connects) started per second; absent: no limit beyond the window. */
  maxRate?: number
  /** 'auto' (default): a SYN scan where the egress can send raw packets, else connects. */
  method?: ScanMethod
  /** Which method runs; `note` says why a SYN scan was not used (or failed and connects took over). */
  onMethod?(method: 'syn' | 'connect', note: string | null): void
}

export type ScanMethod = 'auto' | 'syn' | 'connect'

/** A SYN scan was asked for and cannot run here. */
export class SynScanUnavailableError extends Error {}

export const DEFAULT_CONNECT_TIMEOUT_MS = DISCOVERY_CONNECT_TIMEOUT_MS
export const DEFAULT_CONCURRENCY = 1000
export const DEFAULT_PROXY_CONCURRENCY = 100
/**
 * SYNs awaiting an answer. A SYN costs a 24-byte packet and no socket, so the window can be wider
 * than the connect scan's: on a firewalled host (silent ports) it bounds how many wait out the timeout at once.
 */
export const DEFAULT_SYN_WINDOW = 4096
const MIN_TIMEOUT_MS = 250
const MIN_WINDOW = 10
/** Smallest window the delay signal alone may leave (drops can go lower, to MIN_WINDOW). */
const DELAY_MIN_WINDOW = 32
const QUEUE_DELAY_MS = 2
const WARMUP_MS = 200
/** Connects with a longer timeout than this get the abort signal; shorter ones end by themselves in time. */
const ABORT_SLACK_MS = 800

/** The host itself cannot be reached: no port answer can be expected. */
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EHOSTDOWN'])
/** Our side ran short of sockets or ports: try the port again later with fewer in flight. */
const LOCAL_PRESSURE = new Set(['EADDRNOTAVAIL', 'EMFILE', 'ENFILE', 'ENOBUFS', 'EAGAIN'])
/**
 * The proxy egress itself failed (see engine/net/socks5.ts), or the scope guard refused the host
 * (toolkit/scope.ts, nothing sent): no port state can be learned through it.
 */
const EGRESS_FAILED = new Set(['EPROXYUNREACHABLE', 'EPROXYAUTH', 'EBLOCKED'])
/** The proxy would not or could not reach this port: like a firewall's drop. */
const EGRESS_REFUSED = new Set(['EPROXYDENIED', 'EPROXY'])
/** The host answered that nothing listens. */
const REFUSED = new Set(['ECONNREFUSED', 'ECONNRESET'])

const OPEN = 1
const CLOSED = 2
const FILTERED = 3
const STATE_NAME: readonly PortState[] = ['filtered', 'open', 'closed', 'filtered'] // index 0 (unknown) is never read

/**
 * Scans `ports` of `host` through `net`: SYN from a raw socket where permitted (`opts.method`), else
 * connects, from the egress's native scanner when it has one, else with Node's sockets (the adaptive
 * loop below, which a proxy egress always takes). Resolves with every port whose state was
 * established, sorted by port; on abort it resolves within milliseconds with the ports done so far.
 * Throws TargetUnreachableError when the host cannot be resolved or routed to before any port answered.
 */
export async function discoverTcpPorts(
  net: Egress,
  host: string,
  requested: readonly number[],
  opts: DiscoverOptions,
): Promise<PortResult[]> {
  const ports = [...new Set(requested)]
  const bad = ports.find((p) => !Number.isInteger(p) || p < 1 || p > 65535)
  if (bad !== undefined) throw new RangeError(`port ${bad} is not in 1..65535`)
  const maxTimeout = clamp(Math.round(opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS), 20, 120_000)
  if (!ports.length || opts.signal.aborted) return []
  const nativeStates = await scanNatively(net, host, ports, maxTimeout, opts)
  if (nativeStates) return nativeStates
  const maxWindow = clamp(
    Math.round(opts.concurrency ?? (net.kind === 'direct' ? DEFAULT_CONCURRENCY : DEFAULT_PROXY_CONCURRENCY)),
    1,
    10_000,
  )
  const address = await pinAddress(net, host, ports[0], maxTimeout, opts.signal)
  if (opts.signal.aborted) return []

  // One child signal for all connects: the caller's signal keeps a single listener.
  const inner = new AbortController()
  setMaxListeners(0, inner.signal)

  return new Promise<PortResult[]>((resolve, reject) => {
    new ConnectScan({ net, host, address, ports, maxTimeout, maxWindow, opts, inner }, resolve, reject).start()
  })
}

/**
 * The scans the egress's native scanner runs: SYN where permitted, then connects from its worker
 * thread. Reports the method through `opts.onMethod`. Null when the adaptive loop over Node's sockets
 * must run instead (no native scanner, or it failed without the failure being final).
 */
async function scanNatively(
  net: Egress,
  host: string,
  ports: number[],
  maxTimeout: number,
  opts: DiscoverOptions,
): Promise<PortResult[] | null> {
  const method = opts.method ?? 'auto'
  const native = net.portScan
  let note: string | null = null
  // The scan a native scanner runs; null when it cannot, with `note` saying why.
  const runNative = async (m: 'syn' | 'connect', window: number): Promise<PortResult[] | null> => {
    try {
      const r = await native!.scan(host, {
        method: m,
        ports,
        timeoutMs: maxTimeout,
        window,
        rate: opts.maxRate,
        signal: opts.signal,
        onProgress: opts.onProgress,
        onOpen: opts.onOpen,
      })
      return r.states
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? ''
      if (UNREACHABLE.has(code)) throw new TargetUnreachableError(`${host} is unreachable (${code})`)
      if (EGRESS_FAILED.has(code) || (m === 'syn' && method === 'syn')) throw e
      note = `${m === 'syn' ? 'SYN' : 'native connect'} scan failed (${(e as Error).message})`
      return null
    }
  }
  if (method !== 'connect') {
    const why = native ? native.unavailable('syn') : `the ${net.kind} egress cannot send raw packets`
    if (why && method === 'syn') throw new SynScanUnavailableError(`SYN scan unavailable: ${why}`)
    if (why) note = `SYN scan unavailable: ${why}`
    else {
      opts.onMethod?.('syn', null)
      const r = await runNative('syn', clamp(Math.round(opts.concurrency ?? DEFAULT_SYN_WINDOW), 1, 65535))
      if (r) return r
    }
  }
  opts.onMethod?.('connect', note)
  // Connects from the addon's worker thread where there is one (IPv4 and IPv6); Node's sockets otherwise (proxies).
  if (native && !native.unavailable('connect')) {
    const r = await runNative('connect', clamp(Math.round(opts.concurrency ?? DEFAULT_CONCURRENCY), 1, 10_000))
    if (r) return r
  }
  return null
}

interface ConnectScanSetup {
  net: Egress
  host: string
  /** Where the connects go: `host` pinned to one address (see pinAddress). */
  address: string
  ports: readonly number[]
  maxTimeout: number
  maxWindow: number
  opts: DiscoverOptions
  /** Aborted when the scan ends: the connects still in flight give up. */
  inner: AbortController
}

/**
 * The adaptive connect scan over Node's sockets: the window and the round-trip timing (see the top
 * of this file), one connect per port, and one retry round for the ports that timed out.
 */
class ConnectScan {
  private readonly net: Egress
  private readonly host: string
  private readonly address: string
  private readonly ports: readonly number[]
  private readonly maxTimeout: number
  private readonly maxWindow: number
  private readonly opts: DiscoverOptions
  private readonly inner: AbortController
  private readonly state = new Uint8Array(65536)
  private readonly retried = new Uint8Array(65536)
  private readonly retryQueue: number[] = []
  private retryNext = 0
  private readonly total: number
  private readonly minWindow: number
  private next = 0
  private done = 0
  private inFlight = 0
  // One connect alone first: its round trip is the unqueued baseline the delay signal compares with.
  // Then the window opens fully (or after WARMUP_MS without an answer).
  private window = 1
  private opened = false
  private warmup: NodeJS.Timeout | undefined
  private replies = 0
  private srtt = -1
  private rttvar = 0
  private minRtt = Infinity
  private lastCut = 0
  private timeout: number
  private lastProgress = 0
  private pressureTimer: NodeJS.Timeout | undefined
  private finished = false
  // Rate limit: when the next connect may start. A stall earns at most 10 ms of catch-up, so no burst outruns the rate by more.
  private slot = 0
  private paceTimer: NodeJS.Timeout | undefined

  constructor(
    setup: ConnectScanSetup,
    private readonly resolve: (r: PortResult[]) => void,
    private readonly reject: (e: Error) => void,
  ) {
    this.net = setup.net
    this.host = setup.host
    this.address = setup.address
    this.ports = setup.ports
    this.maxTimeout = setup.maxTimeout
    this.maxWindow = setup.maxWindow
    this.opts = setup.opts
    this.inner = setup.inner
    this.total = setup.ports.length
    this.minWindow = Math.min(MIN_WINDOW, setup.maxWindow)
    this.timeout = setup.maxTimeout
  }

  start(): void {
    this.warmup = setTimeout(this.openUp, WARMUP_MS)
    this.opts.signal.addEventListener('abort', this.onAbort, { once: true })
    this.pump()
  }

  private readonly openUp = (): void => {
    if (!this.opened && !this.finished) {
      this.opened = true
      this.window = this.maxWindow
      clearTimeout(this.warmup)
      this.pump()
    }
  }

  private readonly onAbort = (): void => this.finish()

  private finish(err?: Error): void {
    if (this.finished) return
    this.finished = true
    clearTimeout(this.pressureTimer)
    clearTimeout(this.paceTimer)
    clearTimeout(this.warmup)
    this.opts.signal.removeEventListener('abort', this.onAbort)
    this.inner.abort(err ?? this.opts.signal.reason)
    if (err) {
      this.reject(err)
      return
    }
    this.opts.onProgress?.(this.done, this.total)
    const out: PortResult[] = []
    for (const p of this.ports) if (this.state[p]) out.push({ port: p, state: STATE_NAME[this.state[p]] })
    this.resolve(out.sort((a, b) => a.port - b.port))
  }

  private settle(port: number, s: number): void {
    if (this.state[port]) return
    this.state[port] = s
    this.done++
    if (s === OPEN) this.opts.onOpen?.(port)
    const now = performance.now()
    if (this.opts.onProgress && now - this.lastProgress > 200) {
      this.lastProgress = now
      this.opts.onProgress(this.done, this.total)
    }
  }

  private sampleRtt(ms: number): void {
    // RFC 6298 smoothing, as nmap does for its timeouts.
    if (this.srtt < 0) {
      this.srtt = ms
      this.rttvar = ms / 2
    } else {
      this.rttvar += (Math.abs(ms - this.srtt) - this.rttvar) / 4
      this.srtt += (ms - this.srtt) / 8
    }
    this.timeout = clamp(Math.ceil(this.srtt + 4 * this.rttvar), Math.min(MIN_TIMEOUT_MS, this.maxTimeout), this.maxTimeout)
  }

  private onReply(port: number, s: number, started: number): void {
    this.replies++
    const now = performance.now()
    const rtt = now - started
    if (rtt < this.minRtt) this.minRtt = rtt
    this.sampleRtt(rtt)
    const { srtt, minRtt } = this
    if (this.retried[port]) this.window = Math.max(this.minWindow, Math.floor(this.window / 2))
    else if (srtt > 2 * minRtt && srtt - minRtt > QUEUE_DELAY_MS) {
      if (now - this.lastCut > srtt) {
        this.lastCut = now
        this.window = Math.max(Math.min(DELAY_MIN_WINDOW, this.window), Math.floor(this.window * 0.8))
      }
    } else if (this.opened && this.window < this.maxWindow && (srtt < 1.5 * minRtt || srtt - minRtt < QUEUE_DELAY_MS / 2)) this.window++
    this.settle(port, s)
    if (this.replies === 1) queueMicrotask(this.openUp)
  }

  /** One connect to `port`: a retried port waits longer than the current timeout. */
  private launch(port: number): void {
    this.inFlight++
    const started = performance.now()
    const t = this.retried[port] ? Math.min(this.maxTimeout, Math.max(this.timeout * 2, MIN_TIMEOUT_MS * 2)) : this.timeout
    const signal = t > ABORT_SLACK_MS ? this.inner.signal : undefined
    this.net.connect({ host: this.address, port, timeoutMs: t, signal }).then(
      (sock: Socket) => this.connected(port, started, sock),
      (err: NodeJS.ErrnoException) => this.failed(port, started, t, err),
    )
  }

  private connected(port: number, started: number, sock: Socket): void {
    // A connect to a free ephemeral port of our own address can meet itself (TCP simultaneous
    // open); nothing listens there.
    const self = sock.localPort === sock.remotePort && sock.localAddress === sock.remoteAddress
    sock.destroy()
    this.inFlight--
    if (this.finished) return
    this.onReply(port, self ? CLOSED : OPEN, started)
    this.pump()
  }

  /** A connect that failed after `t` ms at most: an answer, our own shortage, the egress's, or silence (retried once). */
  private failed(port: number, started: number, t: number, err: NodeJS.ErrnoException): void {
    this.inFlight--
    if (this.finished) return
    const code = err?.code ?? ''
    if (REFUSED.has(code)) this.onReply(port, CLOSED, started)
    else if (LOCAL_PRESSURE.has(code)) {
      this.backOff(port)
      return
    } else if (EGRESS_FAILED.has(code)) {
      this.finish(err)
      return
    } else if (EGRESS_REFUSED.has(code)) this.settle(port, FILTERED)
    else if (UNREACHABLE.has(code) && this.replies === 0) {
      this.finish(new TargetUnreachableError(`${this.host} is unreachable (${code})`))
      return
    } else if (!this.retried[port] && t < this.maxTimeout) {
      this.retried[port] = 1
      this.retryQueue.push(port)
    } else this.settle(port, FILTERED)
    this.pump()
  }

  private backOff(port: number): void {
    this.retryQueue.push(port)
    this.window = Math.max(this.minWindow, Math.floor(this.inFlight * 0.75))
    clearTimeout(this.pressureTimer)
    this.pressureTimer = setTimeout(this.pump, 20)
  }

  /** Starts connects while the window and the rate allow: first every port once, then the retry round. */
  private readonly pump = (): void => {
    if (this.finished) return
    const { ports, total, retryQueue, state, opts } = this
    while (this.inFlight < this.window) {
      const now = opts.maxRate ? performance.now() : 0
      if (now < this.slot) {
        if (!this.paceTimer) this.paceTimer = setTimeout(this.paced, Math.max(1, this.slot - now))
        break
      }
      let port: number
      if (this.next < total) port = ports[this.next++]
      else if (this.retryNext < retryQueue.length) port = retryQueue[this.retryNext++]
      else break
      if (state[port]) continue
      if (opts.maxRate) this.slot = Math.max(this.slot, now - 10) + 1000 / opts.maxRate
      this.launch(port)
    }
    if (this.inFlight === 0 && this.next >= total && this.retryNext >= retryQueue.length) this.finish()
  }

  private readonly paced = (): void => {
    this.paceTimer = undefined
    this.pump()
  }
}

/**
 * For a host name on the direct egress, the address the system resolves it to, so the scan does not
 * resolve once per port. Through a proxy the name goes to the proxy unchanged.
 */
async function pinAddress(net: Egress, host: string, port: number, timeoutMs: number, signal: AbortSignal): Promise<string> {
  if (ipVersion(host) || net.kind !== 'direct') return host
  try {
    const sock = await net.connect({ host, port, timeoutMs, signal })
    const addr = sock.remoteAddress
    sock.destroy()
    return addr ?? host
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { address?: string; errors?: Array<{ address?: string }> }
    if (signal.aborted) return host
    if (UNREACHABLE.has(err.code ?? '')) throw new TargetUnreachableError(`${host} is unreachable (${err.code})`)
    // Several addresses failed (happy eyeballs): prefer IPv4, as nmap does.
    const tried = err.errors?.map((x) => x.address).filter((a): a is string => !!a) ?? []
    return err.address ?? tried.find((a) => ipVersion(a) === 4) ?? tried[0] ?? host
  }
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Number.isFinite(n) ? n : lo))
