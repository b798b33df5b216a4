// TCP Port Scanner (tool 70) catalogue: open ports, and services that should not face the network.
// The risk rules (detect/risk-rules.ts) decide when one applies.
import { OWASP, type Check } from '../../toolkit/check.js'
import { ftpAnonymousLogin, postgresNoPassword, redisUnauthenticated } from '../lib/services/checks.js'

// Facts the Network Vulnerability Scanner or the Password Auditor report too: one check each, kept in tools/lib/services.
export const ftpAnonymous = ftpAnonymousLogin
export { postgresNoPassword, redisUnauthenticated }

const cwe = (n: number) => `https://cwe.mitre.org/data/definitions/${n}.html`

/** vuln_id `open_port` is a public contract (decisions.md), kept without the usual '<tool>.<area>.' prefix. */
export const openPort = {
  id: 'open_port',
  name: 'Open TCP port',
  description: 'The TCP port accepts connections from the scanner.',
  impact: 'Every open port is attack surface: the service behind it can be probed for weaknesses and known vulnerabilities.',
  risk: 'info',
  cwe: [],
  owasp: OWASP.none,
  recommendation: 'Keep open only the ports the host must offer to this network; close or firewall the others.',
  references: [
    'https://nmap.org/book/man-port-scanning-basics.html',
    'https://www.iana.org/assignments/service-names-port-numbers/service-names-port-numbers.xhtml',
  ],
  tags: ['ports', 'inventory'],
} as const satisfies Check

export const telnetExposed = {
  id: 'tcp.exposure.telnet',
  name: 'Telnet service exposed',
  description: 'A Telnet server accepts connections. Telnet carries logins, passwords and the whole session in clear text.',
  impact:
    'Anyone on the network path can read credentials and session contents or hijack the session; Telnet daemons are also a common brute-force target.',
  risk: 'high',
  cwe: ['CWE-319'],
  owasp: OWASP.sensitiveData,
  recommendation:
    'Disable the Telnet service and use SSH for remote administration; if a device only offers Telnet, ' +
    'reach it only through an isolated management network or VPN.',
  references: ['https://www.rfc-editor.org/rfc/rfc854', cwe(319)],
  tags: ['ports', 'cleartext', 'remote-access'],
} as const satisfies Check

export const ftpCleartext = {
  id: 'tcp.exposure.ftp-cleartext',
  name: 'FTP service without encryption',
  description: 'An FTP server accepts connections in clear text: user names, passwords and files cross the network unencrypted.',
  impact: 'An attacker on the network path can capture FTP credentials and transferred files, and alter files in transit.',
  risk: 'medium',
  cwe: ['CWE-319'],
  owasp: OWASP.sensitiveData,
  recommendation:
    'Replace FTP with SFTP (over SSH) or require FTPS (FTP over TLS, RFC 4217) for every session, and close the plain FTP port.',
  references: ['https://www.rfc-editor.org/rfc/rfc4217', cwe(319)],
  tags: ['ports', 'cleartext', 'ftp'],
} as const satisfies Check

export const databaseExposed = {
  id: 'tcp.exposure.database',
  name: 'Database service exposed',
  description:
    'A database server (MySQL/MariaDB, PostgreSQL, MongoDB, Redis, Memcached, SQL Server, Oracle, Elasticsearch...) accepts connections from the scanner.',
  impact:
    'A database reachable from the network invites password guessing and exploitation of database vulnerabilities; a single weak account exposes all the data.',
  risk: 'medium',
  cwe: ['CWE-668'],
  owasp: OWASP.misconfig,
  recommendation:
    'Let only the application servers reach the database: bind it to a private interface, firewall the port, and use a VPN or bastion for administration.',
  references: ['https://cheatsheetseries.owasp.org/cheatsheets/Database_Security_Cheat_Sheet.html', cwe(668)],
  tags: ['ports', 'database'],
} as const satisfies Check

export const rdpExposed = {
  id: 'tcp.exposure.rdp',
  name: 'Remote Desktop (RDP) exposed',
  description: 'A Remote Desktop Protocol service accepts connections from the scanner.',
  impact:
    'Internet-facing RDP is a leading ransomware entry point: password spraying, credential stuffing, ' +
    'and pre-authentication flaws such as BlueKeep (CVE-2019-0708).',
  risk: 'medium',
  cwe: ['CWE-668'],
  owasp: OWASP.misconfig,
  recommendation:
    'Do not expose RDP directly: put it behind a VPN or an RD Gateway with MFA, require Network Level Authentication, and keep the host patched.',
  references: ['https://nvd.nist.gov/vuln/detail/CVE-2019-0708', cwe(668)],
  tags: ['ports', 'remote-access'],
} as const satisfies Check

export const vncExposed = {
  id: 'tcp.exposure.vnc',
  name: 'VNC remote desktop exposed',
  description: 'A VNC (RFB) server accepts connections from the scanner.',
  impact:
    'VNC often uses weak 8-character passwords or none, and its classic authentication is not encrypted: ' +
    'attackers guess the password or watch and take over the desktop.',
  risk: 'medium',
  cwe: ['CWE-668'],
  owasp: OWASP.misconfig,
  recommendation: 'Reach VNC only through an SSH tunnel or VPN, bind it to localhost, and require strong authentication.',
  references: ['https://www.rfc-editor.org/rfc/rfc6143', cwe(668)],
  tags: ['ports', 'remote-access'],
} as const satisfies Check

export const smbExposed = {
  id: 'tcp.exposure.smb',
  name: 'SMB file sharing exposed',
  description: 'The SMB port (445/tcp, microsoft-ds) accepts connections from the scanner.',
  impact:
    'SMB reachable from untrusted networks allows share enumeration and password attacks, and was the ' +
    'path of wormable exploits such as EternalBlue (CVE-2017-0144).',
  risk: 'medium',
  cwe: ['CWE-668'],
  owasp: OWASP.misconfig,
  recommendation:
    'Block 445/tcp (and 139/tcp) at the network edge, disable SMBv1, and offer file shares only inside trusted networks or over a VPN.',
  references: ['https://nvd.nist.gov/vuln/detail/CVE-2017-0144', cwe(668)],
  tags: ['ports', 'file-sharing'],
} as const satisfies Check

export const dockerApiExposed = {
  id: 'tcp.exposure.docker-api',
  name: 'Docker Engine API exposed',
  description: 'The Docker Engine API answers over the network without TLS client authentication.',
  impact: 'Anyone who can reach it can start a privileged container that mounts the host file system: full control of the host.',
  risk: 'critical',
  cwe: ['CWE-306'],
  owasp: OWASP.authFailures,
  recommendation:
    'Do not listen on tcp://0.0.0.0:2375; use the local socket, or TLS with client certificates (tlsverify) on 2376, or SSH access.',
  references: ['https://docs.docker.com/engine/security/protect-access/', cwe(306)],
  tags: ['ports', 'containers', 'authentication'],
} as const satisfies Check

export const portScannerChecks = [
  openPort,
  telnetExposed,
  ftpCleartext,
  ftpAnonymous,
  redisUnauthenticated,
  postgresNoPassword,
  databaseExposed,
  rdpExposed,
  vncExposed,
  smbExposed,
  dockerApiExposed,
] as const satisfies readonly Check[]
