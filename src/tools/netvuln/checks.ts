// Network Vulnerability Scanner (tool 350) checks: the active service checks. Version findings use the
// shared checks of the version catalogue (lib/versions/checks.ts, vuln_ids `cve.<family>`).
import { OWASP, type Check } from '../../toolkit/check.js'
import { ftpAnonymousLogin, redisUnauthenticated } from '../lib/services/checks.js'

const cweUrl = (n: number) => `https://cwe.mitre.org/data/definitions/${n}.html`

export const mongodbNoAuth = {
  id: 'netvuln.mongodb.no-auth',
  name: 'MongoDB lists databases without authentication',
  description: 'The MongoDB server runs listDatabases for a client that never authenticated: access control is not enabled.',
  impact: 'Anyone who reaches the port can read, change and delete every database (the pattern behind mass MongoDB ransom wipes).',
  risk: 'high',
  cwe: ['CWE-306'],
  owasp: OWASP.authFailures,
  recommendation:
    'Enable access control (security.authorization: enabled) with SCRAM users, bind mongod to internal ' +
    'interfaces (net.bindIp) and filter the port at the firewall.',
  references: ['https://www.mongodb.com/docs/manual/administration/security-checklist/', cweUrl(306)],
  tags: ['mongodb', 'database', 'authentication', 'active'],
} as const satisfies Check

export const memcachedNoAuth = {
  id: 'netvuln.memcached.no-auth',
  name: 'memcached answers without authentication',
  description: 'The memcached server answers the "stats" command over TCP to a client that never authenticated.',
  impact: 'Anyone who reaches the port can read and overwrite cached data (sessions, rendered pages, tokens) and flush the cache.',
  risk: 'medium',
  cwe: ['CWE-306'],
  owasp: OWASP.authFailures,
  recommendation:
    'Bind memcached to localhost or an internal interface (-l), disable UDP (-U 0), filter the port, and ' +
    'enable SASL or the auth file (-Y) where clients support it.',
  references: ['https://github.com/memcached/memcached/wiki/ConfiguringServer', cweUrl(306)],
  tags: ['memcached', 'cache', 'authentication', 'active'],
} as const satisfies Check

export const elasticsearchNoAuth = {
  id: 'netvuln.elasticsearch.no-auth',
  name: 'Elasticsearch answers without authentication',
  description: 'The Elasticsearch HTTP API returns the cluster information to an unauthenticated request.',
  impact: 'Anyone who reaches the port can search, change and delete every index through the REST API.',
  risk: 'high',
  cwe: ['CWE-306'],
  owasp: OWASP.authFailures,
  recommendation:
    'Enable Elasticsearch security (xpack.security.enabled: true) with TLS and users/roles, and do not expose port 9200 beyond the application network.',
  references: ['https://www.elastic.co/guide/en/elasticsearch/reference/current/security-minimal-setup.html', cweUrl(306)],
  tags: ['elasticsearch', 'database', 'authentication', 'active'],
} as const satisfies Check

export const smtpOpenRelay = {
  id: 'netvuln.smtp.open-relay',
  name: 'SMTP open relay',
  description:
    'The SMTP server accepted a recipient in an external domain for a sender in another external domain, from an unauthenticated client.',
  impact: 'Spammers and phishers can send mail through the server, which gets it blacklisted and lends them its reputation.',
  risk: 'medium',
  cwe: ['CWE-441'], // Unintended Proxy or Intermediary
  owasp: OWASP.misconfig,
  recommendation:
    'Relay only for authenticated users (SMTP AUTH) and trusted networks, and accept unauthenticated mail only for local domains ' +
    '(Postfix: smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination).',
  references: ['https://datatracker.ietf.org/doc/html/rfc5321#section-3.9', 'https://datatracker.ietf.org/doc/html/rfc2505', cweUrl(441)],
  tags: ['smtp', 'mail', 'active'],
} as const satisfies Check

export const sshWeakKex = {
  id: 'netvuln.ssh.weak-kex',
  name: 'SSH server offers weak key exchange algorithms',
  description:
    'The key exchange list of the SSH server (SSH_MSG_KEXINIT) offers algorithms RFC 9142 says should not or must not be used: 1024-bit ' +
    'groups or SHA-1 group exchange.',
  impact: 'A well-resourced attacker can break or downgrade the session key exchange and then decrypt or tamper with the session.',
  risk: 'medium',
  cwe: ['CWE-326'], // Inadequate Encryption Strength
  owasp: OWASP.sensitiveData,
  recommendation:
    'Offer only curve25519-sha256, sntrup761x25519-sha512@openssh.com, ecdh-sha2-nistp256/384/521 and diffie-hellman-group14/16/18 with SHA-2 ' +
    '(OpenSSH: KexAlgorithms in sshd_config).',
  references: ['https://datatracker.ietf.org/doc/html/rfc9142', cweUrl(326)],
  tags: ['ssh', 'crypto'],
} as const satisfies Check

export const sshWeakCipher = {
  id: 'netvuln.ssh.weak-cipher',
  name: 'SSH server offers weak ciphers',
  description: 'The SSH server offers RC4 (arcfour), 3DES, Blowfish, CAST or CBC-mode ciphers.',
  impact:
    'RC4 keystream biases and CBC-mode plaintext recovery (CVE-2008-5161) let an attacker on the path ' +
    'recover parts of the session; 64-bit block ciphers are open to Sweet32.',
  risk: 'medium',
  cwe: ['CWE-327'], // Use of a Broken or Risky Cryptographic Algorithm
  owasp: OWASP.sensitiveData,
  recommendation:
    'Offer only chacha20-poly1305@openssh.com, aes128/256-gcm@openssh.com and aes128/192/256-ctr (OpenSSH: Ciphers in sshd_config).',
  references: ['https://datatracker.ietf.org/doc/html/rfc8758', 'https://datatracker.ietf.org/doc/html/rfc4253#section-6.3', cweUrl(327)],
  tags: ['ssh', 'crypto'],
} as const satisfies Check

export const sshWeakMac = {
  id: 'netvuln.ssh.weak-mac',
  name: 'SSH server offers weak MAC algorithms',
  description: 'The SSH server offers MD5-based or 96-bit truncated MACs (hmac-md5, hmac-md5-96, hmac-sha1-96).',
  impact: 'Weak or truncated integrity tags make forging or tampering with session packets easier.',
  risk: 'low',
  cwe: ['CWE-328'], // Use of Weak Hash
  owasp: OWASP.sensitiveData,
  recommendation:
    'Offer only hmac-sha2-256-etm@openssh.com, hmac-sha2-512-etm@openssh.com and umac-128-etm@openssh.com, or AEAD ciphers (OpenSSH: MACs in sshd_config).',
  references: ['https://datatracker.ietf.org/doc/html/rfc6668', cweUrl(328)],
  tags: ['ssh', 'crypto'],
} as const satisfies Check

export const netvulnActiveChecks = [
  mongodbNoAuth,
  memcachedNoAuth,
  elasticsearchNoAuth,
  smtpOpenRelay,
  sshWeakKex,
  sshWeakCipher,
  sshWeakMac,
] as const satisfies readonly Check[]

export const netvulnChecks: readonly Check[] = netvulnActiveChecks

/**
 * Facts the TCP Port Scanner reports too (anonymous FTP, Redis without authentication): the one
 * shared check of each (tools/lib/services/checks.ts), so both tools' findings have one vuln_id.
 */
export const netvulnSharedFacts: readonly Check[] = [ftpAnonymousLogin, redisUnauthenticated]
