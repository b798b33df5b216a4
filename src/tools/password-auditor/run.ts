// Tool 400, Password Auditor: default and weak credentials on the target's login services.
// The sequence: port discovery → service detection → the logins of each service (web pages read for
// the logins of known products) → the planned attempts on each, a few logins at a time → findings.
import { defineTool, type ScanContext } from '../../toolkit/tool.js'
import { targetHost } from '../../toolkit/ip.js'
import { scanBudget } from '../../toolkit/budget.js'
import { withPortPlan, type PortPlan } from '../../toolkit/ports.js'
import { createRecorder } from '../../toolkit/recorder.js'
import { TCP_PORTS } from '../lib/ports/top-ports.js'
import { passwordAuditorManifest } from './manifest.js'
import type { PasswordAuditorParams, ServiceKind } from './params.js'
import { planAttempts, type Pair } from './detect/credentials.js'
import { auditHits, auditIncomplete, cleanLoginsHits, loginLabel } from './detect/findings.js'
import { audit } from './probes/audit.js'
import { discoverLoginServices, type LoginService } from './probes/discovery.js'
import { accountGroups, loginsOf, type Login } from './probes/logins.js'
import { auditedEntry, credentialEntry, outputAudit, type AuditedLogin, type FoundCredential } from './output.js'

const DISCOVERY_SHARE = 0.2
/** Logins audited at once (each login's attempts one after another, paced). */
const LOGINS_AT_ONCE = 4

type Ctx = ScanContext<PasswordAuditorParams>

async function runPasswordAudit(ctx: Ctx, plan: PortPlan): Promise<void> {
  const host = targetHost(ctx.target.name)
  const rec = createRecorder(ctx)
  // 1. Which ports are open, and what speaks on them.
  let services: LoginService[] = []
  await rec.test(
    'Login service discovery',
    `Looks for open TCP ports among ${plan.ports.length} on ${host} and names the service on each.`,
    async () => {
      services = await discoverLoginServices(ctx, host, plan.ports, new Set<ServiceKind>(ctx.params.services), (d, t) =>
        ctx.progress(d * DISCOVERY_SHARE * 0.5, Math.max(1, t)),
      )
    },
    { rethrow: true },
  )
  if (ctx.signal.aborted) return
  // 2. The logins, 3. the attempts on each.
  const logins = await loginsOf(ctx, host, services)
  const { found, audited } = await auditLogins(ctx, host, logins)
  // 4. The summary.
  await rec.test('Password logins', 'Lists the password logins found and audited.', () => cleanLoginsHits(audited))
  outputAudit(ctx, found, audited)
  ctx.progress(1, 1)
}

async function auditLogins(
  ctx: Ctx,
  host: string,
  logins: readonly Login[],
): Promise<{ found: FoundCredential[]; audited: AuditedLogin[] }> {
  const p = ctx.params
  const add = { usernames: p.usernames, passwords: p.passwords, credentials: p.credentials, defaultLists: p.default_lists }
  const groups = accountGroups(logins)
  const plans = groups.map((g) => planAttempts(g[0]!.listId, add, { perAccount: p.max_attempts, perService: p.max_attempts_per_service }))
  const total = plans.reduce((n, x) => n + x.length, 0)
  let tried = 0
  const found: FoundCredential[] = []
  const audited: AuditedLogin[] = []
  const onAttempt = () => ctx.progress(DISCOVERY_SHARE * total + ++tried * (1 - DISCOVERY_SHARE), total || 1)
  await scanBudget(ctx).each(groups, { limit: LOGINS_AT_ONCE, host, signal: ctx.signal }, async (group, i) => {
    // Logins sharing accounts: the first audited to the end gives the others only what it found.
    let shared: { from: string; pairs: Pair[] } | null = null
    for (const l of group) {
      const plan = shared?.pairs ?? plans[i]!
      const r = await auditLogin(ctx, host, l, plan, onAttempt, shared?.from)
      audited.push(auditedEntry(l, r))
      found.push(...r.found.map((c) => credentialEntry(l.service, l.port, c.username, c.password, l.product)))
      outputAudit(ctx, found, null)
      if (!shared && !auditIncomplete(r, plan.length))
        shared = { from: loginLabel(l), pairs: r.found.map((c) => [c.username, c.password] as const) }
    }
  })
  audited.sort((a, b) => a.port - b.port || (a.url ?? '').localeCompare(b.url ?? ''))
  return { found, audited }
}

/** One login's test: its attempts, the passwords found kept sealed, its hits. `sharedFrom`: the login whose findings make the plan. */
async function auditLogin(ctx: Ctx, host: string, l: Login, plan: readonly Pair[], onAttempt: () => void, sharedFrom?: string) {
  const where = loginLabel(l)
  const tried = plan.length
    ? `Tries the ${plan.length} credentials accepted by ${sharedFrom}`
    : `Tries nothing: ${sharedFrom} accepted none of the credentials`
  const t = await ctx.test(
    `Default credentials: ${where}`,
    sharedFrom
      ? `${tried}. ${where} shares its accounts, and the whole plan ran there only, so failures per account stay ` +
          `within ${ctx.params.max_attempts}.`
      : `Tries up to ${plan.length} default and weak credentials (at most ${ctx.params.max_attempts} ` +
          `per account, ${ctx.params.delay_ms} ms apart, stopping at lockout signs) on ${where}.`,
  )
  ctx.log(`${where}: ${plan.length} attempts planned${sharedFrom ? ` (the credentials accepted by ${sharedFrom})` : ''}`)
  const r = await audit({
    plan,
    attempt: l.attempt,
    delayMs: ctx.params.delay_ms,
    signal: ctx.signal,
    onAttempt: (user, a) => {
      onAttempt()
      ctx.log(`${where}: user ${user}: ${a.result}${a.note ? ` (${a.note})` : ''} in ${Math.round(a.ms)} ms`)
    },
  })
  for (const c of r.found) await ctx.keepSecret(`${l.service} ${host}:${l.port}${l.url ? ` ${l.url}` : ''} ${c.username}`, c.password)
  for (const h of auditHits(l, r)) await t.finding(h)
  if (auditIncomplete(r, plan.length)) await t.error(r.stopped!)
  else await t.done()
  return r
}

export const passwordAuditor = defineTool(passwordAuditorManifest, withPortPlan(TCP_PORTS, runPasswordAudit))
