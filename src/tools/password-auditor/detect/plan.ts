// Which login a port gets, from service detection, the banner, then the usual port. Pure.
import { bannerKind } from '../../lib/services/banners.js'
import type { DetectedService } from '../../lib/services/services.js'
import { COMMON_SERVICE_NAMES, COMMON_SERVICE_PORTS } from '../../lib/services/service-kinds.js'
import type { ServiceKind } from '../params.js'
import { isSmtpGreeting } from './smtp.js'

const NAMED: Readonly<Record<string, ServiceKind>> = {
  ...COMMON_SERVICE_NAMES,
  telnet: 'telnet',
  mysql: 'mysql',
  mariadb: 'mysql',
  postgresql: 'postgresql',
  postgres: 'postgresql',
  smtps: 'smtp',
}

const BY_PORT: Readonly<Record<number, ServiceKind>> = {
  ...COMMON_SERVICE_PORTS,
  23: 'telnet',
  465: 'smtp',
  3000: 'http',
  3306: 'mysql',
  5432: 'postgresql',
  8081: 'http',
  8888: 'http',
  9090: 'http',
}

function fromBanner(banner: string | null): ServiceKind | null {
  if (banner && isSmtpGreeting(banner)) return 'smtp'
  return bannerKind(banner, /(login|username)\s*:\s*$/i, 'telnet')
}

/** The login kind of an open port, or null when the auditor has none for it. */
export function loginKind(port: number, d: DetectedService): ServiceKind | null {
  const named = d.service ? NAMED[d.service.toLowerCase()] : undefined
  return named ?? fromBanner(d.banner) ?? (d.service ? null : (BY_PORT[port] ?? null))
}
