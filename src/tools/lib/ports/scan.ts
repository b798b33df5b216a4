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
  const method = opts.method ?? 'auto'
  if (!ports.length || opts.signal.aborted) return []
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
    const state = new Uint8Array(65536)
    const retried = new Uint8Array(65536)
    const retryQueue: number[] = []
    let retryNext = 0
    const total = ports.length
    const minWindow = Math.min(MIN_WINDOW, maxWindow)
    let next = 0
    let done = 0
    let inFlight = 0
    // One connect alone first: its round trip is the unqueued baseline the delay signal compares with.
    // Then the window opens fully (or after WARMUP_MS without an answer).
    let window = 1
    let opened = false
    const openUp = () => {
      if (!opened && !finished) {
        opened = true
        window = maxWindow
        clearTimeout(warmup)
        pump()
      }
    }
    const warmup = setTimeout(openUp, WARMUP_MS)
    let replies = 0
    let srtt = -1
    let rttvar = 0
    let minRtt = Infinity
    let lastCut = 0
    let timeout = maxTimeout
    let lastProgress = 0
    let pressureTimer: NodeJS.Timeout | undefined
    let finished = false
    // Rate limit: when the next connect may start. A stall earns at most 10 ms of catch-up, so no burst outruns the rate by more.
    let slot = 0
    let paceTimer: NodeJS.Timeout | undefined

    const onAbort = () => finish()
    opts.signal.addEventListener('abort', onAbort, { once: true })

    function finish(err?: Error) {
      if (finished) return
      finished = true
      clearTimeout(pressureTimer)
      clearTimeout(paceTimer)
      clearTimeout(warmup)
      opts.signal.removeEventListener('abort', onAbort)
      inner.abort(err ?? opts.signal.reason)
      if (err) return reject(err)
      opts.onProgress?.(done, total)
      const out: PortResult[] = []
      for (const p of ports) if (state[p]) out.push({ port: p, state: STATE_NAME[state[p]] })
      resolve(out.sort((a, b) => a.port - b.port))
    }

    function settle(port: number, s: number) {
      if (state[port]) return
      state[port] = s
      done++
      if (s === OPEN) opts.onOpen?.(port)
      const now = performance.now()
      if (opts.onProgress && now - lastProgress > 200) {
        lastProgress = now
        opts.onProgress(done, total)
      }
    }

    function sampleRtt(ms: number) {
      // RFC 6298 smoothing, as nmap does for its timeouts.
      if (srtt < 0) {
        srtt = ms
        rttvar = ms / 2
      } else {
        rttvar += (Math.abs(ms - srtt) - rttvar) / 4
        srtt += (ms - srtt) / 8
      }
      timeout = clamp(Math.ceil(srtt + 4 * rttvar), Math.min(MIN_TIMEOUT_MS, maxTimeout), maxTimeout)
    }

    function onReply(port: number, s: number, started: number) {
      replies++
      const now = performance.now()
      const rtt = now - started
      if (rtt < minRtt) minRtt = rtt
      sampleRtt(rtt)
      if (retried[port]) window = Math.max(minWindow, Math.floor(window / 2))
      else if (srtt > 2 * minRtt && srtt - minRtt > QUEUE_DELAY_MS) {
        if (now - lastCut > srtt) {
          lastCut = now
          window = Math.max(Math.min(DELAY_MIN_WINDOW, window), Math.floor(window * 0.8))
        }
      } else if (opened && window < maxWindow && (srtt < 1.5 * minRtt || srtt - minRtt < QUEUE_DELAY_MS / 2)) window++
      settle(port, s)
      if (replies === 1) queueMicrotask(openUp)
    }

    function launch(port: number) {
      inFlight++
      const started = performance.now()
      const t = retried[port] ? Math.min(maxTimeout, Math.max(timeout * 2, MIN_TIMEOUT_MS * 2)) : timeout
      const signal = t > ABORT_SLACK_MS ? inner.signal : undefined
      net.connect({ host: address, port, timeoutMs: t, signal }).then(
        (sock: Socket) => {
          // A connect to a free ephemeral port of our own address can meet itself (TCP simultaneous
          // open); nothing listens there.
          const self = sock.localPort === sock.remotePort && sock.localAddress === sock.remoteAddress
          sock.destroy()
          inFlight--
          if (finished) return
          onReply(port, self ? CLOSED : OPEN, started)
          pump()
        },
        (err: NodeJS.ErrnoException) => {
          inFlight--
          if (finished) return
          const code = err?.code ?? ''
          if (REFUSED.has(code)) onReply(port, CLOSED, started)
          else if (LOCAL_PRESSURE.has(code)) return backOff(port)
          else if (EGRESS_FAILED.has(code)) return finish(err)
          else if (EGRESS_REFUSED.has(code)) settle(port, FILTERED)
          else if (UNREACHABLE.has(code) && replies === 0) {
            return finish(new TargetUnreachableError(`${host} is unreachable (${code})`))
          } else if (!retried[port] && t < maxTimeout) {
            retried[port] = 1
            retryQueue.push(port)
          } else settle(port, FILTERED)
          pump()
        },
      )
    }

    function backOff(port: number) {
      retryQueue.push(port)
      window = Math.max(minWindow, Math.floor(inFlight * 0.75))
      clearTimeout(pressureTimer)
      pressureTimer = setTimeout(pump, 20)
    }

    function pump() {
      if (finished) return
      while (inFlight < window) {
        const now = opts.maxRate ? performance.now() : 0
        if (now < slot) {
          if (!paceTimer) paceTimer = setTimeout(() => ((paceTimer = undefined), pump()), Math.max(1, slot - now))
          break
        }
        let port: number
        if (next < total) port = ports[next++]
        else if (retryNext < retryQueue.length) port = retryQueue[retryNext++]
        else break
        if (state[port]) continue
        if (opts.maxRate) slot = Math.max(slot, now - 10) + 1000 / opts.maxRate
        launch(port)
      }
      if (inFlight === 0 && next >= total && retryNext >= retryQueue.length) finish()
    }

    pump()
  })
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
