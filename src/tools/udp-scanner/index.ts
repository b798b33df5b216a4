// Tool 80, UDP Port Scanner: protocol probes through connected UDP sockets → open / closed /
// open|filtered, then follow-up probes of risky features on the services found open.
import { setMaxListeners } from 'node:events'
import { defineTool, type ScanContext, type TestHandle } from '../../toolkit/tool.js'
import { udpScannerManifest } from './manifest.js'
import { TargetUnreachableError, ToolStartError } from '../../toolkit/errors.js'
import { targetHost } from '../../toolkit/ip.js'
import type { Check } from '../../toolkit/check.js'
import {
  udpDnsOpenResolver, udpDnsVersionDisclosure, udpMemcachedExposed, udpNetbiosExposed, udpNtpMode6, udpNtpMonlist,
  udpOpenPort, udpSnmpPublic, udpSsdpExposed, udpTftpExposed,
} from './checks.js'
import { UDP_PORTS } from './ports.js'
import { withPortPlan } from '../../toolkit/ports.js'
import { exchange, resolveHost, RttTracker } from './scan.js'
import { mapLimit } from '../../toolkit/limit.js'
import { classify, followUpsFor, type PortRow } from './detect.js'
import { probeFor, type Hit } from './probes.js'
import { textEvidence } from '../../toolkit/evidence.js'
import { productsOfService } from '../lib/versions/fingerprint.js'
import { portVersionFindings } from '../lib/versions/report.js'

import { udpScannerParams } from './params.js'
export { udpScannerParams }

/** Sockets in flight: silent (filtered) hosts cost timeout × attempts per port, so long lists get more. */
const concurrencyFor = (ports: number) => (ports > 1000 ? 128 : 32)
/** Beyond this many open|filtered ports (a firewalled host), they are counted, not listed. */
const MAX_LISTED_OPEN_FILTERED = 1000

/** Each service check, the service it applies to, and the test recorded for it. */
const SERVICE_CHECKS: ReadonlyArray<{ check: Check; service: string; test: string }> = [
  { check: udpDnsOpenResolver, service: 'domain', test: 'DNS recursion for outside clients' },
  { check: udpDnsVersionDisclosure, service: 'domain', test: 'DNS version.bind disclosure' },
  { check: udpNtpMode6, service: 'ntp', test: 'NTP mode 6 control queries' },
  { check: udpNtpMonlist, service: 'ntp', test: 'NTP monlist (CVE-2013-5211)' },
  { check: udpSnmpPublic, service: 'snmp', test: 'SNMP default community "public"' },
  { check: udpSsdpExposed, service: 'ssdp', test: 'SSDP exposure' },
  { check: udpMemcachedExposed, service: 'memcache', test: 'memcached over UDP' },
  { check: udpNetbiosExposed, service: 'netbios-ns', test: 'NetBIOS node status exposure' },
  { check: udpTftpExposed, service: 'tftp', test: 'TFTP exposure' },
]

export const udpScanner = defineTool(udpScannerManifest, withPortPlan(UDP_PORTS, async (ctx, plan) => {
  const host = targetHost(ctx.target.name)
  const ports = plan.ports
  if (!ctx.net.carriesUdp) throw new ToolStartError(`the ${ctx.net.kind} egress cannot carry UDP`)
  let address: string
  try {
    address = await resolveHost(ctx.net, host)
  } catch (e) {
    throw new TargetUnreachableError(`cannot resolve ${host}: ${(e as Error).message}`)
  }
  const { timeout_ms: timeoutMs, retries } = ctx.params
  const signal = ctx.signal
  setMaxListeners(256, signal) // one abort listener per in-flight query/socket
  ctx.log(`UDP scan of ${host}${address !== host ? ` (${address})` : ''}: ${ports.length} ports, timeout ${timeoutMs} ms, ${retries} retries`)

  // Discovery.
  const discovery = await ctx.test('UDP port discovery', `Sent protocol-specific UDP probes to ${ports.length} ports of ${host} through connected sockets (ICMP port unreachable → closed, reply → open, silence after ${retries + 1} attempts → open|filtered).`)
  const rows: PortRow[] = []
  const hits = new Map<number, Hit[]>()
  const total = ports.length + SERVICE_CHECKS.length
  let done = 0
  const rtt = new RttTracker(timeoutMs)
  await mapLimit(ports, concurrencyFor(ports.length), signal, async (port) => {
    const ex = await exchange(ctx.net, address, port, probePayloads(port), { timeoutMs: rtt.wait, onRtt: rtt.record, retries, signal, anySourcePort: probeAnyPort(port) })
    if (ex.reason === 'aborted') return
    const facts = classify(port, ex)
    rows.push(facts.row)
    if (facts.hits.length) hits.set(port, facts.hits)
    if (facts.row.state === 'open') ctx.log(`${port}/udp open ${facts.row.service}${facts.row.banner ? ` — ${facts.row.banner}` : ''}`)
    ctx.progress(++done, total)
  })
  rows.sort((a, b) => a.port - b.port)
  if (rows.length > 0 && rows.every((r) => r.state === 'filtered')) {
    const message = `${host} is unreachable: every probe got an ICMP host or network unreachable error`
    await discovery.error(message)
    throw new TargetUnreachableError(message)
  }
  const count = (s: PortRow['state']) => rows.filter((r) => r.state === s).length
  ctx.log(`discovery: ${rows.length}/${ports.length} ports probed — ${count('open')} open, ${count('open|filtered')} open|filtered, ${count('closed')} closed, ${count('filtered')} filtered`)
  const listFiltered = count('open|filtered') + count('filtered') <= MAX_LISTED_OPEN_FILTERED
  ctx.output('ports', rows.filter((r) => r.state === 'open' || (listFiltered && r.state !== 'closed')))
  ctx.output('ports_summary', {
    scanned: rows.length,
    open: count('open'),
    open_filtered: count('open|filtered'),
    closed: count('closed'),
    filtered: count('filtered'),
    unlisted_open_filtered: !listFiltered,
  })

  for (const row of rows.filter((r) => r.state === 'open')) {
    const open = hits.get(row.port)!.find((h) => h.check === udpOpenPort)!
    await discovery.finding({ check: udpOpenPort, detail: open.detail, port: row.port, protocol: 'udp', service: row.service, evidence: row.banner ? textEvidence(row.banner) : undefined })
  }
  await finish(discovery, signal, rows.length < ports.length)
  // open|filtered may be a silent service: a finding there stays unless its test ran again.
  ctx.cover({ protocol: 'udp', probed: rows.map((r) => r.port), open: rows.filter((r) => r.state === 'open' || r.state === 'open|filtered').map((r) => r.port) })

  // Follow-ups on open services (recursion, NTP control/monlist), in parallel, with the full timeout:
  // a resolver that recurses answers much later than an ICMP error arrives.
  const followUps = rows.flatMap((row) => followUpsFor(row).map((f) => ({ row, f })))
  await mapLimit(followUps, 8, signal, async ({ row, f }) => {
    const ex = await exchange(ctx.net, address, row.port, f.payloads, { timeoutMs, retries, signal })
    if (ex.reason === 'aborted') return
    const detail = ex.state === 'open' && ex.reply ? f.confirm(ex.reply, ex.sent) : null
    ctx.log(`${row.port}/udp ${f.id}: ${detail ?? 'not answered'}`)
    if (detail) hits.set(row.port, [...(hits.get(row.port) ?? []), { check: f.check, detail }])
  })

  // One test per service check; what was proven is kept even when the scan was stopped.
  for (const sc of SERVICE_CHECKS) {
    const t = await ctx.test(sc.test, `${sc.check.name}: checked on every open ${sc.service} port found.`)
    const applicable = rows.filter((r) => r.state === 'open' && r.service === sc.service)
    for (const row of applicable) {
      for (const h of hits.get(row.port) ?? []) {
        if (h.check !== sc.check) continue
        await t.finding({ check: h.check, detail: h.detail, port: row.port, protocol: 'udp', service: row.service, evidence: textEvidence(h.detail ?? ''), confirmed: true })
      }
    }
    if (signal.aborted) await t.error(`stopped before this check completed (${reasonOf(signal)})`)
    else if (applicable.length === 0) await t.skip(`no open ${sc.service} port found`)
    else await t.done()
    ctx.progress(++done, total)
  }

  // Versions the replies named (BIND's version.bind, memcached's stats) → the version catalogue and imported CVEs.
  const versions = await ctx.test('Known vulnerabilities by version', 'Matches the product versions the UDP replies named (DNS version.bind, memcached stats) against the version catalogue (CVEs, end of life) and imported NVD CVEs.')
  for (const row of rows) {
    if (row.state !== 'open' || !row.product || !row.version) continue
    for (const f of await portVersionFindings(row.port, row.service, productsOfService({ product: row.product, version: row.version, banner: null }), ctx.vulns, 'udp')) await versions.finding(f)
  }
  await versions.done()
}))

async function finish(t: TestHandle, signal: AbortSignal, partial: boolean) {
  if (signal.aborted && partial) await t.error(`stopped before completion (${reasonOf(signal)})`)
  else await t.done()
}

const reasonOf = (signal: AbortSignal) => (signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'aborted'))
const probePayloads = (port: number) => probeFor(port).payloads
const probeAnyPort = (port: number) => probeFor(port).anySourcePort ?? false

export type UdpScannerContext = ScanContext<typeof udpScannerParams.static>
