// The Network Vulnerability Scanner's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { netvulnParams } from './params.js'
import { netvulnChecks, netvulnSharedFacts } from './checks.js'
import { tlsChecks } from '../lib/tls/checks.js'
import { versionChecks } from '../lib/versions/checks.js'
import { serviceChecks } from '../lib/services/checks.js'
import { portSpecProblem } from '../../toolkit/ports.js'
import { TCP_PORTS } from '../lib/ports/top-ports.js'

export const netvulnManifest: ToolManifest<typeof netvulnParams> = defineManifest({
  id: 350,
  name: 'Network Vulnerability Scanner',
  description:
    'Discovers TCP services, matches their versions against known CVEs, runs active service checks ' +
    '(anonymous FTP, unauthenticated Redis/MongoDB/memcached/Elasticsearch, SMTP relay) and the SSL/TLS ' +
    'analysis on TLS ports.',
  params: netvulnParams,
  validateParams: (p) => portSpecProblem(p.ports, TCP_PORTS),
  // Version matches report the shared version checks, the TLS analysis on TLS ports the shared TLS checks.
  checks: [...netvulnChecks, ...netvulnSharedFacts, ...serviceChecks, ...versionChecks, ...tlsChecks],
  load: async () => (await import('./run.js')).networkVulnScanner.run,
})
