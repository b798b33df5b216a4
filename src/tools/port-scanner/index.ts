// Tool 70, TCP Port Scanner: connect scan (scan.ts), service detection (services.ts), risk checks
// (detect.ts). This file only orchestrates: tests, findings, progress, log lines and output.
import { setMaxListeners } from 'node:events'
import { openPort } from './checks.js'
import { targetHost } from '../../toolkit/ip.js'
import { ToolStartError, TargetUnreachableError } from '../../toolkit/errors.js'
import { defineTool, type TestHandle } from '../../toolkit/tool.js'
import { phaseProgress } from '../../toolkit/progress.js'
import { portScannerManifest } from './manifest.js'
import { describePort, hitsOf, portEvidence, RISK_RULES, type OpenPort } from './detect.js'
import { TCP_PORTS } from '../lib/ports/top-ports.js'
import { withPortPlan } from '../../toolkit/ports.js'
import { scanBudget } from '../../toolkit/budget.js'
import { PORT_SERVICE_NAMES } from '../lib/services/probes.js'
import { DEFAULT_CONNECT_TIMEOUT_MS, discoverTcpPorts, SynScanUnavailableError, type PortResult } from '../lib/ports/scan.js'
import { DEFAULT_PROBE_TIMEOUT_MS, detectService, ftpAnonymousLogin } from '../lib/services/services.js'
import { productsOfService } from '../lib/versions/fingerprint.js'
import { cpeOf } from '../lib/services/products.js'
import { portVersionFindings } from '../lib/versions/report.js'

export { PortScannerParams } from './params.js'

/** Ports probed for their service at the same time. */
const DETECT_CONCURRENCY = 16
/** A host that "accepts" every port (a SYN proxy, a tarpit) gets service detection on this many only. */
const MAX_DETECTED_PORTS = 1000
/** Share of the progress bar the port discovery takes when service detection follows. */
const DISCOVERY_SHARE = 0.8

export const portScanner = defineTool(portScannerManifest, withPortPlan(TCP_PORTS, async (ctx, plan) => {
  const p = ctx.params
  // Many probes listen on the stop signal at once; a child signal keeps the engine's to one listener.
  const signal = childSignal(ctx.signal)
  const host = targetHost(ctx.target.name)
  const ports = [...plan.ports]
  // A URL's own port is always scanned, whatever the list.
  const urlPort = ctx.target.type === 'url' ? Number(safeUrl(ctx.target.name)?.port || 0) : 0
  if (urlPort && !ports.includes(urlPort)) ports.unshift(urlPort)
  const detect = p.service_detection
  const share = detect ? DISCOVERY_SHARE : 1
  const PROGRESS_UNITS = 1000

  // Every fact is reported as soon as it is known, so a worker killed mid-scan loses nothing it
  // logged: an open port becomes its finding (service guessed from the port number) the moment it
  // answers, and the same finding is reported again, complete, once service detection has named it
  // (same identity in the same scan: the engine updates it). Log lines follow the writes.
  const byPort = new Map<number, OpenPort>()
  const portRows: PortRow[] = []
  const rowOf = new Map<number, PortRow>()
  const showPort = (op: OpenPort) => {
    let row = rowOf.get(op.port)
    if (!row) portRows.push((row = { port: op.port, protocol: 'tcp', state: 'open', service: null, product: null, version: null, banner: null, tls: false, cpe: null, probe: null }))
    rowOf.set(op.port, Object.assign(row, { service: op.service, product: op.product, version: op.version, banner: op.banner, tls: op.tls, cpe: op.cpe ?? cpeOf(op.product, op.version), probe: op.probe ?? null }))
    ctx.output('ports', portRows)
  }
  const writes = serialWrites()

  // ---- port discovery
  ctx.log(`Starting TCP port scan of ${host}: ${ports.length} ports (${p.ports})`)
  const discovery = await ctx.test('Port discovery', `TCP scan (SYN where permitted, else connect) of ${ports.length} ports (${p.ports}) of ${host}: open, closed or filtered.`)
  let method: 'syn' | 'connect' = 'connect'
  const reportOpen = (op: OpenPort) => discovery.finding({ check: openPort, detail: `Port ${describePort(op)} is open.`, evidence: portEvidence(op), port: op.port, protocol: 'tcp', service: op.service, confirmed: true })
  const discovered = (port: number) => {
    if (byPort.has(port)) return
    const op: OpenPort = { port, service: PORT_SERVICE_NAMES[port] ?? null, product: null, version: null, banner: null, tls: false, facts: {}, identified: false }
    byPort.set(port, op)
    writes.add(async () => {
      await reportOpen(op)
      showPort(op)
      ctx.log(`Discovered open port ${port}/tcp on ${host}`)
    })
  }
  const started = performance.now()
  let states: PortResult[]
  try {
    states = await discoverTcpPorts(ctx.net, host, ports, {
      timeoutMs: p.timeout_ms ?? DEFAULT_CONNECT_TIMEOUT_MS,
      concurrency: p.concurrency,
      signal,
      onProgress: (done, total) => ctx.progress(Math.floor((done / total) * share * PROGRESS_UNITS), PROGRESS_UNITS),
      onOpen: discovered,
      method: p.scan_method,
      maxRate: p.max_rate,
      onMethod: (m, note) => {
        method = m
        ctx.log(m === 'syn' ? 'Discovery by TCP SYN scan (raw socket, half-open)' : `Discovery by TCP connect scan${note ? ` (${note})` : ''}`)
      },
    })
  } catch (e) {
    await writes.settled()
    if (e instanceof SynScanUnavailableError) {
      await discovery.error(e.message)
      throw new ToolStartError(e.message)
    }
    if (e instanceof TargetUnreachableError) {
      ctx.log(`Target unreachable: ${e.message}`)
      await discovery.error(e.message)
    }
    throw e
  }
  for (const x of states) if (x.state === 'open') discovered(x.port)
  await writes.done()
  const count = (s: string) => states.filter((x) => x.state === s).length
  const open: OpenPort[] = states.filter((x) => x.state === 'open').map((x) => byPort.get(x.port)!)
  const secs = ((performance.now() - started) / 1000).toFixed(2)
  const unfinished = ports.length - states.length
  ctx.log(
    `Port discovery ${unfinished ? `stopped after ${states.length} of ${ports.length} ports` : 'done'} in ${secs} s: ` +
      `${open.length} open, ${count('closed')} closed, ${count('filtered')} filtered`,
  )
  if (unfinished) await discovery.error(`scan stopped after ${states.length} of ${ports.length} ports`)
  else await discovery.done()
  ctx.cover({ protocol: 'tcp', probed: states.map((x) => x.port), open: open.map((o) => o.port) })

  // ---- service detection, and the risk checks on each port as soon as its facts are known
  const detection = detect ? await ctx.test('Service detection', 'Banner grabbing and protocol probes on each open port to name the service, product and version.') : null
  const rules: Array<{ rule: (typeof RISK_RULES)[number]; test: TestHandle }> = []
  for (const rule of RISK_RULES) {
    const t = await ctx.test(rule.check.name, `${rule.check.description} Checked on every open port.`)
    if (rule.needsDetection && !detect) await t.skip('service detection is off')
    else rules.push({ rule, test: t })
  }
  const checkPort = async (op: OpenPort) => {
    for (const { rule, test } of rules) {
      for (const hit of hitsOf(rule, [op])) {
        await test.finding({ check: hit.check, detail: hit.detail, evidence: hit.evidence, port: hit.port, protocol: 'tcp', service: hit.service, confirmed: hit.confirmed })
        ctx.log(`${hit.check.risk.toUpperCase()}: ${hit.check.name} on ${hit.port}/tcp`)
      }
    }
  }
  const checked = new Set<number>()
  if (detection && !signal.aborted) {
    const probed = open.slice(0, MAX_DETECTED_PORTS)
    if (probed.length < open.length) ctx.log(`Service detection limited to the first ${MAX_DETECTED_PORTS} of ${open.length} open ports`)
    // Each port moves the bar as its probes end, not only when its last one does.
    const phase = phaseProgress((d, t) => ctx.progress(d, t), share, 1, probed.length)
    await scanBudget(ctx).each(probed, { limit: DETECT_CONCURRENCY, host, signal }, async (op) => {
      const onProbe = (tried: number, planned: number) => phase.part(op, tried / (planned + 1))
      const info = await detectService(ctx.net, host, op.port, { signal, timeoutMs: p.timeout_ms ?? DEFAULT_PROBE_TIMEOUT_MS, onProbe })
      if (signal.aborted) return
      Object.assign(op, info)
      if (op.service === 'ftp' && !op.tls) {
        op.ftpAnonymous = await ftpAnonymousLogin(ctx.net, host, op.port, { signal, timeoutMs: p.timeout_ms ?? DEFAULT_PROBE_TIMEOUT_MS })
      }
      await reportOpen(op)
      showPort(op)
      ctx.log(`Service on ${describePort(op)}${op.tls ? ' over TLS' : ''}${op.banner ? `: ${op.banner}` : ''}`)
      checked.add(op.port)
      await checkPort(op)
      phase.done(op)
    })
  }
  if (detection) {
    if (signal.aborted) await detection.error('scan stopped during service detection')
    else await detection.done()
  }
  // Ports detection did not reach (off, stopped, or past the limit): checked on what is known.
  for (const op of open) if (!checked.has(op.port)) await checkPort(op)
  for (const { test } of rules) await test.done()

  // ---- versions named by detection → the version catalogue and imported CVEs
  if (detect) {
    const t = await ctx.test('Known vulnerabilities by version', 'Matches the product versions service detection named against the version catalogue (CVEs, end of life) and imported NVD CVEs.')
    for (const op of open) for (const f of await portVersionFindings(op.port, op.service, productsOfService(op), ctx.vulns)) await t.finding(f)
    await t.done()
  }

  portRows.sort((a, b) => a.port - b.port)
  ctx.output('ports', portRows)
  ctx.output('ports_summary', { requested: ports.length, scanned: states.length, open: open.length, closed: count('closed'), filtered: count('filtered'), method })
  ctx.progress(PROGRESS_UNITS, PROGRESS_UNITS)
  ctx.log(`Scan of ${host} ${signal.aborted ? 'stopped' : 'finished'}: ${open.length} open TCP port(s)`)
}))

interface PortRow {
  port: number
  protocol: 'tcp'
  state: 'open'
  service: string | null
  product: string | null
  version: string | null
  banner: string | null
  tls: boolean
  /** CPE of the product: the match rule's, else the vocabulary's (lib/services/products.ts). */
  cpe: string | null
  /** The probe whose answer named the service (lib/services/probes.ts), null when none did. */
  probe: string | null
}

/** Writes started from synchronous callbacks, run one after another; `done()` waits and rethrows the first failure. */
function serialWrites() {
  let chain: Promise<void> = Promise.resolve()
  let failed: unknown = null
  return {
    add(write: () => Promise<void>) {
      chain = chain.then(() => (failed ? undefined : write())).catch((e) => void (failed ??= e))
    },
    async settled() {
      await chain
    },
    async done() {
      await chain
      if (failed) throw failed
    },
  }
}

function safeUrl(s: string): URL | null {
  try {
    return new URL(s)
  } catch {
    return null
  }
}

function childSignal(parent: AbortSignal): AbortSignal {
  const ac = new AbortController()
  setMaxListeners(0, ac.signal)
  if (parent.aborted) ac.abort(parent.reason)
  else parent.addEventListener('abort', () => ac.abort(parent.reason), { once: true })
  return ac.signal
}
