// Tool 350, Network Vulnerability Scanner. The sequence: port discovery → service detection → the
// service checks of each port (and the TLS analysis of TLS ports), a few at a time → the records of
// checks that did not run → backdoors → version → CVE. Probes do the I/O, detect/ says what it means.
import { defineTool, type ScanContext } from '../../toolkit/tool.js'
import { TargetUnreachableError } from '../../toolkit/errors.js'
import { targetHost } from '../../toolkit/ip.js'
import { scanBudget } from '../../toolkit/budget.js'
import { phaseProgress } from '../../toolkit/progress.js'
import { createRecorder, type Recorder } from '../../toolkit/recorder.js'
import { withPortPlan, type PortPlan } from '../../toolkit/ports.js'
import { EXCHANGE_TIMEOUT_MS } from '../../toolkit/timeouts.js'
import { TCP_PORTS } from '../lib/ports/top-ports.js'
import { discoverTcpPorts } from '../lib/ports/scan.js'
import { detectService } from '../lib/services/services.js'
import type { ProbeTarget } from '../lib/services/session.js'
import { portVersionFindings } from '../lib/versions/report.js'
import { productsOfService } from '../lib/versions/fingerprint.js'
import { scanTls } from '../lib/tls/analyze.js'
import { tlsFindings } from '../lib/tls/findings.js'
import { netvulnManifest } from './manifest.js'
import type { NetvulnParams } from './params.js'
import { kindOf, serviceName, type Kind } from './detect/kind.js'
import {
  backdoorHits,
  elasticsearchExpected,
  elasticsearchHits,
  ftpConclusion,
  memcachedConclusion,
  mongoConclusion,
  redisConclusion,
  smtpConclusion,
  sshConclusion,
  webRootProducts,
  type Conclusion,
  type PortInfo,
} from './detect/services.js'
import { probeFtpAnonymous } from './probes/ftp.js'
import { probeSmtpRelay, RELAY_FROM, RELAY_TO } from './probes/smtp.js'
import { probeRedis } from './probes/redis.js'
import { probeMemcached } from './probes/memcached.js'
import { probeMongo } from './probes/mongodb.js'
import { probeSsh } from './probes/ssh.js'
import { fetchRoot, type HttpRoot } from './probes/http.js'
import { outputServices } from './output.js'
import { runNetTemplatePhase } from './probes/templates.js'

type Ctx = ScanContext<NetvulnParams>

/** Progress units: discovery is the first 30 %, service detection the next 25 %, then the per-port jobs up to 95 %. */
const SCALE = 1000
const DISCOVERY_SHARE = 300
const DETECTION_END = 0.55
const JOBS_END = 0.95
/** Ports identified, and per-port jobs run, at once. */
const AT_ONCE = 4

const ACTIVE_CHECKS: ReadonlyArray<{ kind: Kind; name: string }> = [
  { kind: 'ftp', name: 'Anonymous FTP login' },
  { kind: 'smtp', name: 'SMTP open relay' },
  { kind: 'redis', name: 'Unauthenticated Redis' },
  { kind: 'memcached', name: 'Unauthenticated memcached' },
  { kind: 'mongodb', name: 'Unauthenticated MongoDB' },
  { kind: 'elasticsearch', name: 'Unauthenticated Elasticsearch' },
]

/** One active check of a plain-text service: its test, its probe, and what the probe's result means. */
interface ServiceStep<R> {
  test: string
  description: string
  probe: (t: ProbeTarget) => Promise<R>
  conclude: (r: R, p: PortInfo) => Conclusion
}
const step = <R>(s: ServiceStep<R>) => s as ServiceStep<unknown>

const ACTIVE_STEPS: Partial<Record<Kind, ServiceStep<unknown>>> = {
  ftp: step({
    test: 'Anonymous FTP login',
    description: 'Logs in as "anonymous" (USER anonymous / PASS e-mail) and checks for reply 230.',
    probe: probeFtpAnonymous,
    conclude: ftpConclusion,
  }),
  smtp: step({
    test: 'SMTP open relay',
    description:
      `Sends MAIL FROM:<${RELAY_FROM}> and RCPT TO:<${RELAY_TO}> without authentication and checks ` +
      'whether the recipient is accepted; never sends DATA.',
    probe: probeSmtpRelay,
    conclude: smtpConclusion,
  }),
  redis: step({
    test: 'Unauthenticated Redis',
    description: 'Sends PING and INFO server without AUTH and checks whether Redis answers them.',
    probe: probeRedis,
    conclude: redisConclusion,
  }),
  memcached: step({
    test: 'Unauthenticated memcached',
    description: 'Sends the text-protocol "stats" command without authentication.',
    probe: probeMemcached,
    conclude: memcachedConclusion,
  }),
  mongodb: step({
    test: 'Unauthenticated MongoDB',
    description: 'Sends the isMaster handshake, then listDatabases without authenticating.',
    probe: probeMongo,
    conclude: mongoConclusion,
  }),
}
const SSH_STEP = step({
  test: 'SSH algorithms',
  description: "Reads the server's SSH_MSG_KEXINIT and looks for weak key exchange, cipher and MAC algorithms.",
  probe: probeSsh,
  conclude: sshConclusion,
})

const label = (p: PortInfo) => `${p.port}/tcp${p.service ? ` (${p.service})` : ''}`

async function scan(ctx: Ctx, plan: PortPlan): Promise<void> {
  const host = targetHost(ctx.target.name)
  // A protocol mismatch skips a test; a stop or a network failure is its error.
  const rec = createRecorder(ctx, { logErrors: true, errorMessage: (n, e) => `${n}: ${e.message}` })
  const open = await discover(ctx, host, plan.ports)
  if (!open) return
  const infos = await detect(ctx, rec, host, open)
  if (ctx.signal.aborted) return outputServices(ctx, infos)
  const applied = await serviceJobs(ctx, rec, host, infos)
  if (ctx.signal.aborted) return outputServices(ctx, infos)
  await recordNotRun(ctx, applied, infos)
  if (!ctx.signal.aborted) await runNetTemplatePhase({ ctx, rec, host, infos })
  await rec.test(
    'Backdoors and hostile services',
    'Looks for plainly hostile answers among the banners: unauthenticated root shells, shells that run what a client sends, Metasploitable.',
    () => backdoorHits(infos),
  )
  await rec.test(
    'Known vulnerabilities by version',
    'Matches the product versions named by banners and probes against the version catalogue (CVEs, end of life) and imported NVD CVEs.',
    async () => {
      const hits = []
      for (const p of infos) hits.push(...(await portVersionFindings(p.port, p.service, p.products, ctx.vulns)))
      return hits
    },
  )
  outputServices(ctx, infos)
  ctx.progress(SCALE, SCALE)
}

/** Port discovery: the open ports, or null when the scan was stopped during it. */
async function discover(ctx: Ctx, host: string, ports: readonly number[]): Promise<number[] | null> {
  const discovery = await ctx.test(
    'TCP port discovery',
    `TCP scan (SYN where permitted, else connect) of ${ports.length} ports on ${host}.`,
  )
  ctx.log(`discovering ${ports.length} TCP ports on ${host}`)
  let states: Awaited<ReturnType<typeof discoverTcpPorts>>
  try {
    states = await discoverTcpPorts(ctx.net, host, ports, {
      signal: ctx.signal,
      onProgress: (done, total) => ctx.progress(Math.floor((done / Math.max(1, total)) * DISCOVERY_SHARE), SCALE),
      onOpen: (port) => ctx.log(`${port}/tcp open`),
    })
  } catch (e) {
    await discovery.error((e as Error).message)
    throw e
  }
  if (ctx.signal.aborted) {
    await discovery.error('the scan was stopped during port discovery')
    return null
  }
  const open = states.filter((s) => s.state === 'open').map((s) => s.port)
  if (!open.length && !states.some((s) => s.state === 'closed')) {
    await discovery.error(`no answer from ${host} on any of ${ports.length} ports`)
    throw new TargetUnreachableError(`${host} did not answer on any of the ${ports.length} TCP ports scanned`)
  }
  await discovery.done()
  ctx.cover({ protocol: 'tcp', probed: states.map((s) => s.port), open })
  ctx.log(`${open.length} open TCP ports: ${open.join(', ') || 'none'}`)
  return open
}

/** Service and version detection of the open ports; the services found so far are output at once. */
async function detect(ctx: Ctx, rec: Recorder, host: string, open: readonly number[]): Promise<PortInfo[]> {
  const infos: PortInfo[] = []
  await rec.test('Service and version detection', `Identifies the service and version behind ${open.length} open TCP ports.`, async () => {
    const phase = phaseProgress((d, t) => ctx.progress(d, t), DISCOVERY_SHARE / SCALE, DETECTION_END, open.length)
    await scanBudget(ctx).each(open, { limit: AT_ONCE, host, signal: ctx.signal }, async (port) => {
      const d = await detectService(ctx.net, host, port, {
        signal: ctx.signal,
        onProbe: (tried, planned) => phase.part(port, tried / (planned + 1)),
      })
      phase.done(port)
      const kind = kindOf(port, d)
      const info: PortInfo = { port, detected: d, kind, service: serviceName(d, kind), tls: d.tls, products: productsOfService(d) }
      infos.push(info)
      // Flushed within a second, not at the end.
      outputServices(ctx, infos)
      ctx.log(
        `${port}/tcp ${info.service ?? 'unknown'}${d.tls ? ' (TLS)' : ''}` +
          `${d.product ? ` ${d.product}` : ''}${d.version ? ` ${d.version}` : ''}` +
          `${d.banner ? ` | ${d.banner.slice(0, 120)}` : ''}`,
      )
    })
  })
  return infos.sort((a, b) => a.port - b.port)
}

/** The per-port jobs, bounded; the kinds whose checks ran. */
async function serviceJobs(ctx: Ctx, rec: Recorder, host: string, infos: readonly PortInfo[]): Promise<Set<Kind>> {
  type Job = () => Promise<void>
  const jobs: Job[] = []
  const applied = new Set<Kind>()
  const { tls } = ctx.params.checks
  const run = (kind: Kind, s: ServiceStep<unknown>, p: PortInfo) => {
    applied.add(kind)
    jobs.push(() => serviceStep(ctx, rec, host, p, s))
  }
  for (const p of infos) {
    const active = p.kind ? ACTIVE_STEPS[p.kind] : undefined
    if (p.kind === 'ssh' && !p.tls) run('ssh', SSH_STEP, p)
    if (p.kind === 'http' || p.kind === 'elasticsearch')
      jobs.push(async () => void ((await webRoot(ctx, rec, host, p)) && applied.add('elasticsearch')))
    if (ctx.params.checks.active && !p.tls && active && p.kind) run(p.kind, active, p)
  }
  // A TLS analysis is long (many handshakes): it moves the bar as it goes.
  if (tls)
    for (const p of infos.filter((i) => i.tls)) {
      const job: Job = () => tlsStep(ctx, rec, host, p, (d, t) => jobsPhase.part(job, d / t))
      jobs.push(job)
    }
  const jobsPhase = phaseProgress((d, t) => ctx.progress(d, t), DETECTION_END, JOBS_END, jobs.length)
  await scanBudget(ctx).each(jobs, { limit: AT_ONCE, host, signal: ctx.signal }, async (job) => {
    await job()
    jobsPhase.done(job)
  })
  return applied
}

const probeTarget = (ctx: Ctx, host: string, p: PortInfo): ProbeTarget => ({
  net: ctx.net,
  host,
  port: p.port,
  signal: ctx.signal,
  timeoutMs: EXCHANGE_TIMEOUT_MS,
})

async function serviceStep(ctx: Ctx, rec: Recorder, host: string, p: PortInfo, s: ServiceStep<unknown>): Promise<void> {
  await rec.test(`${s.test} on ${label(p)}`, s.description, async () => {
    const c = s.conclude(await s.probe(probeTarget(ctx, host, p)), p)
    p.products.push(...c.products)
    ctx.log(c.log)
    return c.hits
  })
}

/** GET / for the Server header; the Elasticsearch test is recorded where Elasticsearch is expected or answered. */
async function webRoot(ctx: Ctx, rec: Recorder, host: string, p: PortInfo): Promise<boolean> {
  let root: HttpRoot | null = null
  let failure: Error | null = null
  try {
    root = await fetchRoot(ctx.net, host, p.port, p.tls, ctx.signal)
    p.products.push(...webRootProducts(root))
    ctx.log(`${p.port}/tcp GET / -> ${root.status}${root.server ? ` Server: ${root.server}` : ''}`)
  } catch (e) {
    failure = e as Error
    ctx.log(`${p.port}/tcp GET / failed: ${failure.message}`)
  }
  if (!ctx.params.checks.active || !elasticsearchExpected(p, root)) return false
  await rec.test(
    `Unauthenticated Elasticsearch on ${label(p)}`,
    'Requests GET / without credentials and checks for the cluster information.',
    () => {
      if (!root) throw failure ?? new Error('no HTTP answer')
      return elasticsearchHits(root, p)
    },
  )
  return true
}

async function tlsStep(ctx: Ctx, rec: Recorder, host: string, p: PortInfo, progress: (done: number, total: number) => void): Promise<void> {
  await rec.test(
    `TLS analysis on ${p.port}/tcp`,
    'Runs the SSL/TLS Scanner analysis (protocols, cipher suites, certificate) on this TLS port.',
    async () => {
      const report = await scanTls(ctx.net, host, p.port, { signal: ctx.signal, log: (l) => ctx.log(`${p.port}/tcp TLS: ${l}`), progress })
      return tlsFindings(report, host, p.port).map((f) => ({
        ...f,
        port: p.port,
        protocol: 'tcp' as const,
        service: f.service ?? p.service,
      }))
    },
  )
}

/** Tests for checks that did not run, so every check has a record of why. */
async function recordNotRun(ctx: Ctx, applied: ReadonlySet<Kind>, infos: readonly PortInfo[]): Promise<void> {
  const { active, tls } = ctx.params.checks
  const skipped = async (name: string, reason: string) => (await ctx.test(name, `${name}: not run.`)).skip(reason)
  for (const c of ACTIVE_CHECKS) {
    if (!active) await skipped(c.name, 'active checks are turned off (checks.active = false)')
    else if (!applied.has(c.kind)) await skipped(c.name, `no ${c.kind} service among the open ports`)
  }
  if (!applied.has('ssh')) await skipped('SSH algorithms', 'no SSH service among the open ports')
  if (!tls) await skipped('TLS analysis', 'TLS checks are turned off (checks.tls = false)')
  else if (!infos.some((p) => p.tls)) await skipped('TLS analysis', 'no TLS service among the open ports')
}

export const runNetvuln = withPortPlan(TCP_PORTS, scan)
export const networkVulnScanner = defineTool(netvulnManifest, runNetvuln)
