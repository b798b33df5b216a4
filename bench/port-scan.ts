// `npm run bench -- port-scan [--runs N] [--detect]` (--detect: only the peak memory of a full-range scan with service detection): in a fresh network namespace, open the TCP test bed on one
// address and time a full 1-65535 connect scan by Ward and by `nmap -n -sT -p- -T4` (when installed),
// alternating, N runs each. Prints both median times, their ratio, and whether the open-port sets match.
import { spawn, spawnSync } from 'node:child_process'
import { createServer, type Server as NetServer } from 'node:net'
import { cpus, loadavg, totalmem } from 'node:os'
import { createDirectEgress } from '../src/engine/net/direct.js'
import { discoverTcpPorts, type ScanMethod } from '../src/tools/lib/ports/scan.js'
import { TOP_1000 } from '../src/tools/lib/ports/top-ports.js'
import { portScanner } from '../src/tools/port-scanner/run.js'
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
  /** Also time Ward's TCP connect scan (the fallback without CAP_NET_RAW) and nmap's SYN scan. */
  methods?: boolean
  /** Also run the whole tool (ports "all", service detection on) once and return its ports output and findings. */
  tool?: boolean
}

export interface ScanTestBedResult {
  address: string
  expected: Array<{ port: number; service: string }>
  /** Ward's default (SYN where permitted): wall time, CPU of the process (all threads), open ports. */
  ward: { ms: number[]; cpuMs: number[]; open: number[]; method: string }
  connect: { ms: number[]; cpuMs: number[]; open: number[] } | null
  nmap: { ms: number[]; open: number[] } | null
  nmapSyn: { ms: number[]; open: number[] } | null
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
    ward: { ms: [], cpuMs: [], open: [], method: 'none' },
    connect: o.methods ? { ms: [], cpuMs: [], open: [] } : null,
    nmap: o.nmap ? { ms: [], open: [] } : null,
    nmapSyn: o.nmap && o.methods ? { ms: [], open: [] } : null,
  }
  const timed = async (into: { ms: number[]; cpuMs: number[]; open: number[] }, method: ScanMethod) => {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    const states = await discoverTcpPorts(egress, address, all, {
      signal: new AbortController().signal,
      method,
      onMethod: (m) => method === 'auto' && (result.ward.method = m),
    })
    into.ms.push(Math.round(performance.now() - t0))
    const c = process.cpuUsage(c0)
    into.cpuMs.push(Math.round((c.user + c.system) / 1000))
    into.open = states.filter((s) => s.state === 'open').map((s) => s.port)
  }
  try {
    for (let i = 0; i < (o.runs ?? 1); i++) {
      await timed(result.ward, 'auto')
      if (result.nmap) {
        const r = await nmapScan(address)
        result.nmap.ms.push(r.ms)
        result.nmap.open = r.open
      }
      if (result.connect) await timed(result.connect, 'connect')
      if (result.nmapSyn) {
        const r = await nmapScan(address, '-', '-sS')
        result.nmapSyn.ms.push(r.ms)
        result.nmapSyn.open = r.open
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

/** The tool against a small bed on `address` with `params`: what it reports (for SYN/connect fallbacks and refusals). */
export async function toolScan(o: { address: string; services: ServiceSpec[]; target?: string; params: Record<string, unknown> }) {
  const bed = await startTcpServices(o.address, o.services)
  try {
    const r = await runTool(portScanner, { target: o.target ?? o.address, params: o.params })
    return {
      errorName: r.error?.name ?? null,
      error: r.error?.message ?? null,
      ports: ((r.output.ports ?? []) as Array<{ port: number }>).map((p) => p.port),
      summary: r.output.ports_summary ?? null,
      logs: r.logs,
      bedPorts: bed.ports.map((p) => p.port).sort((a, b) => a - b),
      elapsedMs: Math.round(r.elapsedMs),
    }
  } finally {
    await bed.close()
  }
}

// ---- other in-namespace scenarios of test/tools/port-scanner/port-scanner.test.ts (they need the whole port range)

/** Full scan through the tool, aborted after `afterMs`: how fast it returned and what it kept. */
export async function abortFullScan(o: { address?: string; afterMs: number; method?: ScanMethod }) {
  const address = o.address ?? BENCH_ADDRESS
  const bed = await startTcpServices(address, ['ssh', 'http'])
  try {
    const ac = new AbortController()
    // Slow the scan down (few connects in flight) so that it is surely still running at `afterMs`.
    const run = runTool(portScanner, {
      target: address,
      params: { ports: 'all', concurrency: o.method === 'syn' ? 1 : 2, scan_method: o.method ?? 'connect' },
      signal: ac.signal,
    })
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
  return {
    errorName: r.error?.name ?? null,
    error: r.error?.message ?? null,
    tests: r.tests.map((t) => ({ name: t.name, status: t.status })),
  }
}

/**
 * A firewall made with tc inside the namespace (this kernel has no netfilter or netem): packets to the
 * dropped ports go to a class whose queue holds nothing, like a DROP rule. `drop: 'all-but-open'` drops
 * every port but the test bed's (a typical internet host). Scans ports 1..`upTo`; returns states and time.
 */
export async function firewalledScan(o: {
  drop: number[] | 'all-but-open'
  upTo: number
  address?: string
  timeoutMs?: number
  nmap?: boolean
  method?: ScanMethod
}) {
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
    tc(
      'filter',
      'add',
      'dev',
      'lo',
      'parent',
      '1:',
      'protocol',
      'ip',
      'prio',
      '1',
      'u32',
      'match',
      'ip',
      dir,
      String(port),
      '0xffff',
      'flowid',
      flow,
    )
  if (allButOpen) for (const p of bed.ports) filter('dport', p.port, pass), filter('sport', p.port, pass)
  else for (const p of o.drop as number[]) filter('dport', p, drop)
  const egress = createDirectEgress()
  try {
    const ports = Array.from({ length: o.upTo }, (_, i) => i + 1)
    const t0 = performance.now()
    let method = ''
    const states = await discoverTcpPorts(egress, address, ports, {
      signal: new AbortController().signal,
      timeoutMs: o.timeoutMs,
      method: o.method,
      onMethod: (m) => (method = m),
    })
    const ms = Math.round(performance.now() - t0)
    return {
      ms,
      method,
      nmap: o.nmap ? await nmapScan(address, `1-${o.upTo}`) : null,
      expectedOpen: bed.ports.map((p) => p.port).sort((a, b) => a - b),
      open: states.filter((s) => s.state === 'open').map((s) => s.port),
      filtered: allButOpen
        ? states.filter((s) => s.state === 'filtered').length
        : states.filter((s) => s.state === 'filtered').map((s) => s.port),
      closed: states.filter((s) => s.state === 'closed').length,
    }
  } finally {
    await egress.close()
    await bed.close()
    spawnSync('tc', ['qdisc', 'del', 'dev', 'lo', 'root'])
  }
}

/**
 * Scaling over many hosts: listeners on 0.0.0.0 inside the namespace answer on every 127.0.5.x, and
 * the first n addresses of 127.0.5.0/24 are scanned (TOP_1000 each, `parallel` hosts at a time, as a
 * worker runs several scans), for each n of `counts`; nmap scans the same range and ports.
 */
export async function subnetScan(o: { counts: number[]; parallel?: number; nmap?: boolean }) {
  const open = [22, 80, 443, 3306, 8080]
  const servers = await Promise.all(
    open.map(
      (port) =>
        new Promise<NetServer>((resolve, reject) => {
          const srv = createServer((c) => c.destroy()).once('error', reject)
          srv.listen(port, '0.0.0.0', () => resolve(srv))
        }),
    ),
  )
  const egress = createDirectEgress()
  const rows: Array<{
    hosts: number
    wardMs: number
    wardCpuMs: number
    method: string
    allFound: boolean
    nmapMs: number | null
    nmapAllFound: boolean | null
  }> = []
  try {
    for (const n of o.counts) {
      const hosts = Array.from({ length: n }, (_, i) => `127.0.5.${i}`)
      let next = 0
      let found = 0
      let method = ''
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      await Promise.all(
        Array.from({ length: Math.min(o.parallel ?? 8, n) }, async () => {
          while (next < hosts.length) {
            const h = hosts[next++]
            const states = await discoverTcpPorts(egress, h, [...TOP_1000], {
              signal: new AbortController().signal,
              onMethod: (m) => (method = m),
            })
            found += states.filter((x) => x.state === 'open').length
          }
        }),
      )
      const wardMs = Math.round(performance.now() - t0)
      const c = process.cpuUsage(c0)
      let nmapMs: number | null = null
      let nmapAllFound: boolean | null = null
      if (o.nmap) {
        const t1 = performance.now()
        const r = spawnSync('nmap', ['-n', '-sT', '-T4', `-p${TOP_1000.join(',')}`, '-oG', '-', `127.0.5.0-${n - 1}`], {
          encoding: 'utf8',
          maxBuffer: 64 << 20,
        })
        nmapMs = Math.round(performance.now() - t1)
        nmapAllFound = [...r.stdout.matchAll(/\d+\/open\/tcp/g)].length === n * open.length
      }
      rows.push({
        hosts: n,
        wardMs,
        wardCpuMs: Math.round((c.user + c.system) / 1000),
        method,
        allFound: found === n * open.length,
        nmapMs,
        nmapAllFound,
      })
    }
  } finally {
    await egress.close()
    for (const srv of servers) srv.close()
  }
  return rows
}

async function nmapScan(address: string, range = '-', type = '-sT'): Promise<{ ms: number; open: number[] }> {
  const t0 = performance.now()
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('nmap', ['-n', type, `-p${range}`, '-T4', '-oG', '-', address], { stdio: ['ignore', 'pipe', 'pipe'] })
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
    const d = await withNetns('bench-pd', (ns) =>
      callInNetns<ScanTestBedResult>(ns, 'bench/port-scan.ts', 'scanTestBed', [{ runs: 0, tool: true }], { timeoutMs: 10 * 60_000 }),
    )
    const t = d.tool!
    console.log(
      `full-range scan with service detection (tool 70, ports all, ${d.expected.length} open on the bed): ${t.ms} ms, ${(t.ports as unknown[]).length} open ports reported, peak RSS ${t.peakRssMb} MB (before the scan ${t.rssBeforeMb} MB; goal ≤ 200 MB)${t.error ? `, error: ${t.error}` : ''}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    )
    return
  }
  console.log(
    `port-scan benchmark: ${new Date().toISOString()}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 20)} MiB RAM, node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  console.log(
    `full 1-65535 TCP scan of ${BENCH_ADDRESS} in a private network namespace, ${runs} run(s) each, alternating${hasNmap ? '' : ' (nmap not installed: no ratio)'}`,
  )
  const r = await withNetns('bench-ps', (ns) =>
    callInNetns<ScanTestBedResult>(ns, 'bench/port-scan.ts', 'scanTestBed', [{ runs, nmap: hasNmap, methods: true }], {
      timeoutMs: 10 * 60_000,
    }),
  )
  const expected = r.expected.map((p) => p.port)
  const same = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i])
  console.log(`test bed open ports (${expected.length}): ${expected.join(',')}`)
  console.log(
    `ward (${r.ward.method})    : median ${median(r.ward.ms)} ms (runs ${r.ward.ms.join(', ')} ms), CPU median ${median(r.ward.cpuMs)} ms, ${r.ward.open.length} open, matches test bed: ${same(r.ward.open, expected)}`,
  )
  if (r.connect)
    console.log(
      `ward (connect): median ${median(r.connect.ms)} ms (runs ${r.connect.ms.join(', ')} ms), CPU median ${median(r.connect.cpuMs)} ms, ${r.connect.open.length} open, matches test bed: ${same(r.connect.open, expected)}`,
    )
  if (r.nmap) {
    console.log(
      `nmap -sT      : median ${median(r.nmap.ms)} ms (runs ${r.nmap.ms.join(', ')} ms), ${r.nmap.open.length} open, matches test bed: ${same(r.nmap.open, expected)}`,
    )
    if (r.nmapSyn)
      console.log(
        `nmap -sS      : median ${median(r.nmapSyn.ms)} ms (runs ${r.nmapSyn.ms.join(', ')} ms), ${r.nmapSyn.open.length} open, matches test bed: ${same(r.nmapSyn.open, expected)}`,
      )
    console.log(
      `ratio ward (${r.ward.method}) / nmap -sT: ${(median(r.ward.ms) / median(r.nmap.ms)).toFixed(2)} (goal ≤ 0.5); open-port sets identical: ${same(r.ward.open, r.nmap.open)}`,
    )
    if (r.connect) console.log(`ratio ward (connect) / nmap -sT: ${(median(r.connect.ms) / median(r.nmap.ms)).toFixed(2)}`)
    if (r.nmapSyn) console.log(`ratio ward (${r.ward.method}) / nmap -sS: ${(median(r.ward.ms) / median(r.nmapSyn.ms)).toFixed(2)}`)
  }
  // Many hosts: time per host should stay flat as the count grows (linear scaling).
  const counts = [1, 16, 64, 256]
  const sub = await withNetns('bench-sub', (ns) =>
    callInNetns<Awaited<ReturnType<typeof subnetScan>>>(ns, 'bench/port-scan.ts', 'subnetScan', [{ counts, nmap: hasNmap }], {
      timeoutMs: 20 * 60_000,
    }),
  )
  console.log('hosts of 127.0.5.0/24 × top 1000 ports (8 hosts at a time for Ward):')
  console.log('| hosts | Ward ms | Ward ms/host | Ward CPU ms | all open found | nmap -sT ms | nmap ms/host | ratio |')
  for (const x of sub) {
    const per = (ms: number | null) => (ms === null ? '–' : (ms / x.hosts).toFixed(1))
    console.log(
      `| ${x.hosts} | ${x.wardMs} | ${per(x.wardMs)} | ${x.wardCpuMs} | ${x.allFound}${x.nmapAllFound === null ? '' : ` / nmap ${x.nmapAllFound}`} | ${x.nmapMs ?? '–'} | ${per(x.nmapMs)} | ${x.nmapMs ? (x.wardMs / x.nmapMs).toFixed(2) : '–'} |`,
    )
  }
  // A host behind a firewall that drops every port but the open ones: here timing, not the CPU, decides.
  const upTo = 5000
  const fw = await withNetns('bench-fw', (ns) =>
    callInNetns<Awaited<ReturnType<typeof firewalledScan>>>(
      ns,
      'bench/port-scan.ts',
      'firewalledScan',
      [{ drop: 'all-but-open', upTo, nmap: hasNmap }],
      { timeoutMs: 10 * 60_000 },
    ),
  )
  const fwc = await withNetns('bench-fwc', (ns) =>
    callInNetns<Awaited<ReturnType<typeof firewalledScan>>>(
      ns,
      'bench/port-scan.ts',
      'firewalledScan',
      [{ drop: 'all-but-open', upTo, method: 'connect' }],
      { timeoutMs: 10 * 60_000 },
    ),
  )
  console.log(`firewalled host (every port but ${fw.expectedOpen.join(',')} dropped), ports 1-${upTo}:`)
  console.log(
    `ward (${fw.method}) : ${fw.ms} ms, open ${fw.open.join(',')}, ${fw.filtered} filtered, matches: ${same(fw.open, fw.expectedOpen)}`,
  )
  console.log(
    `ward (${fwc.method}) : ${fwc.ms} ms, open ${fwc.open.join(',')}, ${fwc.filtered} filtered, matches: ${same(fwc.open, fwc.expectedOpen)}`,
  )
  if (fw.nmap) {
    console.log(`nmap : ${fw.nmap.ms} ms, open ${fw.nmap.open.join(',')}, matches: ${same(fw.nmap.open, fw.expectedOpen)}`)
    console.log(
      `ratio ward (${fw.method}) / nmap: ${(fw.ms / fw.nmap.ms).toFixed(2)}; ward (connect) / nmap: ${(fwc.ms / fw.nmap.ms).toFixed(2)}`,
    )
  }
}
