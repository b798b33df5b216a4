// Checks about what a service is, shared by the tools that detect services (port and network scanners).
import { OWASP, type Check } from '../../../toolkit/check.js'

export const hostileService = {
  id: 'backdoor.hostile-service',
  name: 'Backdoor or hostile service',
  description:
    'What answers on this port is plainly hostile: a shell (often root) that needs no authentication, a shell that runs whatever a client ' +
    'sends, or an intentionally vulnerable training image.',
  impact: 'Anyone who reaches the port can run commands on the host, usually as root: the host is compromised or was never meant to face a network.',
  risk: 'critical',
  cwe: ['CWE-506'], // Embedded Malicious Code
  owasp: OWASP.brokenAccess,
  recommendation:
    'Take the host off the network, find the process listening on the port (ss -ltnp) and how it got there, and rebuild the host from a ' +
    'trusted image; rotate every credential it held.',
  references: ['https://cwe.mitre.org/data/definitions/506.html', 'https://attack.mitre.org/techniques/T1505/'],
  tags: ['backdoor', 'compromise'],
} as const satisfies Check

export const serviceChecks = [hostileService] as const satisfies readonly Check[]
