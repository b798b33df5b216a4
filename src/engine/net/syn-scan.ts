// The raw-socket SYN scan (native/syn-scan.c, built by scripts/build-native.mjs) behind the direct
// egress's `synScan`. The addon is loaded on first use; when it is missing or raw sockets are not
// permitted (no CAP_NET_RAW), `unavailable()` says why and the port scan dials TCP connects instead.
// The caller has already checked the address against the scope: every packet goes to it alone.
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { constants } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { RawPortState, SynScanOptions, SynScanResult } from '../../toolkit/egress.js'

interface Addon {
  available(): string | null
  scan(o: { address: string; ports: Uint16Array; states: Uint8Array; control: Int32Array; timeoutMs: number; window: number; retries: number }): Promise<{ sent: number; received: number; sourcePort: number }>
}

// src/engine/net and dist/engine/net are both three levels below the repository root.
const ADDON_URL = new URL('../../../native/build/syn_scan.node', import.meta.url)
const STATE: readonly (RawPortState | null)[] = [null, 'open', 'closed', 'filtered']
/** How often answers are handed to the caller while the native scan runs. */
const POLL_MS = 100

let loaded: { addon: Addon | null; why: string | null } | null = null

function load() {
  if (loaded) return loaded
  try {
    const addon = createRequire(import.meta.url)(fileURLToPath(ADDON_URL)) as Addon
    const denied = addon.available()
    loaded = { addon: denied ? null : addon, why: denied ? `raw sockets are not permitted (${denied}; needs root or CAP_NET_RAW)` : null }
  } catch {
    let why = 'the SYN scan addon is not built'
    try {
      why += `: ${readFileSync(fileURLToPath(new URL('./syn_scan.failed', ADDON_URL)), 'utf8').trim()}`
    } catch {}
    loaded = { addon: null, why }
  }
  return loaded
}

/** Null when SYN scans can run in this process, else the reason they cannot. */
export const synScanUnavailable = (): string | null => load().why

const ERRNO_NAME = new Map(Object.entries(constants.errno).map(([name, n]) => [n, name]))

/** Scans `o.ports` of the IPv4 literal `address`; resolves (also on abort) with every port whose state is known. */
export async function synScanAddress(address: string, o: SynScanOptions): Promise<SynScanResult> {
  const { addon, why } = load()
  if (!addon) throw Object.assign(new Error(`SYN scan unavailable: ${why}`), { code: 'ENOSYNSCAN' })
  // Arrays over their own ArrayBuffers: V8 keeps those off its heap, so the native thread's
  // pointers into them stay valid while the scan runs (small typed arrays may live on the heap).
  const list = [...new Set(o.ports)]
  const ports = new Uint16Array(new ArrayBuffer(list.length * 2))
  ports.set(list)
  const states = new Uint8Array(new ArrayBuffer(65536))
  const control = new Int32Array(new ArrayBuffer(64))
  const total = ports.length
  // Answers are written by the native thread into `states`; this poll reports open ports as they
  // appear (so a scan stopped midway keeps them) and the progress.
  const reported = new Uint8Array(65536)
  const poll = () => {
    if (o.onOpen) for (const p of ports) if (states[p] === 1 && !reported[p]) o.onOpen((reported[p] = 1, p))
    o.onProgress?.(Math.min(Atomics.load(control, 1), total), total)
  }
  const timer = setInterval(poll, POLL_MS)
  const stop = () => Atomics.store(control, 0, 1)
  o.signal.addEventListener('abort', stop, { once: true })
  if (o.signal.aborted) stop()
  try {
    const r = await addon.scan({ address, ports, states, control, timeoutMs: o.timeoutMs, window: o.window, retries: o.retries ?? 1 })
    poll()
    const out: SynScanResult['states'] = []
    for (const p of ports) {
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
