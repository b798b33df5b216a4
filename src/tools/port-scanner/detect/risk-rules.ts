// Pure: facts about open ports -> which checks fail where. No I/O.
import { hostileService } from '../../lib/services/checks.js'
import { hostileBanner } from '../../lib/services/hostile.js'
import type { Check } from '../../../toolkit/check.js'
import type { Hit } from '../../../toolkit/hit.js'
import {
  databaseExposed,
  dockerApiExposed,
  ftpAnonymous,
  ftpCleartext,
  postgresNoPassword,
  rdpExposed,
  redisUnauthenticated,
  smbExposed,
  telnetExposed,
  vncExposed,
} from '../checks.js'
import { tableEvidence, type Evidence } from '../../../toolkit/evidence.js'
import type { ServiceInfo } from '../../lib/services/services.js'

/** One open port as the scan saw it (`identified` false: the service name is a port-number guess). */
export interface OpenPort extends ServiceInfo {
  port: number
  /** FTP only: result of the anonymous login attempt (null: not tried or inconclusive). */
  ftpAnonymous?: boolean | null
}

export interface RiskRule {
  check: Check
  /** The rule needs facts that only service detection gathers. */
  needsDetection: boolean
  /** The service's own answer proves it, identified or not (a root shell prompt). */
  provenByAnswer?: boolean
  applies(p: OpenPort): boolean
  detail(p: OpenPort): string
}

const DATABASES = new Set(['mysql', 'postgresql', 'mongodb', 'redis', 'memcached', 'ms-sql-s', 'oracle', 'elasticsearch'])

export const describePort = (p: Pick<OpenPort, 'port' | 'service' | 'product' | 'version'>) =>
  `${p.port}/tcp${p.service ? ` (${[p.service, p.product, p.version].filter(Boolean).join(' ')})` : ''}`

/** A service that should not face the network, known by its name alone. */
const serviceAnswers = (check: Check, service: string, label: string): RiskRule => ({
  check,
  needsDetection: false,
  applies: (p) => p.service === service,
  detail: (p) => `${label} answers on port ${describePort(p)}.`,
})

export const RISK_RULES: readonly RiskRule[] = [
  serviceAnswers(telnetExposed, 'telnet', 'Telnet'),
  {
    check: ftpCleartext,
    needsDetection: false,
    applies: (p) => p.service === 'ftp' && !p.tls,
    detail: (p) => `Plain FTP answers on port ${describePort(p)}.`,
  },
  {
    check: ftpAnonymous,
    needsDetection: true,
    applies: (p) => p.ftpAnonymous === true,
    detail: (p) => `USER anonymous / PASS ward@example.com was accepted (230) on port ${describePort(p)}.`,
  },
  {
    check: redisUnauthenticated,
    needsDetection: true,
    applies: (p) => p.service === 'redis' && p.facts.unauthenticated === true,
    detail: (p) => `INFO answered without AUTH on port ${describePort(p)}.`,
  },
  {
    check: postgresNoPassword,
    needsDetection: true,
    applies: (p) => p.service === 'postgresql' && p.facts.unauthenticated === true,
    detail: (p) => `The startup message for user "postgres" got AuthenticationOk on port ${describePort(p)}.`,
  },
  {
    check: databaseExposed,
    needsDetection: false,
    applies: (p) => DATABASES.has(p.service ?? ''),
    detail: (p) => `A database service answers on port ${describePort(p)}.`,
  },
  serviceAnswers(rdpExposed, 'rdp', 'RDP'),
  serviceAnswers(vncExposed, 'vnc', 'VNC'),
  {
    check: smbExposed,
    needsDetection: false,
    applies: (p) => p.port === 445 || p.service === 'microsoft-ds',
    detail: (p) => `SMB port ${describePort(p)} is open.`,
  },
  {
    check: hostileService,
    needsDetection: true,
    provenByAnswer: true,
    applies: (p) => hostileBanner(p.banner) !== null,
    detail: (p) => `On port ${describePort(p)} ${hostileBanner(p.banner)}.`,
  },
  {
    check: dockerApiExposed,
    needsDetection: false,
    applies: (p) => (p.product ?? '').toLowerCase() === 'docker' || (!p.identified && p.service === 'docker'),
    detail: (p) => `The Docker Engine API answers on port ${describePort(p)}.`,
  },
]

export const portEvidence = (p: OpenPort): Evidence =>
  tableEvidence(
    ['Port', 'Protocol', 'Service', 'Product', 'Version', 'TLS', 'Banner'],
    [[p.port, 'tcp', p.service, p.product, p.version, p.tls ? 'yes' : 'no', p.banner]],
  )

/** The ports on which `rule` fails. */
export function hitsOf(
  rule: RiskRule,
  ports: readonly OpenPort[],
): Array<Hit & Required<Pick<Hit, 'port' | 'detail' | 'evidence' | 'confirmed'>>> {
  return ports
    .filter((p) => rule.applies(p))
    .map((p) => ({
      check: rule.check,
      port: p.port,
      service: p.service,
      detail: rule.detail(p),
      evidence: portEvidence(p),
      confirmed: p.identified || !!rule.provenByAnswer,
    }))
}
