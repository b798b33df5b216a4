// The scan: port discovery → service detection → service checks per port → version → CVE → TLS analysis.
import type { ScanContext } from '../../toolkit/tool.js'
import { TargetUnreachableError } from '../../toolkit/errors.js'
import { targetHost } from '../../toolkit/ip.js'
import { tableEvidence } from '../../toolkit/evidence.js'
import { PRODUCTS } from '../lib/services/products.js'
import { portVersionFindings } from '../lib/versions/report.js'
import { hostileBanner } from '../lib/services/hostile.js'
import { hostileService } from '../lib/services/checks.js'
import { productsOfService, uniqueProducts } from '../lib/versions/fingerprint.js'
import { TCP_PORTS } from '../lib/ports/top-ports.js'
import { withPortPlan, type PortPlan } from '../../toolkit/ports.js'
import { discoverTcpPorts } from '../lib/ports/scan.js'
import { detectService } from '../lib/services/services.js'
import { scanTls } from '../lib/tls/analyze.js'
import { tlsFindings } from '../lib/tls/findings.js'
import { kindOf, serviceName, type Kind } from './plan.js'
import { mapLimit } from '../../toolkit/limit.js'
import { phaseProgress } from '../../toolkit/progress.js'
import { checkFtp, checkHttp, checkMemcached, checkMongo, checkRedis, checkSmtp, checkSsh, recordTest, type PortInfo } from './service-checks.js'
import type { NetvulnParams } from './params.js'

/** Progress units: discovery is the first 30 %, service detection the next 25 %, then the per-port jobs up to 95 %. */
const SCALE = 1000
const DISCOVERY_SHARE = 300
const DETECTION_END = 0.55
const JOBS_END = 0.95

const ACTIVE_CHECKS: ReadonlyArray<{ kind: Kind; name: string }> = [
  { kind: 'ftp', name: 'Anonymous FTP login' },
  { kind: 'smtp', name: 'SMTP open relay' },
  { kind: 'redis', name: 'Unauthenticated Redis' },
  { kind: 'memcached', name: 'Unauthenticated memcached' },
  { kind: 'mongodb', name: 'Unauthenticated MongoDB' },
  { kind: 'elasticsearch', name: 'Unauthenticated Elasticsearch' },
]

export const runNetvuln = withPortPlan(TCP_PORTS, scan)

async function scan(ctx: ScanContext<NetvulnParams>, plan: PortPlan): Promise<void> {
  const { signal } = ctx
  const host = targetHost(ctx.target.name)
  const ports = plan.ports
  const active = ctx.params.checks.active
  const tlsWanted = ctx.params.checks.tls

  // 1. Port discovery (tool 70).
  const discovery = await ctx.test('TCP port discovery', `TCP scan (SYN where permitted, else connect) of ${ports.length} ports on ${host}.`)
  ctx.log(`discovering ${ports.length} TCP ports on ${host}`)
  let states: Awaited<ReturnType<typeof discoverTcpPorts>>
  try {
    states = await discoverTcpPorts(ctx.net, host, ports, {
      signal,
      onProgress: (done, total) => ctx.progress(Math.floor((done / Math.max(1, total)) * DISCOVERY_SHARE), SCALE),
      onOpen: (port) => ctx.log(`${port}/tcp open`),
    })
  } catch (e) {
    await discovery.error((e as Error).message)
    throw e
  }
  if (signal.aborted) return void (await discovery.error('the scan was stopped during port discovery'))
  const open = states.filter((s) => s.state === 'open').map((s) => s.port)
  if (!open.length && !states.some((s) => s.state === 'closed')) {
    await discovery.error(`no answer from ${host} on any of ${ports.length} ports`)
    throw new TargetUnreachableError(`${host} did not answer on any of the ${ports.length} TCP ports scanned`)
  }
  await discovery.done()
  ctx.cover({ protocol: 'tcp', probed: states.map((s) => s.port), open })
  ctx.log(`${open.length} open TCP ports: ${open.join(', ') || 'none'}`)

  // 2. Service and version detection (tool 70).
  const infos: PortInfo[] = []
  await recordTest(ctx, 'Service and version detection', `Identifies the service and version behind ${open.length} open TCP ports.`, async () => {
    const phase = phaseProgress((d, t) => ctx.progress(d, t), DISCOVERY_SHARE / SCALE, DETECTION_END, open.length)
    await mapLimit(open, 4, signal, async (port) => {
      const d = await detectService(ctx.net, host, port, { signal, onProbe: (tried, planned) => phase.part(port, tried / (planned + 1)) })
      phase.done(port)
      const kind = kindOf(port, d)
      const info: PortInfo = { port, detected: d, kind, service: serviceName(d, kind), tls: d.tls, products: [] }
      info.products.push(...productsOfService(d))
      infos.push(info)
      // The services found so far are output at once (flushed within a second), not at the end.
      outputServices(ctx, infos)
      ctx.log(`${port}/tcp ${info.service ?? 'unknown'}${d.tls ? ' (TLS)' : ''}${d.product ? ` ${d.product}` : ''}${d.version ? ` ${d.version}` : ''}${d.banner ? ` | ${d.banner.slice(0, 120)}` : ''}`)
    })
  })
  infos.sort((a, b) => a.port - b.port)
  if (signal.aborted) return outputServices(ctx, infos)

  // 3. Per-port service checks, bounded.
  type Job = () => Promise<void>
  const jobs: Job[] = []
  const applied = new Set<Kind>()
  const add = (kind: Kind, job: Job) => {
    applied.add(kind)
    jobs.push(job)
  }
  for (const p of infos) {
    const k = p.kind
    if (k === 'ssh' && !p.tls) add('ssh', () => checkSsh(ctx, host, p))
    if (k === 'http' || k === 'elasticsearch')
      jobs.push(async () => {
        if (await checkHttp(ctx, host, p, active)) applied.add('elasticsearch')
      })
    if (active && !p.tls) {
      if (k === 'ftp') add(k, () => checkFtp(ctx, host, p))
      if (k === 'smtp') add(k, () => checkSmtp(ctx, host, p))
      if (k === 'redis') add(k, () => checkRedis(ctx, host, p))
      if (k === 'memcached') add(k, () => checkMemcached(ctx, host, p))
      if (k === 'mongodb') add(k, () => checkMongo(ctx, host, p))
    }
  }
  const tlsPorts = infos.filter((p) => p.tls)
  // A TLS analysis is long (many handshakes): it moves the bar as it goes.
  if (tlsWanted)
    for (const p of tlsPorts) {
      const job: Job = () => checkTls(ctx, host, p, (d, t) => jobsPhase.part(job, d / t))
      jobs.push(job)
    }
  const jobsPhase = phaseProgress((d, t) => ctx.progress(d, t), DETECTION_END, JOBS_END, jobs.length)
  await mapLimit(jobs, 4, signal, async (job) => {
    await job()
    jobsPhase.done(job)
  })

  if (signal.aborted) return outputServices(ctx, infos)

  // Tests for checks that did not run, so every check has a record of why.
  for (const c of ACTIVE_CHECKS) {
    if (!active) await skipped(ctx, c.name, 'active checks are turned off (checks.active = false)')
    else if (!applied.has(c.kind)) await skipped(ctx, c.name, `no ${c.kind} service among the open ports`)
  }
  if (!applied.has('ssh')) await skipped(ctx, 'SSH algorithms', 'no SSH service among the open ports')
  if (!tlsWanted) await skipped(ctx, 'TLS analysis', 'TLS checks are turned off (checks.tls = false)')
  else if (!tlsPorts.length) await skipped(ctx, 'TLS analysis', 'no TLS service among the open ports')

  // Backdoors: a root shell or a shell running our probes, a training image.
  await recordTest(ctx, 'Backdoors and hostile services', 'Looks for plainly hostile answers among the banners: unauthenticated root shells, shells that run what a client sends, Metasploitable.', async (t) => {
    for (const p of infos) {
      const why = hostileBanner(p.detected.banner)
      if (why)
        await t.finding({ check: hostileService, port: p.port, protocol: 'tcp', service: p.service, confirmed: true, detail: `On ${p.port}/tcp ${why}.`, evidence: tableEvidence(['Port', 'Service', 'Banner'], [[`${p.port}/tcp`, p.service ?? '', p.detected.banner ?? '']]) })
    }
  })

  // 4. Version → CVE.
  await recordTest(ctx, 'Known vulnerabilities by version', 'Matches the product versions named by banners and probes against the version catalogue (CVEs, end of life) and imported NVD CVEs.', async (t) => {
    for (const p of infos) for (const f of await portVersionFindings(p.port, p.service, p.products, ctx.vulns)) await t.finding(f)
  })
  outputServices(ctx, infos)
  ctx.progress(SCALE, SCALE)
}

async function checkTls(ctx: ScanContext<NetvulnParams>, host: string, p: PortInfo, progress: (done: number, total: number) => void): Promise<void> {
  await recordTest(ctx, `TLS analysis on ${p.port}/tcp`, 'Runs the SSL/TLS Scanner analysis (protocols, cipher suites, certificate) on this TLS port.', async (t) => {
    const report = await scanTls(ctx.net, host, p.port, { signal: ctx.signal, log: (l) => ctx.log(`${p.port}/tcp TLS: ${l}`), progress })
    for (const f of tlsFindings(report, host, p.port)) await t.finding({ ...f, port: p.port, protocol: 'tcp', service: f.service ?? p.service })
  })
}

async function skipped(ctx: ScanContext<NetvulnParams>, name: string, reason: string) {
  const t = await ctx.test(name, `${name}: not run.`)
  await t.skip(reason)
}

function outputServices(ctx: ScanContext<NetvulnParams>, infos: PortInfo[]) {
  ctx.output(
    'services',
    infos.map((p) => ({
      port: p.port,
      protocol: 'tcp',
      service: p.service,
      tls: p.tls,
      product: p.detected.product,
      version: p.detected.version,
      banner: p.detected.banner,
      products: uniqueProducts(p.products).map((v) => ({ product: PRODUCTS[v.product].label, version: v.version, source: v.source })),
    })),
  )
}
