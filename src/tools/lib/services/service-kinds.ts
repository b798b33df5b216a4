// The protocols the service checks of several tools share, as service detection (nmap's names and
// their aliases) or the usual port names them. Each tool adds the protocols only it checks.

export type CommonKind = 'ftp' | 'ssh' | 'smtp' | 'http' | 'redis' | 'mongodb'

/** Service names (lower case) that stand for one of the common protocols. */
export const COMMON_SERVICE_NAMES: Readonly<Record<string, CommonKind>> = {
  ftp: 'ftp',
  ssh: 'ssh',
  smtp: 'smtp',
  esmtp: 'smtp',
  submission: 'smtp',
  http: 'http',
  https: 'http',
  'http-alt': 'http',
  'http-proxy': 'http',
  'https-alt': 'http',
  www: 'http',
  redis: 'redis',
  mongodb: 'mongodb',
}

/** IANA and common ports of the common protocols, for when detection named no service. */
export const COMMON_SERVICE_PORTS: Readonly<Record<number, CommonKind>> = {
  21: 'ftp',
  22: 'ssh',
  25: 'smtp',
  587: 'smtp',
  2525: 'smtp',
  80: 'http',
  443: 'http',
  8000: 'http',
  8080: 'http',
  8443: 'http',
  6379: 'redis',
  27017: 'mongodb',
}
