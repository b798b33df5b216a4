// The native port scans (native/port-scan.c, built by scripts/build-native.mjs) behind the direct
// egress's `portScan`: SYN from a raw socket, or connects, on a libuv worker thread. The addon is
// loaded on first use; when it is missing, or raw sockets are not permitted (no CAP_NET_RAW) for a
// SYN scan, `nativeScanUnavailable()` says why and the port scan falls back (SYN → connect → Node sockets).
// The caller has already checked the address against the scope: every packet goes to it alone.
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { availableParallelism, constants } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { NativeScanMethod, RawPortState, NativeScanOptions, NativeScanResult } from '../../toolkit/egress.js'

interface Addon {
  available(): string | null
  scan(o: {
    method: NativeScanMethod
    address: string
    ports: Uint16Array
    states: Uint8Array
    control: Int32Array
    timeoutMs: number
    window: number
    retries: number
    rate: number
  }): Promise<{ sent: number; received: number; sourcePort: number }>
}

// src/engine/net and dist/engine/net are both three levels below the repository root.
const ADDON_URL = new URL('../../../native/build/port_scan.node', import.meta.url)
const STATE: readonly (RawPortState | null)[] = [null, 'open', 'closed', 'filtered']
/** How often answers are handed to the caller while the native scan runs. */
const POLL_MS = 100
/** Connect scans of at least this many ports run on two threads. */
const MIN_PORTS_TO_SHARD = 8192

let loaded: { addon: Addon | null; why: string | null; rawDenied: string | null } | null = null

function load() {
  if (loaded) return loaded
  try {
    const addon = createRequire(import.meta.url)(fileURLToPath(ADDON_URL)) as Addon
    const denied = addon.available()
    loaded = { addon, why: null, rawDenied: denied ? `raw sockets are not permitted (${denied}; needs root or CAP_NET_RAW)` : null }
  } catch {
    let why = 'the port-scan addon is not built'
    try {
      why += `: ${readFileSync(fileURLToPath(new URL('./port_scan.failed', ADDON_URL)), 'utf8').trim()}`
    } catch {}
    loaded = { addon: null, why, rawDenied: null }
  }
  return loaded
}

/** Null when `method` can run natively in this process, else the reason it cannot. */
export function nativeScanUnavailable(method: NativeScanMethod): string | null {
  const l = load()
  return l.why ?? (method === 'syn' ? l.rawDenied : null)
}

const ERRNO_NAME = new Map(Object.entries(constants.errno).map(([name, n]) => [n, name]))

/** Scans `o.ports` of the IP literal `address` (IPv4 for SYN); resolves (also on abort) with every port whose state is known. */
export async function nativeScanAddress(address: string, o: NativeScanOptions): Promise<NativeScanResult> {
  const why = nativeScanUnavailable(o.method)
  if (why) throw Object.assign(new Error(`native ${o.method} scan unavailable: ${why}`), { code: 'ENONATIVESCAN' })
  const addon = load().addon!
  // Arrays over their own ArrayBuffers: V8 keeps those off its heap, so the native thread's
  // pointers into them stay valid while the scan runs (small typed arrays may live on the heap).
  const list = [...new Set(o.ports)]
  const total = list.length
  // A connect costs the kernel more than a SYN (a socket, a handshake, a reset): a long connect scan
  // is split over as many threads as there are cores (at most 2: interleaved halves of the list).
  const shards = o.method === 'connect' && total >= MIN_PORTS_TO_SHARD ? Math.min(2, availableParallelism()) : 1
  const states = new Uint8Array(new ArrayBuffer(65536))
  const jobs = Array.from({ length: shards }, (_, i) => {
    const mine = shards === 1 ? list : list.filter((_, k) => k % shards === i)
    const ports = new Uint16Array(new ArrayBuffer(mine.length * 2))
    ports.set(mine)
    return { ports, control: new Int32Array(new ArrayBuffer(64)) }
  })
  // Answers are written by the native threads into `states`; this poll reports open ports as they
  // appear (so a scan stopped midway keeps them) and the progress.
  const reported = new Uint8Array(65536)
  const poll = () => {
    if (o.onOpen) for (const p of list) if (states[p] === 1 && !reported[p]) o.onOpen(((reported[p] = 1), p))
    o.onProgress?.(
      Math.min(
        jobs.reduce((n, j) => n + Atomics.load(j.control, 1), 0),
        total,
      ),
      total,
    )
  }
  const timer = setInterval(poll, POLL_MS)
  const stop = () => jobs.forEach((j) => Atomics.store(j.control, 0, 1))
  o.signal.addEventListener('abort', stop, { once: true })
  if (o.signal.aborted) stop()
  try {
    const window = Math.max(1, Math.ceil(o.window / shards))
    const runs = jobs.map((j) =>
      addon.scan({
        method: o.method,
        address,
        ports: j.ports,
        states,
        control: j.control,
        timeoutMs: o.timeoutMs,
        window,
        retries: o.retries ?? 1,
        rate: o.rate ? o.rate / shards : 0,
      }),
    )
    // One failed thread stops the others before the error is passed on.
    runs.forEach((r) => r.catch(stop))
    const results = await Promise.all(runs)
    const r = results.reduce((a, b) => ({ sent: a.sent + b.sent, received: a.received + b.received, sourcePort: a.sourcePort }))
    poll()
    const out: NativeScanResult['states'] = []
    for (const p of list) {
      const s = STATE[states[p]]
      if (s) out.push({ port: p, state: s })
    }
    return { states: out.sort((a, b) => a.port - b.port), sent: r.sent, received: r.received }
  } catch (e) {
    const err = e as Error & { errno?: number; code?: string }
    if (err.errno) err.code = ERRNO_NAME.get(err.errno) ?? err.code
    throw err
  } finally {
    clearInterval(timer)
    o.signal.removeEventListener('abort', stop)
  }
}
