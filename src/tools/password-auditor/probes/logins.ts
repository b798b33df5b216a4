// The logins to audit: one per login service, and one per web login found on a web port (its pages
// read for the logins of known products). Each carries the attempter that tries one pair on it.
import type { Egress } from '../../../toolkit/egress.js'
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

export interface Login extends LoginRef {
  attempt: Attempter
}

const LOGIN_WORDS = 'HTTP Basic/Digest, Tomcat, Jenkins, Grafana, phpMyAdmin'

function webLoginOf(net: Egress, s: LoginSurface, port: number): Login {
  const service = s.kind === 'form' ? 'http-form' : `http-${s.kind}`
  return { service, port, product: s.product, url: s.url, listId: s.product ?? 'http', attempt: webLogin(net, s) }
}

export async function loginsOf(
  net: Egress,
  host: string,
  services: readonly LoginService[],
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<Login[]> {
  const logins: Login[] = []
  for (const k of services) {
    if (k.kind === 'http') {
      const base = `${k.tls ? 'https' : 'http'}://${urlHost(host)}:${k.port}/`
      const surfaces = loginSurfaces(await fetchLoginPages(net, base, signal))
      if (!surfaces.length) log(`${base}: no login found (${LOGIN_WORDS})`)
      for (const s of surfaces) logins.push(webLoginOf(net, s, k.port))
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
  return logins
}
