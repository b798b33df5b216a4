// Tool 80, UDP Port Scanner. The sequence: resolve the host → discovery (protocol probes through
// connected UDP sockets: open / closed / open|filtered) → follow-up probes of risky features on the
// services found open → one test per service check → versions named by the replies → CVEs.
import { setMaxListeners } from 'node:events'
import { defineTool, type ScanContext } from '../../toolkit/tool.js'
import { TargetUnreachableError, ToolStartError } from '../../toolkit/errors.js'
import { targetHost } from '../../toolkit/ip.js'
import { textEvidence } from '../../toolkit/evidence.js'
import type { Hit } from '../../toolkit/hit.js'
import { scanBudget } from '../../toolkit/budget.js'
import { withPortPlan, type PortPlan } from '../../toolkit/ports.js'
import { productsOfService } from '../lib/versions/fingerprint.js'
import { portVersionFindings } from '../lib/versions/report.js'
import { udpScannerManifest } from './manifest.js'
import type { udpScannerParams } from './params.js'
import { udpOpenPort, udpServiceTests } from './checks.js'
import { UDP_PORTS } from './data/ports.js'
import { exchange, resolveHost, RttTracker } from './probes/exchange.js'
import { probeFor } from './probes/payloads.js'
import { classify, followUpsFor, type PortRow } from './detect/classify.js'
import { countState, outputPorts } from './output.js'

export type UdpScannerContext = ScanContext<typeof udpScannerParams.static>
type Ctx = UdpScannerContext

/** Sockets in flight: silent (filtered) hosts cost timeout × attempts per port, so long lists get more. */
const concurrencyFor = (ports: number) => (ports > 1000 ? 128 : 32)
const FOLLOW_UPS_AT_ONCE = 8

/** What the scan knows: the host's address, the rows of the ports probed, the hits by port. */
interface Scan {
  host: string
  address: string
  rows: PortRow[]
  hits: Map<number, Hit[]>
  progress: () => void
}

async function runUdpScan(ctx: Ctx, plan: PortPlan): Promise<void> {
  const host = targetHost(ctx.target.name)
  if (!ctx.net.carriesUdp) throw new ToolStartError(`the ${ctx.net.kind} egress cannot carry UDP`)
  let address: string
  try {
    address = await resolveHost(ctx.net, host)
  } catch (e) {
    throw new TargetUnreachableError(`cannot resolve ${host}: ${(e as Error).message}`)
  }
  setMaxListeners(256, ctx.signal) // one abort listener per in-flight query/socket
  const { timeout_ms: timeoutMs, retries } = ctx.params
  ctx.log(
    `UDP scan of ${host}${address !== host ? ` (${address})` : ''}: ${plan.ports.length} ports, timeout ${timeoutMs} ms, ${retries} retries`,
  )
  let done = 0
  const total = plan.ports.length + udpServiceTests.length
  const scan: Scan = { host, address, rows: [], hits: new Map(), progress: () => ctx.progress(++done, total) }
  await discover(ctx, scan, plan.ports)
  await followUps(ctx, scan)
  await serviceChecks(ctx, scan)
  await versions(ctx, scan)
}

async function discover(ctx: Ctx, scan: Scan, ports: readonly number[]): Promise<void> {
  const { signal } = ctx
  const { timeout_ms: timeoutMs, retries } = ctx.params
  const discovery = await ctx.test(
    'UDP port discovery',
    `Sent protocol-specific UDP probes to ${ports.length} ports of ${scan.host} through connected sockets ` +
      `(ICMP port unreachable → closed, reply → open, silence after ${retries + 1} attempts → open|filtered).`,
  )
  const rtt = new RttTracker(timeoutMs)
  const limit = concurrencyFor(ports.length)
  await scanBudget(ctx, { total: limit, perHost: limit }).each(ports, { limit, host: scan.address, signal }, async (port) => {
    const probe = probeFor(port)
    const ex = await exchange(ctx.net, scan.address, port, probe.payloads, {
      timeoutMs: rtt.wait,
      onRtt: rtt.record,
      retries,
      signal,
      anySourcePort: probe.anySourcePort ?? false,
    })
    if (ex.reason === 'aborted') return
    const facts = classify(port, ex)
    scan.rows.push(facts.row)
    if (facts.hits.length) scan.hits.set(port, facts.hits)
    if (facts.row.state === 'open') ctx.log(`${port}/udp open ${facts.row.service}${facts.row.banner ? ` — ${facts.row.banner}` : ''}`)
    scan.progress()
  })
  const rows = scan.rows.sort((a, b) => a.port - b.port)
  if (rows.length > 0 && rows.every((r) => r.state === 'filtered')) {
    const message = `${scan.host} is unreachable: every probe got an ICMP host or network unreachable error`
    await discovery.error(message)
    throw new TargetUnreachableError(message)
  }
  const count = (s: PortRow['state']) => countState(rows, s)
  ctx.log(
    `discovery: ${rows.length}/${ports.length} ports probed — ${count('open')} open, ` +
      `${count('open|filtered')} open|filtered, ${count('closed')} closed, ${count('filtered')} filtered`,
  )
  outputPorts(ctx, rows)
  for (const row of rows.filter((r) => r.state === 'open')) {
    const open = scan.hits.get(row.port)!.find((h) => h.check === udpOpenPort)!
    await discovery.finding({
      check: udpOpenPort,
      detail: open.detail,
      port: row.port,
      protocol: 'udp',
      service: row.service,
      evidence: row.banner ? textEvidence(row.banner) : undefined,
    })
  }
  if (signal.aborted && rows.length < ports.length) await discovery.error(`stopped before completion (${reasonOf(signal)})`)
  else await discovery.done()
  // open|filtered may be a silent service: a finding there stays unless its test ran again.
  ctx.cover({
    protocol: 'udp',
    probed: rows.map((r) => r.port),
    open: rows.filter((r) => r.state === 'open' || r.state === 'open|filtered').map((r) => r.port),
  })
}

/**
 * Follow-ups on open services (recursion, NTP control/monlist), in parallel, with the full timeout:
 * a resolver that recurses answers much later than an ICMP error arrives.
 */
async function followUps(ctx: Ctx, scan: Scan): Promise<void> {
  const { timeout_ms: timeoutMs, retries } = ctx.params
  const all = scan.rows.flatMap((row) => followUpsFor(row).map((f) => ({ row, f })))
  await scanBudget(ctx).each(all, { limit: FOLLOW_UPS_AT_ONCE, host: scan.address, signal: ctx.signal }, async ({ row, f }) => {
    const ex = await exchange(ctx.net, scan.address, row.port, f.payloads, { timeoutMs, retries, signal: ctx.signal })
    if (ex.reason === 'aborted') return
    const detail = ex.state === 'open' && ex.reply ? f.confirm(ex.reply, ex.sent) : null
    ctx.log(`${row.port}/udp ${f.id}: ${detail ?? 'not answered'}`)
    if (detail) scan.hits.set(row.port, [...(scan.hits.get(row.port) ?? []), { check: f.check, detail }])
  })
}

/** One test per service check; what was proven is kept even when the scan was stopped. */
async function serviceChecks(ctx: Ctx, scan: Scan): Promise<void> {
  for (const sc of udpServiceTests) {
    const t = await ctx.test(sc.test, `${sc.check.name}: checked on every open ${sc.service} port found.`)
    const applicable = scan.rows.filter((r) => r.state === 'open' && r.service === sc.service)
    for (const row of applicable)
      for (const h of scan.hits.get(row.port) ?? [])
        if (h.check === sc.check)
          await t.finding({
            check: h.check,
            detail: h.detail,
            port: row.port,
            protocol: 'udp',
            service: row.service,
            evidence: textEvidence(h.detail ?? ''),
            confirmed: true,
          })
    if (ctx.signal.aborted) await t.error(`stopped before this check completed (${reasonOf(ctx.signal)})`)
    else if (applicable.length === 0) await t.skip(`no open ${sc.service} port found`)
    else await t.done()
    scan.progress()
  }
}

/** Versions the replies named (BIND's version.bind, memcached's stats) → the version catalogue and imported CVEs. */
async function versions(ctx: Ctx, scan: Scan): Promise<void> {
  const t = await ctx.test(
    'Known vulnerabilities by version',
    'Matches the product versions the UDP replies named (DNS version.bind, memcached stats) against the ' +
      'version catalogue (CVEs, end of life) and imported NVD CVEs.',
  )
  for (const row of scan.rows) {
    if (row.state !== 'open' || !row.product || !row.version) continue
    for (const f of await portVersionFindings(
      row.port,
      row.service,
      productsOfService({ product: row.product, version: row.version, banner: null }),
      ctx.vulns,
      'udp',
    ))
      await t.finding(f)
  }
  await t.done()
}

const reasonOf = (signal: AbortSignal) => (signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'aborted'))

export const udpScanner = defineTool(udpScannerManifest, withPortPlan(UDP_PORTS, runUdpScan))
