// `npm run bench -- service-id`: in a fresh network namespace, start the service bed
// (test/testbed/service-bed.ts: 32 services speaking their protocols) and name every port with Ward's
// service detection (tool 70) and with `nmap -n -sV` (when installed). Prints a service-by-service table
// (expected / Ward / nmap, right or wrong), the totals and both wall times.
import { spawn, spawnSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { createDirectEgress } from '../src/engine/net/direct.js'
import { portScanner } from '../src/tools/port-scanner/run.js'
import { startServiceBed, type BedService, type Expected } from '../test/testbed/service-bed.js'
import { callInNetns, netnsUnavailable, withNetns } from '../test/helpers/netns.js'
import { runTool } from '../test/helpers/tool-harness.js'

export interface Named {
  service: string | null
  product: string | null
  version: string | null
  cpe: string | null
  probe?: string | null
}

export interface BedIdentification {
  services: BedService[]
  ward: { ms: number; rows: Record<number, Named>; error?: string }
  nmap: { ms: number; rows: Record<number, Named> } | null
}

/** Runs INSIDE a namespace: the bed, Ward's detection of its ports, then nmap -sV's. */
export async function identifyBed(o: { nmap?: boolean } = {}): Promise<BedIdentification> {
  const bed = await startServiceBed()
  const egress = createDirectEgress()
  try {
    const ports = bed.services.map((s) => s.port).join(',')
    const r = await runTool(portScanner, { target: bed.host, params: { ports, service_detection: true }, egress })
    const rows: Record<number, Named> = {}
    for (const p of (r.output.ports ?? []) as Array<Named & { port: number }>)
      rows[p.port] = { service: p.service, product: p.product, version: p.version, cpe: p.cpe, probe: p.probe }
    const ward = { ms: Math.round(r.elapsedMs), rows, ...(r.error ? { error: r.error.message } : {}) }
    return { services: bed.services, ward, nmap: o.nmap ? await nmapVersions(bed.host, ports) : null }
  } finally {
    await egress.close()
    await bed.close()
  }
}

async function nmapVersions(host: string, ports: string): Promise<{ ms: number; rows: Record<number, Named> }> {
  const t0 = performance.now()
  const xml = await new Promise<string>((resolve, reject) => {
    const child = spawn('nmap', ['-n', '-Pn', '-sT', '-sV', `-p${ports}`, '-oX', '-', host], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`nmap exited with ${code}`))))
  })
  const rows: Record<number, Named> = {}
  for (const m of xml.matchAll(/<port protocol="tcp" portid="(\d+)">([\s\S]*?)<\/port>/g)) {
    const svc = /<service ([^>]*?)\/?>(?:([\s\S]*?)<\/service>)?/.exec(m[2])
    const attr = (name: string) => (svc ? (new RegExp(`\\b${name}="([^"]*)"`).exec(svc[1])?.[1] ?? null) : null)
    const cpe = svc?.[2] ? (/<cpe>([^<]*)<\/cpe>/.exec(svc[2])?.[1] ?? null) : null
    rows[Number(m[1])] = { service: attr('name'), product: attr('product'), version: attr('version'), cpe }
  }
  return { ms: Math.round(performance.now() - t0), rows }
}

const norm = (s: string | null | undefined) => (s ?? '').toLowerCase().replace(/[^a-z0-9.]/g, '')

/**
 * Whether `got` names the service as `want` says: the service (or one of its aliases), the product
 * (spelling aside) and the version, each where the bed knows it. A silent port is right when nothing is claimed.
 */
export function judge(want: Expected, got: Named | undefined, aliases: readonly string[] = []): { right: boolean; why: string } {
  if (!got) return { right: want.service === null, why: 'no row' }
  if (want.service === null) return { right: !got.product, why: got.product ? `claims ${got.product}` : '' }
  const names = [want.service, ...aliases].map(norm)
  if (!names.includes(norm(got.service)) && !(want.service === 'tcpwrapped' && norm(got.service) === 'tcpwrapped'))
    return { right: false, why: `service ${got.service}` }
  if (want.product && !norm(got.product).includes(norm(want.product).replace(/(sshd|smtpd|pop3d|imapd|httpd)$/, '')))
    return { right: false, why: `product ${got.product}` }
  if (want.version && !norm(got.version).startsWith(norm(want.version))) return { right: false, why: `version ${got.version}` }
  return { right: true, why: '' }
}

const cell = (n: Named | undefined) => (n ? [n.service, n.product, n.version].filter(Boolean).join(' ') || '–' : '(none)')

export async function run(): Promise<void> {
  const why = netnsUnavailable()
  if (why) {
    console.log(`service-id benchmark skipped: ${why}`)
    return
  }
  const hasNmap = spawnSync('nmap', ['--version']).status === 0
  const nmapVersion = hasNmap ? /Nmap version (\S+)/.exec(spawnSync('nmap', ['--version'], { encoding: 'utf8' }).stdout)?.[1] : null
  console.log(
    `service-id benchmark: ${new Date().toISOString()}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? '?'}), node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, ${hasNmap ? `nmap ${nmapVersion}` : 'nmap not installed: Ward only'}`,
  )
  const r = await withNetns('bench-sid', (ns) =>
    callInNetns<BedIdentification>(ns, 'bench/service-id.ts', 'identifyBed', [{ nmap: hasNmap }], { timeoutMs: 15 * 60_000 }),
  )
  let wardRight = 0
  let nmapRight = 0
  console.log('| port | service (bed) | expected | Ward | Ward probe | right | nmap -sV | right |')
  console.log('|---|---|---|---|---|---|---|---|')
  for (const s of r.services) {
    const w = judge(s.expect, r.ward.rows[s.port], s.aliases)
    const n = r.nmap ? judge(s.expect, r.nmap.rows[s.port], s.aliases) : null
    if (w.right) wardRight++
    if (n?.right) nmapRight++
    const expected = [s.expect.service, s.expect.product, s.expect.version].filter(Boolean).join(' ') || '(silent)'
    console.log(
      `| ${s.port} | ${s.name} | ${expected} | ${cell(r.ward.rows[s.port])} | ${r.ward.rows[s.port]?.probe ?? '–'} | ${w.right ? 'yes' : `no (${w.why})`} | ${r.nmap ? cell(r.nmap.rows[s.port]) : '–'} | ${n ? (n.right ? 'yes' : `no (${n.why})`) : '–'} |`,
    )
  }
  console.log(`Ward: ${wardRight}/${r.services.length} right in ${r.ward.ms} ms${r.ward.error ? ` (error: ${r.ward.error})` : ''}`)
  if (r.nmap) console.log(`nmap -sV: ${nmapRight}/${r.services.length} right in ${r.nmap.ms} ms`)
}
