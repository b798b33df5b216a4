// Tool 70, TCP Port Scanner. The sequence: port discovery (SYN or connect scan, lib/ports) → service
// detection on each open port (probes/service.ts) with the risk rules (detect/risk-rules.ts) checked
// on each as soon as its facts are known → versions → CVEs. Every fact is reported as soon as it is
// known, so a worker killed mid-scan loses nothing it logged: an open port becomes its finding
// (service guessed from the port number) the moment it answers, and the same finding is reported
// again, complete, once service detection has named it (same identity: the engine updates it).
import { setMaxListeners } from 'node:events'
import { defineTool, type ScanContext, type TestHandle } from '../../toolkit/tool.js'
import { targetHost } from '../../toolkit/ip.js'
import { ToolStartError, TargetUnreachableError } from '../../toolkit/errors.js'
import { phaseProgress } from '../../toolkit/progress.js'
import { scanBudget } from '../../toolkit/budget.js'
import { withPortPlan, type PortPlan } from '../../toolkit/ports.js'
import { TCP_PORTS } from '../lib/ports/top-ports.js'
import { PORT_SERVICE_NAMES } from '../lib/services/probes.js'
import { DEFAULT_CONNECT_TIMEOUT_MS, discoverTcpPorts, SynScanUnavailableError, type PortResult } from '../lib/ports/scan.js'
import { DEFAULT_PROBE_TIMEOUT_MS } from '../lib/services/services.js'
import { productsOfService } from '../lib/versions/fingerprint.js'
import { portVersionFindings } from '../lib/versions/report.js'
import { portScannerManifest } from './manifest.js'
import type { PortScannerParams } from './params.js'
import { openPort } from './checks.js'
import { describePort, hitsOf, portEvidence, RISK_RULES, type OpenPort } from './detect/risk-rules.js'
import { probeService } from './probes/service.js'
import { outputSummary, portTable } from './output.js'

type Ctx = ScanContext<typeof PortScannerParams.static>

/** Ports probed for their service at the same time. */
const DETECT_CONCURRENCY = 16
/** A host that "accepts" every port (a SYN proxy, a tarpit) gets service detection on this many only. */
const MAX_DETECTED_PORTS = 1000
/** Share of the progress bar the port discovery takes when service detection follows. */
const DISCOVERY_SHARE = 0.8
const PROGRESS_UNITS = 1000

/** What the scan knows so far, shared by its steps. */
interface Scan {
  host: string
  /** Many probes listen on the stop signal at once; a child signal keeps the engine's to one listener. */
  signal: AbortSignal
  ports: number[]
  byPort: Map<number, OpenPort>
  table: ReturnType<typeof portTable>
  share: number
  method: 'syn' | 'connect'
  /** The discovery test: an open port's finding is reported there, again once detection named it. */
  discovery?: TestHandle
}

async function runPortScan(ctx: Ctx, plan: PortPlan): Promise<void> {
  const host = targetHost(ctx.target.name)
  const ports = [...plan.ports]
  // A URL's own port is always scanned, whatever the list.
  const urlPort = ctx.target.type === 'url' ? Number(safeUrl(ctx.target.name)?.port || 0) : 0
  if (urlPort && !ports.includes(urlPort)) ports.unshift(urlPort)
  const detect = ctx.params.service_detection
  const scan: Scan = {
    host,
    signal: childSignal(ctx.signal),
    ports,
    byPort: new Map(),
    table: portTable(ctx),
    share: detect ? DISCOVERY_SHARE : 1,
    method: 'connect',
  }
  const states = await discover(ctx, scan)
  const open = states.filter((x) => x.state === 'open').map((x) => scan.byPort.get(x.port)!)
  await detectAndCheck(ctx, scan, open)
  if (detect) {
    const t = await ctx.test(
      'Known vulnerabilities by version',
      'Matches the product versions service detection named against the version catalogue (CVEs, end of life) and imported NVD CVEs.',
    )
    for (const op of open)
      for (const f of await portVersionFindings(op.port, op.service, productsOfService(op), ctx.vulns)) await t.finding(f)
    await t.done()
  }
  scan.table.final()
  const count = (s: string) => states.filter((x) => x.state === s).length
  outputSummary(ctx, {
    requested: ports.length,
    scanned: states.length,
    open: open.length,
    closed: count('closed'),
    filtered: count('filtered'),
    method: scan.method,
  })
  ctx.progress(PROGRESS_UNITS, PROGRESS_UNITS)
  ctx.log(`Scan of ${host} ${scan.signal.aborted ? 'stopped' : 'finished'}: ${open.length} open TCP port(s)`)
}

const reportOpen = (t: TestHandle, op: OpenPort) =>
  t.finding({
    check: openPort,
    detail: `Port ${describePort(op)} is open.`,
    evidence: portEvidence(op),
    port: op.port,
    protocol: 'tcp',
    service: op.service,
    confirmed: true,
  })

/** Port discovery: each open port reported as it answers; the state of every port scanned. */
async function discover(ctx: Ctx, scan: Scan): Promise<PortResult[]> {
  const { host, ports } = scan
  const p = ctx.params
  ctx.log(`Starting TCP port scan of ${host}: ${ports.length} ports (${p.ports})`)
  const discovery = await ctx.test(
    'Port discovery',
    `TCP scan (SYN where permitted, else connect) of ${ports.length} ports (${p.ports}) of ${host}: open, closed or filtered.`,
  )
  scan.discovery = discovery
  const writes = serialWrites()
  const discovered = (port: number) => {
    if (scan.byPort.has(port)) return
    const op: OpenPort = {
      port,
      service: PORT_SERVICE_NAMES[port] ?? null,
      product: null,
      version: null,
      banner: null,
      tls: false,
      facts: {},
      identified: false,
    }
    scan.byPort.set(port, op)
    writes.add(async () => {
      await reportOpen(discovery, op)
      scan.table.show(op)
      ctx.log(`Discovered open port ${port}/tcp on ${host}`)
    })
  }
  const started = performance.now()
  let states: PortResult[]
  try {
    states = await discoverTcpPorts(ctx.net, host, ports, {
      timeoutMs: p.timeout_ms ?? DEFAULT_CONNECT_TIMEOUT_MS,
      concurrency: p.concurrency,
      signal: scan.signal,
      onProgress: (done, total) => ctx.progress(Math.floor((done / total) * scan.share * PROGRESS_UNITS), PROGRESS_UNITS),
      onOpen: discovered,
      method: p.scan_method,
      maxRate: p.max_rate,
      onMethod: (m, note) => {
        scan.method = m
        ctx.log(
          m === 'syn' ? 'Discovery by TCP SYN scan (raw socket, half-open)' : `Discovery by TCP connect scan${note ? ` (${note})` : ''}`,
        )
      },
    })
  } catch (e) {
    await writes.settled()
    throw await discoveryFailed(ctx, discovery, e)
  }
  for (const x of states) if (x.state === 'open') discovered(x.port)
  await writes.done()
  const count = (s: string) => states.filter((x) => x.state === s).length
  const unfinished = ports.length - states.length
  ctx.log(
    `Port discovery ${unfinished ? `stopped after ${states.length} of ${ports.length} ports` : 'done'} ` +
      `in ${((performance.now() - started) / 1000).toFixed(2)} s: ` +
      `${count('open')} open, ${count('closed')} closed, ${count('filtered')} filtered`,
  )
  if (unfinished) await discovery.error(`scan stopped after ${states.length} of ${ports.length} ports`)
  else await discovery.done()
  ctx.cover({ protocol: 'tcp', probed: states.map((x) => x.port), open: states.filter((x) => x.state === 'open').map((x) => x.port) })
  return states
}

/** The error discovery ends the scan with, its test recorded. */
async function discoveryFailed(ctx: Ctx, discovery: TestHandle, e: unknown): Promise<unknown> {
  if (e instanceof SynScanUnavailableError) {
    await discovery.error(e.message)
    return new ToolStartError(e.message)
  }
  if (e instanceof TargetUnreachableError) {
    ctx.log(`Target unreachable: ${e.message}`)
    await discovery.error(e.message)
  }
  return e
}

/** Service detection, and the risk checks on each port as soon as its facts are known. */
async function detectAndCheck(ctx: Ctx, scan: Scan, open: readonly OpenPort[]): Promise<void> {
  const { host, signal } = scan
  const detect = ctx.params.service_detection
  const timeoutMs = ctx.params.timeout_ms ?? DEFAULT_PROBE_TIMEOUT_MS
  const detection = detect
    ? await ctx.test('Service detection', 'Banner grabbing and protocol probes on each open port to name the service, product and version.')
    : null
  const rules: Array<{ rule: (typeof RISK_RULES)[number]; test: TestHandle }> = []
  for (const rule of RISK_RULES) {
    const t = await ctx.test(rule.check.name, `${rule.check.description} Checked on every open port.`)
    if (rule.needsDetection && !detect) await t.skip('service detection is off')
    else rules.push({ rule, test: t })
  }
  const checkPort = async (op: OpenPort) => {
    for (const { rule, test } of rules)
      for (const hit of hitsOf(rule, [op])) {
        await test.finding({ ...hit, protocol: 'tcp' })
        ctx.log(`${hit.check.risk.toUpperCase()}: ${hit.check.name} on ${hit.port}/tcp`)
      }
  }
  const checked = new Set<number>()
  if (detection && !signal.aborted) {
    const probed = open.slice(0, MAX_DETECTED_PORTS)
    if (probed.length < open.length) ctx.log(`Service detection limited to the first ${MAX_DETECTED_PORTS} of ${open.length} open ports`)
    // Each port moves the bar as its probes end, not only when its last one does.
    const phase = phaseProgress((d, t) => ctx.progress(d, t), scan.share, 1, probed.length)
    await scanBudget(ctx).each(probed, { limit: DETECT_CONCURRENCY, host, signal }, async (op) => {
      const info = await probeService(ctx.net, host, op.port, {
        signal,
        timeoutMs,
        onProbe: (tried, planned) => phase.part(op, tried / (planned + 1)),
      })
      if (signal.aborted) return
      Object.assign(op, info)
      await reportOpen(scan.discovery!, op)
      scan.table.show(op)
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

export const portScanner = defineTool(portScannerManifest, withPortPlan(TCP_PORTS, runPortScan))
