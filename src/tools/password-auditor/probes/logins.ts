// The logins to audit: one per login service, one per web login found on a web port (its pages read
// for the logins of known products), and one per mail server that offers AUTH in a mechanism the
// auditor speaks. Each carries the attempter that tries one pair on it.
import type { Egress } from '../../../toolkit/egress.js'
import type { ScanContext } from '../../../toolkit/tool.js'
import { urlHost } from '../../lib/http/url.js'
import { loginSurfaces, type LoginSurface } from '../detect/http-login.js'
import type { LoginRef } from '../detect/findings.js'
import type { Attempter } from './attempt.js'
import type { LoginService } from './discovery.js'
import { ftpLogin } from './ftp.js'
import { sshLogin } from './ssh.js'
import { telnetLogin } from './telnet.js'
import { mysqlLogin } from './mysql.js'
import { postgresLogin } from './postgres.js'
import { redisLogin } from './redis.js'
import { mongodbLogin } from './mongodb.js'
import { fetchLoginPages, webLogin } from './web.js'
import { smtpAuthOffer, smtpLogin } from './smtp.js'
import { pickMechanism } from '../detect/smtp.js'

export interface Login extends LoginRef {
  attempt: Attempter
  /**
   * Logins that share one account store (the ports of a mail server): audited one after another, the
   * first with the whole plan, the others only with what it found, so failures per account stay within
   * max_attempts however many ports the server listens on.
   */
  accounts?: string
}

/** What finding the logins takes from the scan: its egress, its abort signal and its log. */
type ScanIo = Pick<ScanContext, 'net' | 'signal' | 'log'>

const LOGIN_WORDS = 'HTTP Basic/Digest, Tomcat, Jenkins, Grafana, phpMyAdmin'

function webLoginOf(net: Egress, s: LoginSurface, port: number): Login {
  const service = s.kind === 'form' ? 'http-form' : `http-${s.kind}`
  return { service, port, product: s.product, url: s.url, listId: s.product ?? 'http', attempt: webLogin(net, s) }
}

/** The AUTH login of a mail server, when it offers AUTH in a mechanism the auditor speaks (many MX servers offer none). */
async function smtpLoginOf(ctx: ScanIo, host: string, k: LoginService): Promise<{ login: Login; clearText: boolean } | null> {
  const t = { net: ctx.net, host, port: k.port, tls: k.tls }
  const offer = await smtpAuthOffer(t, ctx.signal).catch((e: Error) => e.message)
  const where = `smtp on ${k.port}/tcp`
  if (typeof offer === 'string') {
    ctx.log(`${where}: no AUTH to audit (${offer})`)
    return null
  }
  const offered = offer.mechanisms.join(' ') || 'none'
  const mech = pickMechanism(offer.mechanisms)
  const tls = offer.tls === 'none' ? 'in clear text' : offer.tls === 'starttls' ? 'after STARTTLS' : 'over TLS'
  ctx.log(`${where}: AUTH ${offered} ${tls}${mech ? `; AUTH ${mech} used` : '; no mechanism the auditor speaks, not audited'}`)
  if (!mech) return null
  const login: Login = {
    service: 'smtp',
    port: k.port,
    product: k.product,
    url: null,
    listId: 'smtp',
    accounts: 'smtp',
    attempt: smtpLogin(t),
  }
  return { login, clearText: offer.tls === 'none' }
}

export async function loginsOf(ctx: ScanIo, host: string, services: readonly LoginService[]): Promise<Login[]> {
  const { net } = ctx
  const logins: Login[] = []
  const mail: Array<{ login: Login; clearText: boolean }> = []
  for (const k of services) {
    if (k.kind === 'http') {
      const base = `${k.tls ? 'https' : 'http'}://${urlHost(host)}:${k.port}/`
      const surfaces = loginSurfaces(await fetchLoginPages(net, base, ctx.signal))
      if (!surfaces.length) ctx.log(`${base}: no login found (${LOGIN_WORDS})`)
      for (const s of surfaces) logins.push(webLoginOf(net, s, k.port))
      continue
    }
    if (k.kind === 'smtp') {
      const m = await smtpLoginOf(ctx, host, k)
      if (m) mail.push(m)
      continue
    }
    const attempt = {
      ftp: ftpLogin,
      ssh: sshLogin,
      telnet: telnetLogin,
      mysql: mysqlLogin,
      postgresql: postgresLogin,
      redis: redisLogin,
      mongodb: mongodbLogin,
    }[k.kind]({ net, host, port: k.port })
    logins.push({ service: k.kind, port: k.port, product: k.product, url: null, listId: k.kind, attempt })
  }
  // The mail server's whole plan runs on a port with a protected session if there is one (no password in
  // clear text), else on the lowest port; its other ports follow (Login.accounts).
  mail.sort((a, b) => Number(a.clearText) - Number(b.clearText) || a.login.port - b.login.port)
  return [...logins, ...mail.map((m) => m.login)]
}

/** The logins in audit groups: one each, except those sharing an account store, together in the order given. */
export function accountGroups(logins: readonly Login[]): Login[][] {
  const groups: Login[][] = []
  const byStore = new Map<string, Login[]>()
  for (const l of logins) {
    const g = l.accounts ? byStore.get(l.accounts) : undefined
    if (g) g.push(l)
    else {
      groups.push([l])
      if (l.accounts) byStore.set(l.accounts, groups[groups.length - 1]!)
    }
  }
  return groups
}
