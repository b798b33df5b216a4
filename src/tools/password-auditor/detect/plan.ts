// Which login a port gets, from service detection, the banner, then the usual port. Pure.
import { bannerKind } from '../../lib/services/banners.js'
import type { DetectedService } from '../../lib/services/services.js'
import type { ServiceKind } from '../params.js'
import { isSmtpGreeting } from './smtp.js'

const NAMED: Readonly<Record<string, ServiceKind>> = {
  ftp: 'ftp',
  ssh: 'ssh',
  telnet: 'telnet',
  mysql: 'mysql',
  mariadb: 'mysql',
  postgresql: 'postgresql',
  postgres: 'postgresql',
  redis: 'redis',
  mongodb: 'mongodb',
  smtp: 'smtp',
  smtps: 'smtp',
  submission: 'smtp',
  esmtp: 'smtp',
  http: 'http',
  https: 'http',
  'http-alt': 'http',
  'http-proxy': 'http',
  'https-alt': 'http',
  www: 'http',
}

const BY_PORT: Readonly<Record<number, ServiceKind>> = {
  21: 'ftp',
  22: 'ssh',
  23: 'telnet',
  25: 'smtp',
  80: 'http',
  443: 'http',
  465: 'smtp',
  587: 'smtp',
  2525: 'smtp',
  3000: 'http',
  3306: 'mysql',
  5432: 'postgresql',
  6379: 'redis',
  8000: 'http',
  8080: 'http',
  8081: 'http',
  8443: 'http',
  8888: 'http',
  9090: 'http',
  27017: 'mongodb',
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
