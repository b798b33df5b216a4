// `npm run bench -- port-scan [--runs N] [--detect]` (--detect: only the peak memory of a full-range scan with service detection): in a fresh network namespace, open the TCP test bed on one
// address and time a full 1-65535 connect scan by Ward and by `nmap -n -sT -p- -T4` (when installed),
// alternating, N runs each. Prints both median times, their ratio, and whether the open-port sets match.
import { spawn, spawnSync } from 'node:child_process'
import { cpus, loadavg, totalmem } from 'node:os'
import { createDirectEgress } from '../src/engine/net/direct.js'
import { discoverTcpPorts } from '../src/tools/lib/ports/scan.js'
import { portScanner } from '../src/tools/port-scanner/index.js'
import { ALL_SERVICES, startTcpServices, type ServiceSpec } from '../test/testbed/tcp-services.js'
import { callInNetns, netnsUnavailable, withNetns } from '../test/helpers/netns.js'
import { runTool } from '../test/helpers/tool-harness.js'

export const BENCH_ADDRESS = '127.0.1.10'

/** The test bed used inside the namespace: every service on its standard port, plus a few elsewhere. */
export const NETNS_BED: ServiceSpec[] = [
  ...ALL_SERVICES.map((service) => ({ service })),
  { service: 'ssh', port: 2222 },
  { service: 'http', port: 8081 },
  { service: 'redis', port: 16379, auth: true },
  { service: 'http', port: 61234 },
]

export interface ScanTestBedOptions {
  address?: string
  /** Times each scanner is run (alternating). */
  runs?: number
  nmap?: boolean
  /** Also run the whole tool (ports "all", service detection on) once and return its ports output and findings. */
  tool?: boolean
}

export interface ScanTestBedResult {
  address: string
  expected: Array<{ port: number; service: string }>
  ward: { ms: number[]; open: number[] }
  nmap: { ms: number[]; open: number[] } | null
  tool?: { ms: number; ports: unknown; vulnIds: string[]; logs: number; error?: string; rssBeforeMb: number; peakRssMb: number }
}

/** Runs INSIDE a namespace (through callInNetns): test bed + full scans in this one process. */
export async function scanTestBed(o: ScanTestBedOptions = {}): Promise<ScanTestBedResult> {
  const address = o.address ?? BENCH_ADDRESS
  const bed = await startTcpServices(address, NETNS_BED)
  const egress = createDirectEgress()
  const all = Array.from({ length: 65535 }, (_, i) => i + 1)
  const result: ScanTestBedResult = {
    address,
    expected: bed.ports.map((p) => ({ port: p.port, service: p.service })).sort((a, b) => a.port - b.port),
    ward: { ms: [], open: [] },
    nmap: o.nmap ? { ms: [], open: [] } : null,
  }
  try {
    for (let i = 0; i < (o.runs ?? 1); i++) {
      const t0 = performance.now()
      const states = await discoverTcpPorts(egress, address, all, { signal: new AbortController().signal })
      result.ward.ms.push(Math.round(performance.now() - t0))
      result.ward.open = states.filter((s) => s.state === 'open').map((s) => s.port)
      if (result.nmap) {
        const r = await nmapScan(address)
        result.nmap.ms.push(r.ms)
        result.nmap.open = r.open
      }
    }
    if (o.tool) {
      // Peak RSS of this process (scanner and the small bed together): the kernel's high-water mark.
      const rssBeforeMb = Math.round(process.memoryUsage().rss / 2 ** 20)
      const r = await runTool(portScanner, { target: address, params: { ports: 'all' }, egress })
      result.tool = {
        ms: Math.round(r.elapsedMs),
        ports: r.output.ports,
        vulnIds: [...new Set(r.findings.map((f) => f.check.id))].sort(),
        logs: r.logs.length,
        error: r.error?.message,
        rssBeforeMb,
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      }
    }
  } finally {
    await egress.close()
    await bed.close()
  }
  return result
}

// ---- other in-namespace scenarios of test/tools/port-scanner/port-scanner.test.ts (they need the whole port range)

/** Full scan through the tool, aborted after `afterMs`: how fast it returned and what it kept. */
export async function abortFullScan(o: { address?: string; afterMs: number }) {
  const address = o.address ?? BENCH_ADDRESS
  const bed = await startTcpServices(address, ['ssh', 'http'])
  try {
    const ac = new AbortController()
    // Slow the scan down (few connects in flight) so that it is surely still running at `afterMs`.
    const run = runTool(portScanner, { target: address, params: { ports: 'all', concurrency: 2 }, signal: ac.signal })
    await new Promise((r) => setTimeout(r, o.afterMs))
    const abortedAt = performance.now()
    ac.abort(new Error('stop requested'))
    const r = await run
    return {
      returnedMs: Math.round(performance.now() - abortedAt),
      error: r.error?.message ?? null,
      discovery: r.tests.find((t) => t.name === 'Port discovery') ?? null,
      ports: r.output.ports ?? null,
      logs: r.logs,
    }
  } finally {
    await bed.close()
  }
}

/** The tool against the name `localhost` (resolved once, then pinned), with a listener on 127.0.0.1. */
export async function localhostScan() {
  const bed = await startTcpServices('127.0.0.1', [{ service: 'ssh', port: 2222 }])
  try {
    const r = await runTool(portScanner, { target: 'localhost', params: { ports: '1,2222,3000' } })
    return { error: r.error?.message ?? null, ports: r.output.ports, summary: r.output.ports_summary }
  } finally {
    await bed.close()
  }
}

/** The tool against an address with no route (a namespace has only lo): the error it ends with. */
export async function unreachableScan(o: { target: string }) {
  const r = await runTool(portScanner, { target: o.target, params: { ports: 'top100' } })
  return { errorName: r.error?.name ?? null, error: r.error?.message ?? null, tests: r.tests.map((t) => ({ name: t.name, status: t.status })) }
}

/**
 * A firewall made with tc inside the namespace (this kernel has no netfilter or netem): packets to the
 * dropped ports go to a class whose queue holds nothing, like a DROP rule. `drop: 'all-but-open'` drops
 * every port but the test bed's (a typical internet host). Scans ports 1..`upTo`; returns states and time.
 */
export async function firewalledScan(o: { drop: number[] | 'all-but-open'; upTo: number; address?: string; timeoutMs?: number; nmap?: boolean }) {
  const address = o.address ?? BENCH_ADDRESS
  const bed = await startTcpServices(address, ['ssh', 'http', { service: 'redis', port: o.upTo - 1 }])
  const tc = (...a: string[]) => {
    const r = spawnSync('tc', a, { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`tc ${a.join(' ')}: ${r.stderr}`)
  }
  const pass = '1:10'
  const drop = '1:20'
  const allButOpen = o.drop === 'all-but-open'
  tc('qdisc', 'add', 'dev', 'lo', 'root', 'handle', '1:', 'htb', 'default', allButOpen ? '20' : '10', 'r2q', '1000000')
  tc('class', 'add', 'dev', 'lo', 'parent', '1:', 'classid', pass, 'htb', 'rate', '10gbit')
  tc('class', 'add', 'dev', 'lo', 'parent', '1:', 'classid', drop, 'htb', 'rate', '10gbit')
  tc('qdisc', 'add', 'dev', 'lo', 'parent', drop, 'handle', '20:', 'pfifo', 'limit', '0')
  const filter = (dir: 'dport' | 'sport', port: number, flow: string) =>
    tc('filter', 'add', 'dev', 'lo', 'parent', '1:', 'protocol', 'ip', 'prio', '1', 'u32', 'match', 'ip', dir, String(port), '0xffff', 'flowid', flow)
  if (allButOpen) for (const p of bed.ports) filter('dport', p.port, pass), filter('sport', p.port, pass)
  else for (const p of o.drop as number[]) filter('dport', p, drop)
  const egress = createDirectEgress()
  try {
    const ports = Array.from({ length: o.upTo }, (_, i) => i + 1)
    const t0 = performance.now()
    const states = await discoverTcpPorts(egress, address, ports, { signal: new AbortController().signal, timeoutMs: o.timeoutMs })
    const ms = Math.round(performance.now() - t0)
    return {
      ms,
      nmap: o.nmap ? await nmapScan(address, `1-${o.upTo}`) : null,
      expectedOpen: bed.ports.map((p) => p.port).sort((a, b) => a - b),
      open: states.filter((s) => s.state === 'open').map((s) => s.port),
      filtered: allButOpen ? states.filter((s) => s.state === 'filtered').length : states.filter((s) => s.state === 'filtered').map((s) => s.port),
      closed: states.filter((s) => s.state === 'closed').length,
    }
  } finally {
    await egress.close()
    await bed.close()
    spawnSync('tc', ['qdisc', 'del', 'dev', 'lo', 'root'])
  }
}

async function nmapScan(address: string, range = '-'): Promise<{ ms: number; open: number[] }> {
  const t0 = performance.now()
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('nmap', ['-n', '-sT', `-p${range}`, '-T4', '-oG', '-', address], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`nmap exited with ${code}`))))
  })
  const ms = Math.round(performance.now() - t0)
  const ports = /Ports: ([^\t\n]*)/.exec(out)?.[1] ?? ''
  const open = [...ports.matchAll(/(\d+)\/open\/tcp/g)].map((m) => Number(m[1])).sort((a, b) => a - b)
  return { ms, open }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN
}

export async function run(args: string[]): Promise<void> {
  const runsArg = args.indexOf('--runs')
  const runs = runsArg >= 0 ? Math.max(1, Number(args[runsArg + 1]) || 3) : 3
  const why = netnsUnavailable()
  if (why) {
    console.log(`port-scan benchmark skipped: ${why}`)
    return
  }
  const hasNmap = spawnSync('nmap', ['--version']).status === 0
  if (args.includes('--detect')) {
    // Memory of a full-range scan with service detection (tool 70, ports "all"), in a namespace.
    const d = await withNetns('bench-pd', (ns) => callInNetns<ScanTestBedResult>(ns, 'bench/port-scan.ts', 'scanTestBed', [{ runs: 0, tool: true }], { timeoutMs: 10 * 60_000 }))
    const t = d.tool!
    console.log(`full-range scan with service detection (tool 70, ports all, ${d.expected.length} open on the bed): ${t.ms} ms, ${(t.ports as unknown[]).length} open ports reported, peak RSS ${t.peakRssMb} MB (before the scan ${t.rssBeforeMb} MB; goal ≤ 200 MB)${t.error ? `, error: ${t.error}` : ''}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
    return
  }
  console.log(`port-scan benchmark: ${new Date().toISOString()}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 20)} MiB RAM, node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  console.log(`full 1-65535 TCP connect scan of ${BENCH_ADDRESS} in a private network namespace, ${runs} run(s) each${hasNmap ? '' : ' (nmap not installed)'}`)
  const r = await withNetns('bench-ps', (ns) => callInNetns<ScanTestBedResult>(ns, 'bench/port-scan.ts', 'scanTestBed', [{ runs, nmap: hasNmap }], { timeoutMs: 10 * 60_000 }))
  const expected = r.expected.map((p) => p.port)
  const same = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i])
  console.log(`test bed open ports (${expected.length}): ${expected.join(',')}`)
  console.log(`ward : median ${median(r.ward.ms)} ms (runs ${r.ward.ms.join(', ')} ms), ${r.ward.open.length} open, matches test bed: ${same(r.ward.open, expected)}`)
  if (r.nmap) {
    console.log(`nmap : median ${median(r.nmap.ms)} ms (runs ${r.nmap.ms.join(', ')} ms), ${r.nmap.open.length} open, matches test bed: ${same(r.nmap.open, expected)}`)
    console.log(`ratio ward/nmap: ${(median(r.ward.ms) / median(r.nmap.ms)).toFixed(2)}; open-port sets identical: ${same(r.ward.open, r.nmap.open)}`)
  }
  // A host behind a firewall that drops every port but the open ones: here timing, not the CPU, decides.
  const upTo = 5000
  const fw = await withNetns('bench-fw', (ns) =>
    callInNetns<Awaited<ReturnType<typeof firewalledScan>>>(ns, 'bench/port-scan.ts', 'firewalledScan', [{ drop: 'all-but-open', upTo, nmap: hasNmap }], { timeoutMs: 10 * 60_000 }),
  )
  console.log(`firewalled host (every port but ${fw.expectedOpen.join(',')} dropped), ports 1-${upTo}:`)
  console.log(`ward : ${fw.ms} ms, open ${fw.open.join(',')}, ${fw.filtered} filtered, matches: ${same(fw.open, fw.expectedOpen)}`)
  if (fw.nmap) {
    console.log(`nmap : ${fw.nmap.ms} ms, open ${fw.nmap.open.join(',')}, matches: ${same(fw.nmap.open, fw.expectedOpen)}`)
    console.log(`ratio ward/nmap: ${(fw.ms / fw.nmap.ms).toFixed(2)}`)
  }
}
