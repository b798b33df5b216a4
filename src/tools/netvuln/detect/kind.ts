// Which service checks apply to an open port, from tool 70's detection, the banner, then the usual port. Pure.
import { bannerKind } from '../../lib/services/banners.js'
import type { DetectedService } from '../../lib/services/services.js'
import { COMMON_SERVICE_NAMES, COMMON_SERVICE_PORTS } from '../../lib/services/service-kinds.js'

export type Kind = 'ftp' | 'ssh' | 'smtp' | 'http' | 'redis' | 'memcached' | 'mongodb' | 'elasticsearch'

const SERVICE_KINDS: Readonly<Record<string, Kind>> = {
  ...COMMON_SERVICE_NAMES,
  memcache: 'memcached',
  memcached: 'memcached',
  mongo: 'mongodb',
  mongod: 'mongodb',
  elasticsearch: 'elasticsearch',
}

/** IANA/common ports, used only when detection named no service. */
const PORT_KINDS: Readonly<Record<number, Kind>> = {
  ...COMMON_SERVICE_PORTS,
  11211: 'memcached',
  27018: 'mongodb',
  9200: 'elasticsearch',
}

const fromBanner = (banner: string | null): Kind | null => bannerKind(banner, /^220[ -].*\b(e?smtp|mail|exim|postfix|sendmail)/i, 'smtp')

/** The one protocol a port is checked as, or null (only version matching applies). */
export function kindOf(port: number, d: DetectedService): Kind | null {
  const named = d.service ? SERVICE_KINDS[d.service.toLowerCase()] : undefined
  const byPort = PORT_KINDS[port]
  // Elasticsearch is an HTTP service: detection says "http", its usual port says which one.
  if (named === 'http' && byPort === 'elasticsearch') return byPort
  return named ?? fromBanner(d.banner) ?? byPort ?? null
}

/** Service name for findings and output: detection's, else the kind checked. */
export const serviceName = (d: DetectedService, kind: Kind | null): string | null => d.service ?? kind
