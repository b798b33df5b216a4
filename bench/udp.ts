// UDP scan benchmark: Ward's UDP Port Scanner beside `nmap -n -sU` on the same ports of the UDP test bed.
// 1. loopback 127.0.5.10: the test bed's ports only (the machine has listeners of its own);
// 2. a network namespace of our own: top1000 and all 65535 ports (nothing else listens there), when `ip netns` works.
// Prints time and per-port state agreement. `npm run bench -- udp` (or `node --import tsx bench/udp.ts`).
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { runTool } from '../test/helpers/tool-harness.js'
import { udpScanner } from '../src/tools/udp-scanner/run.js'
import { UDP_PORTS } from '../src/tools/udp-scanner/data/ports.js'
import { parsePortPlan } from '../src/toolkit/ports.js'
import { startUdpServices } from '../test/testbed/udp-services.js'

const exec = promisify(execFile)

interface Outcome {
  label: string
  ports: number
  wardMs: number
  nmapMs: number | null
  agree: number
  disagreements: string[]
  wardCounts: Record<string, number>
  nmapCounts: Record<string, number> | null
}

export async function run(args: string[]): Promise<void> {
  if (args[0] === '--inside') {
    // Child inside the namespace: comparisons on 127.0.0.1, one JSON line each on stdout.
    console.log(JSON.stringify(await compare('netns 127.0.0.1, top1000', '127.0.0.1', 'top1000')))
    console.log(JSON.stringify(await compare('netns 127.0.0.1, all ports', '127.0.0.1', 'all')))
    return
  }
  console.log(`# UDP scan benchmark — ${new Date().toISOString()}`)
  const nmap = spawnSync('nmap', ['--version']).status === 0
  if (!nmap) console.log('nmap is not installed: Ward figures only')
  const outcomes: Outcome[] = []

  const bed = await startUdpServices('127.0.5.10', 'vulnerable')
  try {
    outcomes.push(await compare('loopback 127.0.5.10, test-bed ports', bed.host, bed.ports.join(',')))
  } finally {
    await bed.close()
  }

  const ns = `ward-udp-bench-${process.pid}`
  if (spawnSync('ip', ['netns', 'add', ns]).status === 0) {
    try {
      spawnSync('ip', ['netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up'])
      const self = fileURLToPath(import.meta.url)
      const { stdout } = await exec('ip', ['netns', 'exec', ns, process.execPath, '--import', 'tsx', self, '--inside'], {
        maxBuffer: 1 << 24,
        timeout: 600_000,
      })
      for (const line of stdout
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('{')))
        outcomes.push(JSON.parse(line))
    } catch (e) {
      console.log(`namespace run failed: ${(e as Error).message}`)
    } finally {
      spawnSync('ip', ['netns', 'delete', ns])
    }
  } else {
    console.log('cannot create a network namespace: skipping the top1000 run')
  }

  for (const o of outcomes) {
    console.log(`\n## ${o.label} (${o.ports} ports)`)
    console.log(`ward: ${(o.wardMs / 1000).toFixed(2)} s  ${fmt(o.wardCounts)}`)
    if (o.nmapMs !== null) {
      console.log(`nmap: ${(o.nmapMs / 1000).toFixed(2)} s  ${fmt(o.nmapCounts!)}`)
      console.log(`agreement: ${o.agree}/${o.ports} ports (${(Math.floor((1000 * o.agree) / o.ports) / 10).toFixed(1)}%)`)
      for (const d of o.disagreements.slice(0, 20)) console.log(`  differs: ${d}`)
    }
  }
}

const fmt = (c: Record<string, number>) =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')

async function compare(label: string, host: string, portSpec: string): Promise<Outcome> {
  const ports = [...parsePortPlan(portSpec, UDP_PORTS).ports]
  const inNamespace = label.startsWith('netns')
  let bed: Awaited<ReturnType<typeof startUdpServices>> | undefined
  if (inNamespace) bed = await startUdpServices(host, 'vulnerable')
  try {
    const t0 = performance.now()
    const r = await runTool(udpScanner, { target: host, params: { ports: portSpec } })
    const wardMs = performance.now() - t0
    if (r.error) throw r.error
    const ward = new Map<number, string>(ports.map((p) => [p, 'closed']))
    for (const row of r.output.ports as Array<{ port: number; state: string }>) ward.set(row.port, row.state)

    let nmapMs: number | null = null
    let nmap: Map<number, string> | null = null
    if (spawnSync('nmap', ['--version']).status === 0) {
      const t1 = performance.now()
      const { stdout } = await exec('nmap', ['-n', '-sU', '-p', ports.length > 200 ? compress(ports) : ports.join(','), '-oG', '-', host], {
        maxBuffer: 1 << 24,
      })
      nmapMs = performance.now() - t1
      nmap = parseGrepable(stdout, ports)
    }
    const disagreements: string[] = []
    let agree = 0
    for (const p of ports) {
      if (!nmap || nmap.get(p) === ward.get(p)) agree++
      else disagreements.push(`${p}: ward ${ward.get(p)}, nmap ${nmap.get(p)}`)
    }
    return { label, ports: ports.length, wardMs, nmapMs, agree, disagreements, wardCounts: counts(ward), nmapCounts: nmap && counts(nmap) }
  } finally {
    await bed?.close()
  }
}

const counts = (m: Map<number, string>) => [...m.values()].reduce<Record<string, number>>((c, s) => ((c[s] = (c[s] ?? 0) + 1), c), {})

/** nmap's grepable output → port → state; ports it folds into "Ignored State" get that state. */
function parseGrepable(out: string, ports: number[]): Map<number, string> {
  const ignored = /Ignored State: (\S+)/.exec(out)?.[1] ?? 'closed'
  const m = new Map<number, string>(ports.map((p) => [p, ignored]))
  const line = /Ports: (.*?)(\tIgnored|$)/m.exec(out)?.[1] ?? ''
  for (const entry of line.split(', ')) {
    const [port, state] = entry.split('/')
    if (port && state) m.set(Number(port), state)
  }
  return m
}

/** 1,2,3,7 → 1-3,7 (nmap's command line stays short for large lists). */
function compress(ports: number[]): string {
  const sorted = [...ports].sort((a, b) => a - b)
  const out: string[] = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++
    out.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`)
    i = j + 1
  }
  return out.join(',')
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(process.argv.slice(2)).catch((e) => {
    console.error(e)
    process.exit(1)
  })
}
