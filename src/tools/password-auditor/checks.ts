// Password Auditor (tool 400) checks: every vuln_id the tool can report.
import { OWASP, type Check } from '../../toolkit/check.js'
import { postgresNoPassword, redisUnauthenticated } from '../lib/services/checks.js'

const cweUrl = (n: number) => `https://cwe.mitre.org/data/definitions/${n}.html`

export const defaultCredentials = {
  id: 'password.default-credentials',
  name: 'Default or weak credentials accepted',
  description: 'The service accepted a login with a default or commonly used user name and password.',
  impact:
    'Anyone who tries the vendor defaults or a short list of common passwords logs in with the rights of that account: on a database, a remote shell ' +
    'or an administration console that is usually full control of the data or the host.',
  risk: 'critical',
  cwe: ['CWE-1392', 'CWE-521'], // Use of Default Credentials; Weak Password Requirements
  owasp: OWASP.authFailures,
  recommendation:
    'Change the password of the account now (a long random one, kept in a password manager), or disable the account; then look for other accounts ' +
    'with defaults, restrict who can reach the service, and prefer keys or single sign-on to passwords where the service allows it.',
  references: [
    cweUrl(1392),
    cweUrl(521),
    'https://attack.mitre.org/techniques/T1078/001/',
    'https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html',
  ],
  tags: ['authentication', 'credentials', 'active'],
} as const satisfies Check

export const noAuthentication = {
  id: 'password.no-authentication',
  name: 'Service logs clients in without a password',
  description: 'The service accepted a login without checking any password (Redis without requirepass, PostgreSQL trust authentication).',
  impact: 'Anyone who reaches the port has the access of the account, without knowing any secret.',
  risk: 'high',
  cwe: ['CWE-306'], // Missing Authentication for Critical Function
  owasp: OWASP.authFailures,
  recommendation:
    'Require a password or key for every account (Redis: requirepass or ACL users; PostgreSQL: ' +
    'scram-sha-256 instead of trust in pg_hba.conf) and restrict who can reach the port.',
  references: [
    cweUrl(306),
    'https://www.postgresql.org/docs/current/auth-trust.html',
    'https://redis.io/docs/latest/operate/oss_and_stack/management/security/',
  ],
  tags: ['authentication', 'active'],
} as const satisfies Check

export const lockoutDetected = {
  id: 'password.lockout-detected',
  name: 'Login throttling or lockout in place',
  description:
    'The service answered repeated failed logins with lockout or throttling signs (HTTP 429, FTP or SMTP ' +
    '421, "locked", "too many", growing delays), and the audit of it stopped there.',
  impact:
    'None by itself: throttling slows password guessing. The account may now be locked for a while; tell its owner if the lockout needs a reset.',
  risk: 'info',
  cwe: ['CWE-307'], // Improper Restriction of Excessive Authentication Attempts (here: present)
  owasp: OWASP.authFailures,
  recommendation:
    'Nothing to fix. Prefer throttling that slows attackers without letting them lock real users out (per-source limits, growing delays).',
  references: [cweUrl(307)],
  tags: ['authentication', 'lockout'],
} as const satisfies Check

export const loginServices = {
  id: 'password.login-services',
  name: 'Password logins offered',
  description: 'The services listed ask for a user name and password; the auditor tried its default and weak credentials on them.',
  impact: 'Every password login is a place where guessed or leaked passwords work; none of the credentials tried was accepted.',
  risk: 'info',
  cwe: ['CWE-287'], // Improper Authentication
  owasp: OWASP.authFailures,
  recommendation:
    'Keep these services reachable only by those who need them, and prefer keys, certificates or single sign-on to passwords.',
  references: [cweUrl(287)],
  tags: ['authentication', 'inventory'],
} as const satisfies Check

export const passwordAuditorChecks = [
  defaultCredentials,
  noAuthentication,
  lockoutDetected,
  loginServices,
] as const satisfies readonly Check[]

/** What the manifest lists: the auditor's checks and the shared facts it can report (detect/findings.ts). */
export const passwordAuditorCatalogue: readonly Check[] = [...passwordAuditorChecks, redisUnauthenticated, postgresNoPassword]
