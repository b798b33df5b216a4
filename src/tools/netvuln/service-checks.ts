// The per-port checks: each records its own test, runs one probe, and turns the typed result into findings.
// Version facts the probes learn on the way (banners, INFO, Server header) are added to the port for CVE matching.
import type { ScanContext, TestHandle } from '../../toolkit/tool.js'
import { textEvidence, tableEvidence } from '../../toolkit/evidence.js'
import {
  ftpAnonymousLogin,
  redisNoAuth,
  mongodbNoAuth,
  memcachedNoAuth,
  elasticsearchNoAuth,
  smtpOpenRelay,
  sshWeakKex,
  sshWeakCipher,
  sshWeakMac,
} from './checks.js'
import type { DetectedService } from '../lib/services/services.js'
import type { Kind } from './plan.js'
import { productsInBanner, type ProductVersion } from '../lib/versions/fingerprint.js'
import type { ProbeTarget } from '../lib/services/session.js'
import { createRecorder } from '../../toolkit/recorder.js'
import { EXCHANGE_TIMEOUT_MS } from '../../toolkit/timeouts.js'
import { probeFtpAnonymous } from './probes/ftp.js'
import { probeSmtpRelay, RELAY_FROM, RELAY_TO } from './probes/smtp.js'
import { probeRedis } from './probes/redis.js'
import { probeMemcached } from './probes/memcached.js'
import { probeMongo } from './probes/mongodb.js'
import { probeSsh, weakKex, weakCiphers, weakMacs } from './probes/ssh.js'
import { fetchRoot } from './probes/http.js'

export type PortInfo = {
  port: number
  detected: DetectedService
  kind: Kind | null
  service: string | null
  tls: boolean
  /** Product versions seen on this port (detection, banners, probes). */
  products: ProductVersion[]
}

type Ctx = ScanContext<unknown>

const where = (p: PortInfo) => ({ port: p.port, protocol: 'tcp' as const, service: p.service })
const label = (p: PortInfo) => `${p.port}/tcp${p.service ? ` (${p.service})` : ''}`

/** Records one test around `body`: a protocol mismatch skips it, a stop or a network failure is an error. */
export const recordTest = (ctx: Ctx, name: string, description: string, body: (t: TestHandle) => Promise<void>): Promise<void> =>
  createRecorder(ctx, { logErrors: true, errorMessage: (n, e) => `${n}: ${e.message}` }).test(name, description, body)

const target = (ctx: Ctx, host: string, p: PortInfo): ProbeTarget => ({ net: ctx.net, host, port: p.port, signal: ctx.signal, timeoutMs: EXCHANGE_TIMEOUT_MS })

export async function checkFtp(ctx: Ctx, host: string, p: PortInfo): Promise<void> {
  await recordTest(ctx, `Anonymous FTP login on ${label(p)}`, 'Logs in as "anonymous" (USER anonymous / PASS e-mail) and checks for reply 230.', async (t) => {
    const r = await probeFtpAnonymous(target(ctx, host, p))
    p.products.push(...productsInBanner(r.banner, 'FTP greeting'))
    ctx.log(`${p.port}/tcp FTP anonymous login: ${r.anonymous ? 'accepted' : 'refused'}`)
    if (r.anonymous)
      await t.finding({ check: ftpAnonymousLogin, ...where(p), confirmed: true, detail: `The server on ${p.port}/tcp logged in the anonymous user.`, evidence: textEvidence(r.transcript.join('\n')) })
  })
}

export async function checkSmtp(ctx: Ctx, host: string, p: PortInfo): Promise<void> {
  await recordTest(
    ctx,
    `SMTP open relay on ${label(p)}`,
    `Sends MAIL FROM:<${RELAY_FROM}> and RCPT TO:<${RELAY_TO}> without authentication and checks whether the recipient is accepted; never sends DATA.`,
    async (t) => {
      const r = await probeSmtpRelay(target(ctx, host, p))
      p.products.push(...productsInBanner(r.banner, 'SMTP greeting'))
      ctx.log(`${p.port}/tcp SMTP relay to ${RELAY_TO}: ${r.relay ? 'accepted' : 'refused'}`)
      if (r.relay)
        await t.finding({
          check: smtpOpenRelay,
          ...where(p),
          confirmed: true,
          detail: `The server on ${p.port}/tcp accepted a recipient at example.net for a sender at example.org from an unauthenticated client (the transaction was reset before DATA).`,
          evidence: textEvidence(r.transcript.join('\n')),
        })
    },
  )
}

export async function checkRedis(ctx: Ctx, host: string, p: PortInfo): Promise<void> {
  await recordTest(ctx, `Unauthenticated Redis on ${label(p)}`, 'Sends PING and INFO server without AUTH and checks whether Redis answers them.', async (t) => {
    const r = await probeRedis(target(ctx, host, p))
    if (r.version) p.products.push({ product: 'redis', version: r.version, source: 'INFO server' })
    ctx.log(`${p.port}/tcp Redis without AUTH: ${r.unauthenticated ? `answered ${r.reply}` : `refused (${r.reply})`}`)
    if (r.unauthenticated)
      await t.finding({
        check: redisNoAuth,
        ...where(p),
        service: p.service ?? 'redis',
        confirmed: true,
        detail: `Redis${r.version ? ` ${r.version}` : ''} on ${p.port}/tcp answered PING and INFO without authentication.`,
        evidence: textEvidence(r.transcript.join('\n')),
      })
  })
}

export async function checkMemcached(ctx: Ctx, host: string, p: PortInfo): Promise<void> {
  await recordTest(ctx, `Unauthenticated memcached on ${label(p)}`, 'Sends the text-protocol "stats" command without authentication.', async (t) => {
    const r = await probeMemcached(target(ctx, host, p))
    ctx.log(`${p.port}/tcp memcached stats without auth: ${r.unauthenticated ? 'answered' : `refused (${r.reply})`}`)
    if (r.unauthenticated)
      await t.finding({
        check: memcachedNoAuth,
        ...where(p),
        service: p.service ?? 'memcached',
        confirmed: true,
        detail: `memcached${r.version ? ` ${r.version}` : ''} on ${p.port}/tcp answered "stats" without authentication.`,
        evidence: textEvidence(r.transcript.join('\n')),
      })
  })
}

export async function checkMongo(ctx: Ctx, host: string, p: PortInfo): Promise<void> {
  await recordTest(ctx, `Unauthenticated MongoDB on ${label(p)}`, 'Sends the isMaster handshake, then listDatabases without authenticating.', async (t) => {
    const r = await probeMongo(target(ctx, host, p))
    ctx.log(`${p.port}/tcp MongoDB listDatabases without auth: ${r.unauthenticated ? `allowed (${r.databases.length} databases)` : `refused (${r.error})`}`)
    if (r.unauthenticated)
      await t.finding({
        check: mongodbNoAuth,
        ...where(p),
        service: p.service ?? 'mongodb',
        confirmed: true,
        detail: `MongoDB${r.version ? ` ${r.version}` : ''} on ${p.port}/tcp listed its databases (${r.databases.join(', ') || 'none'}) to an unauthenticated client.`,
        evidence: textEvidence(r.transcript.join('\n')),
      })
  })
}

export async function checkSsh(ctx: Ctx, host: string, p: PortInfo): Promise<void> {
  await recordTest(ctx, `SSH algorithms on ${label(p)}`, "Reads the server's SSH_MSG_KEXINIT and looks for weak key exchange, cipher and MAC algorithms.", async (t) => {
    const r = await probeSsh(target(ctx, host, p))
    p.products.push(...productsInBanner(r.banner, 'SSH identification'))
    const k = r.kexinit
    ctx.log(`${p.port}/tcp ${r.banner}: kex ${k.kex.join(',')}; ciphers ${k.ciphers.join(',')}; macs ${k.macs.join(',')}`)
    const groups = [
      { check: sshWeakKex, weak: weakKex(k), all: k.kex, what: 'key exchange algorithms' },
      { check: sshWeakCipher, weak: weakCiphers(k), all: k.ciphers, what: 'ciphers' },
      { check: sshWeakMac, weak: weakMacs(k), all: k.macs, what: 'MAC algorithms' },
    ]
    for (const g of groups) {
      if (!g.weak.length) continue
      await t.finding({
        check: g.check,
        ...where(p),
        service: p.service ?? 'ssh',
        confirmed: true,
        detail: `${r.banner} on ${p.port}/tcp offers these weak ${g.what}: ${g.weak.join(', ')}.`,
        evidence: tableEvidence(['Algorithm', 'Weak'], g.all.map((a) => [a, g.weak.includes(a) ? 'yes' : 'no'])),
      })
    }
  })
}

/** GET / for the Server header; the Elasticsearch test is recorded where Elasticsearch is expected or answered. */
export async function checkHttp(ctx: Ctx, host: string, p: PortInfo, active: boolean): Promise<boolean> {
  let root: Awaited<ReturnType<typeof fetchRoot>> | null = null
  let failure: Error | null = null
  try {
    root = await fetchRoot(ctx.net, host, p.port, p.tls, ctx.signal)
    p.products.push(...productsInBanner(root.server, 'Server header'), ...productsInBanner(root.poweredBy, 'X-Powered-By header'))
    ctx.log(`${p.port}/tcp GET / -> ${root.status}${root.server ? ` Server: ${root.server}` : ''}`)
  } catch (e) {
    failure = e as Error
    ctx.log(`${p.port}/tcp GET / failed: ${failure.message}`)
  }
  if (!active || !(p.kind === 'elasticsearch' || root?.es || root?.esLocked)) return false
  await recordTest(ctx, `Unauthenticated Elasticsearch on ${label(p)}`, 'Requests GET / without credentials and checks for the cluster information.', async (t) => {
    if (!root) throw failure ?? new Error('no HTTP answer')
    if (root.es)
      await t.finding({
        check: elasticsearchNoAuth,
        ...where(p),
        service: 'elasticsearch',
        url: root.url,
        confirmed: true,
        detail: `Elasticsearch${root.es.version ? ` ${root.es.version}` : ''} (cluster "${root.es.clusterName}") on ${p.port}/tcp answered without authentication.`,
        evidence: textEvidence(`GET ${root.url}\nHTTP ${root.status}\n\n${root.response.text().slice(0, 1500)}`),
      })
  })
  return true
}
