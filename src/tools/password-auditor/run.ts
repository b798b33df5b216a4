// The audit: port discovery → service detection → the logins of each service (web pages read for the
// logins of known products) → the planned attempts on each, a few services at a time → findings.
import type { ScanContext } from '../../toolkit/tool.js'
import { TargetUnreachableError } from '../../toolkit/errors.js'
import { targetHost } from '../../toolkit/ip.js'
import { tableEvidence } from '../../toolkit/evidence.js'
import { mapLimit } from '../../toolkit/limit.js'
import { TCP_PORTS } from '../lib/ports/top-ports.js'
import { withPortPlan, type PortPlan } from '../../toolkit/ports.js'
import { discoverTcpPorts } from '../lib/ports/scan.js'
import { detectService } from '../lib/services/services.js'
import { urlHost } from '../lib/http/url.js'
import type { PasswordAuditorParams } from './params.js'
import type { ServiceKind } from './params.js'
import { loginKind } from './detect/plan.js'
import { loginSurfaces, type LoginSurface } from './detect/http-login.js'
import { maskPassword } from './detect/mask.js'
import { planAttempts } from './credentials.js'
import { audit } from './audit.js'
import type { Attempter } from './probes/attempt.js'
import { ftpLogin } from './probes/ftp.js'
import { sshLogin } from './probes/ssh.js'
import { telnetLogin } from './probes/telnet.js'
import { mysqlLogin } from './probes/mysql.js'
import { postgresLogin } from './probes/postgres.js'
import { redisLogin } from './probes/redis.js'
import { fetchLoginPages, webLogin } from './probes/web.js'
import { defaultCredentials, lockoutDetected, loginServices, noAuthentication } from './checks.js'
import { credentialEntry, type AuditedLogin, type FoundCredential } from './output.js'

/** One login to audit: a service on a port, or one web login on a web port. */
interface Login {
  service: string
  port: number
  product: string | null
  url: string | null
  /** The shipped credential list it uses (credentials.json). */
  listId: string
  attempt: Attempter
}

const DISCOVERY_SHARE = 0.2

export const runPasswordAudit = withPortPlan(TCP_PORTS, scan)

async function scan(ctx: ScanContext<PasswordAuditorParams>, plan: PortPlan): Promise<void> {
  const p = ctx.params
  const { signal } = ctx
  const host = targetHost(ctx.target.name)
  const ports = plan.ports
  const wanted = new Set<ServiceKind>(p.services)

  // 1. Which ports are open, and what speaks on them.
  const discovery = await ctx.test('Login service discovery', `Looks for open TCP ports among ${ports.length} on ${host} and names the service on each.`)
  const kinds: Array<{ port: number; kind: ServiceKind; tls: boolean; product: string | null }> = []
  try {
    const states = await discoverTcpPorts(ctx.net, host, ports, { signal, onProgress: (d, t) => ctx.progress(d * DISCOVERY_SHARE * 0.5, Math.max(1, t)) })
    const open = states.filter((s) => s.state === 'open').map((s) => s.port)
    if (!open.length && !states.some((s) => s.state === 'closed')) throw new TargetUnreachableError(`${host} did not answer on any of the ${ports.length} TCP ports scanned`)
    ctx.log(`open TCP ports: ${open.join(', ') || 'none'}`)
    await mapLimit(open, 4, signal, async (port) => {
      const d = await detectService(ctx.net, host, port, { signal })
      const kind = loginKind(port, d)
      ctx.log(`${port}/tcp ${d.service ?? 'unknown'}${d.product ? ` ${d.product}` : ''}${kind ? ` → ${kind} login` : ''}`)
      if (kind && wanted.has(kind)) kinds.push({ port, kind, tls: d.tls, product: d.product })
    })
  } catch (e) {
    await discovery.error(signal.aborted ? 'the scan was stopped' : (e as Error).message)
    throw e
  }
  await discovery.done()
  if (signal.aborted) return
  kinds.sort((a, b) => a.port - b.port)

  // 2. The logins: one per service, and one per web login found on a web port.
  const logins: Login[] = []
  const target = { net: ctx.net, host }
  for (const k of kinds) {
    const t = { ...target, port: k.port }
    if (k.kind === 'http') {
      const base = `${k.tls ? 'https' : 'http'}://${urlHost(host)}:${k.port}/`
      const surfaces = loginSurfaces(await fetchLoginPages(ctx.net, base, signal))
      if (!surfaces.length) ctx.log(`${base}: no login found (${LOGIN_WORDS})`)
      for (const s of surfaces) logins.push(webLoginOf(ctx, s, k.port))
      continue
    }
    const attempt = { ftp: ftpLogin, ssh: sshLogin, telnet: telnetLogin, mysql: mysqlLogin, postgresql: postgresLogin, redis: redisLogin }[k.kind](t)
    logins.push({ service: k.kind, port: k.port, product: k.product, url: null, listId: k.kind, attempt })
  }

  // 3. The attempts, a few logins at a time (each login's attempts one after another, paced).
  const add = { usernames: p.usernames, passwords: p.passwords, credentials: p.credentials, defaultLists: p.default_lists }
  const plans = logins.map((l) => planAttempts(l.listId, add, { perAccount: p.max_attempts, perService: p.max_attempts_per_service }))
  const total = plans.reduce((n, x) => n + x.length, 0)
  let tried = 0
  const found: FoundCredential[] = []
  const audited: AuditedLogin[] = []
  await mapLimit(
    logins.map((l, i) => ({ l, plan: plans[i]! })),
    4,
    signal,
    async ({ l, plan }) => {
      const where = `${l.service}${l.product ? ` (${l.product})` : ''} on ${l.port}/tcp${l.url ? ` at ${l.url}` : ''}`
      const t = await ctx.test(`Default credentials: ${where}`, `Tries up to ${plan.length} default and weak credentials (at most ${p.max_attempts} per account, ${p.delay_ms} ms apart, stopping at lockout signs) on ${where}.`)
      ctx.log(`${where}: ${plan.length} attempts planned`)
      const r = await audit({
        plan,
        attempt: l.attempt,
        delayMs: p.delay_ms,
        signal,
        onAttempt: (user, a) => {
          tried++
          ctx.progress(DISCOVERY_SHARE * total + tried * (1 - DISCOVERY_SHARE), total || 1)
          ctx.log(`${where}: user ${user}: ${a.result}${a.note ? ` (${a.note})` : ''} in ${Math.round(a.ms)} ms`)
        },
      })
      audited.push({ service: l.service, port: l.port, product: l.product, url: l.url, attempts: r.attempts, found: r.found.length, stopped: r.stopped })
      for (const c of r.found) {
        const masked = maskPassword(c.password)
        found.push(credentialEntry(l.service, l.port, c.username, c.password, l.product))
        await ctx.keepSecret(`${l.service} ${host}:${l.port}${l.url ? ` ${l.url}` : ''} ${c.username}`, c.password)
        await t.finding({
          check: defaultCredentials,
          port: l.port,
          protocol: 'tcp',
          service: l.service,
          url: l.url,
          location: `${l.service} user ${c.username}`,
          confirmed: true,
          detail: `${where} accepted the user "${c.username}" with the password ${masked}, from the shipped or given credentials of ${l.listId}. The password is kept sealed and shown nowhere.`,
          evidence: tableEvidence(['Service', 'Port', 'Product', 'User name', 'Password (masked)'], [[l.service, String(l.port), l.product ?? '', c.username, masked]]),
        })
      }
      if (r.noAuth)
        await t.finding({
          check: noAuthentication,
          port: l.port,
          protocol: 'tcp',
          service: l.service,
          url: l.url,
          confirmed: true,
          detail: `${where}: ${r.stopped}.`,
          evidence: tableEvidence(['Service', 'Port', 'What the service said'], [[l.service, String(l.port), r.stopped ?? '']]),
        })
      if (r.lockout)
        await t.finding({
          check: lockoutDetected,
          port: l.port,
          protocol: 'tcp',
          service: l.service,
          url: l.url,
          detail: `${where}: ${r.lockout}; the audit of this login stopped after ${r.attempts} attempts.`,
          evidence: tableEvidence(['Service', 'Port', 'Attempts', 'Sign'], [[l.service, String(l.port), String(r.attempts), r.lockout]]),
        })
      if (r.stopped && !r.lockout && !r.noAuth && !r.found.length && r.attempts < plan.length) await t.error(r.stopped)
      else await t.done()
      ctx.output('credentials', sortedCredentials(found))
    },
  )
  audited.sort((a, b) => a.port - b.port || (a.url ?? '').localeCompare(b.url ?? ''))

  const summary = await ctx.test('Password logins', 'Lists the password logins found and audited.')
  const clean = audited.filter((a) => !a.found)
  if (clean.length)
    await summary.finding({
      check: loginServices,
      detail: `${clean.length} login${clean.length === 1 ? '' : 's'} accepted none of the credentials tried.`,
      evidence: tableEvidence(['Service', 'Port', 'Product', 'URL', 'Attempts', 'Stopped'], clean.map((a) => [a.service, String(a.port), a.product ?? '', a.url ?? '', String(a.attempts), a.stopped ?? ''])),
    })
  await summary.done()
  ctx.output('credentials', sortedCredentials(found))
  ctx.output('logins', audited)
  ctx.progress(1, 1)
}

const LOGIN_WORDS = 'HTTP Basic/Digest, Tomcat, Jenkins, Grafana, phpMyAdmin'

function webLoginOf(ctx: ScanContext<PasswordAuditorParams>, s: LoginSurface, port: number): Login {
  const service = s.kind === 'form' ? 'http-form' : `http-${s.kind}`
  return { service, port, product: s.product, url: s.url, listId: s.product ?? 'http', attempt: webLogin(ctx.net, s) }
}

const sortedCredentials = (list: FoundCredential[]) => [...list].sort((a, b) => a.port - b.port || a.service.localeCompare(b.service) || a.username.localeCompare(b.username))
