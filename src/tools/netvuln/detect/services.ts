// What each service probe's result means: the hits (with their port and evidence), the product
// versions it names (matched against the version catalogue later), and one log line. Pure.
import { textEvidence, tableEvidence } from '../../../toolkit/evidence.js'
import type { Hit } from '../../../toolkit/hit.js'
import { productsInBanner, type ProductVersion } from '../../lib/versions/fingerprint.js'
import type { DetectedService } from '../../lib/services/services.js'
import { elasticsearchNoAuth, memcachedNoAuth, mongodbNoAuth, smtpOpenRelay, sshWeakCipher, sshWeakKex, sshWeakMac } from '../checks.js'
import { ftpAnonymousLogin, redisUnauthenticated } from '../../lib/services/checks.js'
import type { FtpResult } from '../probes/ftp.js'
import type { HttpRoot } from '../probes/http.js'
import type { MemcachedResult } from '../probes/memcached.js'
import type { MongoResult } from '../probes/mongodb.js'
import type { RedisResult } from '../probes/redis.js'
import { RELAY_TO, type SmtpResult } from '../probes/smtp.js'
import { weakCiphers, weakKex, weakMacs, type SshResult } from '../probes/ssh.js'
import type { Kind } from './kind.js'
import { hostileBanner } from '../../lib/services/hostile.js'
import { hostileService } from '../../lib/services/checks.js'

export type PortInfo = {
  port: number
  detected: DetectedService
  kind: Kind | null
  service: string | null
  tls: boolean
  /** Product versions seen on this port (detection, banners, probes). */
  products: ProductVersion[]
}

/** What one probe's result comes to. */
export interface Conclusion {
  hits: Hit[]
  products: ProductVersion[]
  log: string
}

const at = (p: PortInfo, service: string | null = p.service) => ({ port: p.port, protocol: 'tcp' as const, service, confirmed: true })
const transcript = (t: string[]) => textEvidence(t.join('\n'))

export const ftpConclusion = (r: FtpResult, p: PortInfo): Conclusion => ({
  products: productsInBanner(r.banner, 'FTP greeting'),
  log: `${p.port}/tcp FTP anonymous login: ${r.anonymous ? 'accepted' : 'refused'}`,
  hits: r.anonymous
    ? [
        {
          check: ftpAnonymousLogin,
          ...at(p),
          detail: `The server on ${p.port}/tcp logged in the anonymous user.`,
          evidence: transcript(r.transcript),
        },
      ]
    : [],
})

export const smtpConclusion = (r: SmtpResult, p: PortInfo): Conclusion => ({
  products: productsInBanner(r.banner, 'SMTP greeting'),
  log: `${p.port}/tcp SMTP relay to ${RELAY_TO}: ${r.relay ? 'accepted' : 'refused'}`,
  hits: r.relay
    ? [
        {
          check: smtpOpenRelay,
          ...at(p),
          detail:
            `The server on ${p.port}/tcp accepted a recipient at example.net for a sender at example.org ` +
            'from an unauthenticated client (the transaction was reset before DATA).',
          evidence: transcript(r.transcript),
        },
      ]
    : [],
})

export const redisConclusion = (r: RedisResult, p: PortInfo): Conclusion => ({
  products: r.version ? [{ product: 'redis', version: r.version, source: 'INFO server' }] : [],
  log: `${p.port}/tcp Redis without AUTH: ${r.unauthenticated ? `answered ${r.reply}` : `refused (${r.reply})`}`,
  hits: r.unauthenticated
    ? [
        {
          check: redisUnauthenticated,
          ...at(p, p.service ?? 'redis'),
          detail: `Redis${r.version ? ` ${r.version}` : ''} on ${p.port}/tcp answered PING and INFO without authentication.`,
          evidence: transcript(r.transcript),
        },
      ]
    : [],
})

export const memcachedConclusion = (r: MemcachedResult, p: PortInfo): Conclusion => ({
  products: [],
  log: `${p.port}/tcp memcached stats without auth: ${r.unauthenticated ? 'answered' : `refused (${r.reply})`}`,
  hits: r.unauthenticated
    ? [
        {
          check: memcachedNoAuth,
          ...at(p, p.service ?? 'memcached'),
          detail: `memcached${r.version ? ` ${r.version}` : ''} on ${p.port}/tcp answered "stats" without authentication.`,
          evidence: transcript(r.transcript),
        },
      ]
    : [],
})

export const mongoConclusion = (r: MongoResult, p: PortInfo): Conclusion => ({
  products: [],
  log: `${p.port}/tcp MongoDB listDatabases without auth: ${r.unauthenticated ? `allowed (${r.databases.length} databases)` : `refused (${r.error})`}`,
  hits: r.unauthenticated
    ? [
        {
          check: mongodbNoAuth,
          ...at(p, p.service ?? 'mongodb'),
          detail:
            `MongoDB${r.version ? ` ${r.version}` : ''} on ${p.port}/tcp listed its databases (${r.databases.join(', ') || 'none'}) ` +
            'to an unauthenticated client.',
          evidence: transcript(r.transcript),
        },
      ]
    : [],
})

export function sshConclusion(r: SshResult, p: PortInfo): Conclusion {
  const k = r.kexinit
  const groups = [
    { check: sshWeakKex, weak: weakKex(k), all: k.kex, what: 'key exchange algorithms' },
    { check: sshWeakCipher, weak: weakCiphers(k), all: k.ciphers, what: 'ciphers' },
    { check: sshWeakMac, weak: weakMacs(k), all: k.macs, what: 'MAC algorithms' },
  ]
  return {
    products: productsInBanner(r.banner, 'SSH identification'),
    log: `${p.port}/tcp ${r.banner}: kex ${k.kex.join(',')}; ciphers ${k.ciphers.join(',')}; macs ${k.macs.join(',')}`,
    hits: groups
      .filter((g) => g.weak.length)
      .map((g) => ({
        check: g.check,
        ...at(p, p.service ?? 'ssh'),
        detail: `${r.banner} on ${p.port}/tcp offers these weak ${g.what}: ${g.weak.join(', ')}.`,
        evidence: tableEvidence(
          ['Algorithm', 'Weak'],
          g.all.map((a) => [a, g.weak.includes(a) ? 'yes' : 'no']),
        ),
      })),
  }
}

/** The web root's products (Server, X-Powered-By). */
export const webRootProducts = (root: HttpRoot): ProductVersion[] => [
  ...productsInBanner(root.server, 'Server header'),
  ...productsInBanner(root.poweredBy, 'X-Powered-By header'),
]

/** Elasticsearch is looked at where it is expected (its port or name) or where the web root answered like it. */
export const elasticsearchExpected = (p: PortInfo, root: HttpRoot | null) => p.kind === 'elasticsearch' || !!root?.es || !!root?.esLocked

export const elasticsearchHits = (root: HttpRoot, p: PortInfo): Hit[] =>
  root.es
    ? [
        {
          check: elasticsearchNoAuth,
          ...at(p, 'elasticsearch'),
          url: root.url,
          detail:
            `Elasticsearch${root.es.version ? ` ${root.es.version}` : ''} (cluster "${root.es.clusterName}") ` +
            `on ${p.port}/tcp answered without authentication.`,
          evidence: textEvidence(`GET ${root.url}\nHTTP ${root.status}\n\n${root.response.text().slice(0, 1500)}`),
        },
      ]
    : []

/** Plainly hostile answers among the banners (a root shell, a shell running our probes, a training image). */
export function backdoorHits(infos: readonly PortInfo[]): Hit[] {
  return infos.flatMap((p) => {
    const why = hostileBanner(p.detected.banner)
    return why
      ? [
          {
            check: hostileService,
            ...at(p),
            detail: `On ${p.port}/tcp ${why}.`,
            evidence: tableEvidence(['Port', 'Service', 'Banner'], [[`${p.port}/tcp`, p.service ?? '', p.detected.banner ?? '']]),
          },
        ]
      : []
  })
}
