// Checks about what a service is or allows, shared by the tools that detect services (the TCP Port
// Scanner, the Network Vulnerability Scanner and the Password Auditor): one fact, one check, one vuln_id, whichever tool
// finds it, so dedup and triage see one problem.
import { OWASP, type Check } from '../../../toolkit/check.js'

export const hostileService = {
  id: 'backdoor.hostile-service',
  name: 'Backdoor or hostile service',
  description:
    'What answers on this port is plainly hostile: a shell (often root) that needs no authentication, a shell that runs whatever a client ' +
    'sends, or an intentionally vulnerable training image.',
  impact:
    'Anyone who reaches the port can run commands on the host, usually as root: the host is compromised or was never meant to face a network.',
  risk: 'critical',
  cwe: ['CWE-506'], // Embedded Malicious Code
  owasp: OWASP.brokenAccess,
  recommendation:
    'Take the host off the network, find the process listening on the port (ss -ltnp) and how it got there, and rebuild the host from a ' +
    'trusted image; rotate every credential it held.',
  references: ['https://cwe.mitre.org/data/definitions/506.html', 'https://attack.mitre.org/techniques/T1505/'],
  tags: ['backdoor', 'compromise'],
} as const satisfies Check

const cweUrl = (n: number) => `https://cwe.mitre.org/data/definitions/${n}.html`

export const ftpAnonymousLogin = {
  id: 'tcp.exposure.ftp-anonymous',
  name: 'FTP anonymous login allowed',
  description: 'The FTP server accepted the user "anonymous" with an e-mail address as password and logged the client in.',
  impact:
    'Anyone can list and download the files the anonymous account sees, and upload files if it may write: data leaks, malware hosting, or a foothold.',
  risk: 'medium',
  cwe: ['CWE-284'],
  owasp: OWASP.brokenAccess,
  recommendation:
    'Disable anonymous FTP (vsftpd: anonymous_enable=NO) unless the server is a deliberate public mirror; then make it read-only and serve nothing sensitive.',
  references: ['https://www.rfc-editor.org/rfc/rfc1635', cweUrl(284)],
  tags: ['ports', 'ftp', 'authentication', 'active'],
} as const satisfies Check

export const redisUnauthenticated = {
  id: 'tcp.exposure.redis-unauthenticated',
  name: 'Redis accessible without authentication',
  description: 'The Redis server answered commands (PING, INFO) from a client that never authenticated.',
  impact:
    'Anyone who can reach the port can read and change all data, and commonly gain code execution on the ' +
    'host (CONFIG SET dir/dbfilename to write files, MODULE LOAD).',
  risk: 'high',
  cwe: ['CWE-306'],
  owasp: OWASP.authFailures,
  recommendation:
    'Bind Redis to localhost or a private interface, keep protected-mode on, require authentication (requirepass or ACL users), and firewall the port.',
  references: ['https://redis.io/docs/latest/operate/oss_and_stack/management/security/', cweUrl(306)],
  tags: ['ports', 'redis', 'database', 'authentication', 'active'],
} as const satisfies Check

export const postgresNoPassword = {
  id: 'tcp.exposure.postgresql-no-password',
  name: 'PostgreSQL accepts logins without a password',
  description: 'The PostgreSQL server authenticated the user "postgres" without asking for any credential ("trust" authentication).',
  impact:
    'Anyone who can reach the port has superuser access to every database, and can run operating-system commands through COPY ... PROGRAM.',
  risk: 'critical',
  cwe: ['CWE-306'],
  owasp: OWASP.authFailures,
  recommendation:
    'Replace "trust" entries in pg_hba.conf with scram-sha-256 for every remote host, set strong ' +
    'passwords, and limit listen_addresses and the firewall to the clients that need the database.',
  references: [
    'https://www.postgresql.org/docs/current/auth-trust.html',
    'https://www.postgresql.org/docs/current/auth-pg-hba-conf.html',
    cweUrl(306),
  ],
  tags: ['ports', 'database', 'authentication'],
} as const satisfies Check

/** Listed by every tool that can report them (the login facts are listed by each tool's own catalogue). */
export const serviceChecks = [hostileService] as const satisfies readonly Check[]
