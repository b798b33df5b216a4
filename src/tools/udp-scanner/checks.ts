// Checks of the UDP Port Scanner (tool 80): open ports and exposed amplification-prone services, and
// the test each service check is recorded under.
import { OWASP, type Check } from '../../toolkit/check.js'

const CISA_UDP_AMPLIFICATION = 'https://www.cisa.gov/news-events/alerts/2014/01/17/udp-based-amplification-attacks'
const CWE_406 = 'https://cwe.mitre.org/data/definitions/406.html'

export const udpOpenPort = {
  id: 'udp.ports.open',
  name: 'Open UDP port',
  description: 'The port answered a UDP probe, so a service listens on it and is reachable from the scanner.',
  impact: 'Every reachable service widens the attack surface; UDP services are often forgotten in firewall rules.',
  risk: 'info',
  cwe: ['CWE-200'],
  owasp: OWASP.none,
  recommendation: 'Check that the service must be reachable from this network; otherwise stop it or filter the port.',
  references: ['https://nmap.org/book/scan-methods-udp-scan.html'],
  tags: ['udp', 'ports'],
} as const satisfies Check

export const udpDnsOpenResolver = {
  id: 'udp.dns.open-resolver',
  name: 'DNS server answers recursive queries from anyone (open resolver)',
  description: 'The DNS server resolved a recursive query (the root NS set) for the scanner, which is not one of its clients.',
  impact:
    'Open resolvers are used to reflect and amplify denial-of-service traffic (a 40-byte query can return several kilobytes) ' +
    'and make cache-poisoning attacks easier.',
  risk: 'medium',
  cwe: ['CWE-406'],
  owasp: OWASP.misconfig,
  recommendation:
    'Restrict recursion to your own clients (BIND: allow-recursion { trusted; }; Unbound: access-control), or disable recursion ' +
    'on authoritative servers; apply response rate limiting.',
  references: ['https://www.rfc-editor.org/rfc/rfc5358', CISA_UDP_AMPLIFICATION, CWE_406],
  tags: ['udp', 'dns', 'amplification'],
} as const satisfies Check

export const udpDnsVersionDisclosure = {
  id: 'udp.dns.version-disclosure',
  name: 'DNS server discloses its version (version.bind)',
  description: 'The DNS server answers the CHAOS TXT query version.bind with its software version.',
  impact: 'The exact version lets an attacker pick known vulnerabilities of that release without probing further.',
  risk: 'low',
  cwe: ['CWE-200'],
  owasp: OWASP.misconfig,
  recommendation: 'Hide the version (BIND: options { version "none"; }; Unbound: hide-version: yes).',
  references: ['https://www.rfc-editor.org/rfc/rfc4892', 'https://cwe.mitre.org/data/definitions/200.html'],
  tags: ['udp', 'dns', 'information-disclosure'],
} as const satisfies Check

export const udpNtpMode6 = {
  id: 'udp.ntp.mode6',
  name: 'NTP server answers mode 6 control queries (readvar)',
  description: 'The NTP server answered an NTP control (mode 6) READVAR query from the scanner, revealing its variables and version.',
  impact:
    'Mode 6 replies are larger than the query and are abused for reflection/amplification attacks; they also disclose the ntpd version.',
  risk: 'medium',
  cwe: ['CWE-406', 'CWE-200'],
  owasp: OWASP.misconfig,
  recommendation: 'Refuse control queries from untrusted hosts (ntpd: restrict default kod nomodify notrap nopeer noquery).',
  references: [CISA_UDP_AMPLIFICATION, 'https://www.ntp.org/documentation/4.2.8-series/accopt/', CWE_406],
  tags: ['udp', 'ntp', 'amplification'],
} as const satisfies Check

export const udpNtpMonlist = {
  id: 'udp.ntp.monlist',
  name: 'NTP server answers monlist (mode 7) queries',
  description: 'The NTP server answered a mode 7 MON_GETLIST request, the command behind CVE-2013-5211.',
  impact:
    'A single spoofed monlist request returns up to 600 recent client addresses in many packets: an amplification factor of ' +
    'several hundred for denial-of-service attacks, and a leak of the clients that use the server.',
  risk: 'high',
  cwe: ['CWE-406'],
  owasp: OWASP.misconfig,
  recommendation: 'Upgrade ntpd to 4.2.7p26 or later, or add "disable monitor" and restrict noquery for untrusted hosts.',
  references: ['https://nvd.nist.gov/vuln/detail/CVE-2013-5211', 'https://www.kb.cert.org/vuls/id/348126', CWE_406],
  cve: ['CVE-2013-5211'],
  tags: ['udp', 'ntp', 'amplification'],
} as const satisfies Check

export const udpSnmpPublic = {
  id: 'udp.snmp.public-community',
  name: 'SNMP answers with the default community "public"',
  description: 'The SNMP agent answered a GetRequest for sysDescr with the well-known community string "public".',
  impact:
    'Anyone can read the device configuration (interfaces, routes, processes, software), sometimes write it, and use the agent ' +
    'to amplify denial-of-service traffic (GetBulk replies are many times larger than requests).',
  risk: 'high',
  cwe: ['CWE-1392', 'CWE-406'],
  owasp: OWASP.authFailures,
  recommendation: 'Disable SNMP v1/v2c or set a long random community; prefer SNMPv3 with authPriv, and allow only management hosts.',
  references: [
    'https://www.cisa.gov/news-events/alerts/2017/06/05/reducing-risk-snmp-abuse',
    'https://cwe.mitre.org/data/definitions/1392.html',
    CISA_UDP_AMPLIFICATION,
  ],
  tags: ['udp', 'snmp', 'default-credentials', 'amplification'],
} as const satisfies Check

export const udpSsdpExposed = {
  id: 'udp.ssdp.exposed',
  name: 'SSDP (UPnP discovery) answers unicast M-SEARCH',
  description: 'The host answered an SSDP M-SEARCH request sent straight to it, so UPnP discovery is reachable beyond the local link.',
  impact:
    'SSDP replies are up to 30 times larger than the request and are widely abused for reflection attacks; they also reveal device details.',
  risk: 'medium',
  cwe: ['CWE-406', 'CWE-200'],
  owasp: OWASP.misconfig,
  recommendation: 'Disable UPnP on interfaces that face untrusted networks and filter UDP port 1900 at the border.',
  references: [CISA_UDP_AMPLIFICATION, 'https://www.cloudflare.com/learning/ddos/ssdp-ddos-attack/', CWE_406],
  tags: ['udp', 'ssdp', 'amplification'],
} as const satisfies Check

export const udpMemcachedExposed = {
  id: 'udp.memcached.exposed',
  name: 'memcached answers over UDP',
  description: 'The memcached server answered a "stats" command over UDP without authentication.',
  impact:
    'memcached over UDP gives the largest known amplification (up to 50 000 times) and was used for terabit attacks; anyone can ' +
    'also read and change cached data.',
  risk: 'high',
  cwe: ['CWE-406', 'CWE-306'],
  owasp: OWASP.misconfig,
  recommendation:
    'Start memcached with -U 0 (UDP off; the default since 1.5.6), bind it to localhost or a private interface, and filter port 11211.',
  references: ['https://nvd.nist.gov/vuln/detail/CVE-2018-1000115', 'https://github.com/memcached/memcached/wiki/ReleaseNotes156', CWE_406],
  cve: ['CVE-2018-1000115'],
  tags: ['udp', 'memcached', 'amplification'],
} as const satisfies Check

export const udpNetbiosExposed = {
  id: 'udp.netbios.exposed',
  name: 'NetBIOS name service answers status queries',
  description: 'The host answered a NetBIOS node status (NBSTAT) query, listing its NetBIOS names, workgroup and often its MAC address.',
  impact:
    'The names and workgroup help an attacker map the Windows network; NBSTAT replies are also used for small-factor reflection attacks.',
  risk: 'low',
  cwe: ['CWE-200', 'CWE-406'],
  owasp: OWASP.misconfig,
  recommendation: 'Disable NetBIOS over TCP/IP where it is not needed and filter UDP 137-138 at the border.',
  references: ['https://www.rfc-editor.org/rfc/rfc1002', CISA_UDP_AMPLIFICATION, 'https://cwe.mitre.org/data/definitions/200.html'],
  tags: ['udp', 'netbios', 'information-disclosure'],
} as const satisfies Check

export const udpTftpExposed = {
  id: 'udp.tftp.exposed',
  name: 'TFTP server reachable',
  description:
    'A TFTP server answered a read request. TFTP has no authentication: any file it serves can be read by anyone who guesses its name.',
  impact:
    'Device configurations and firmware images served over TFTP often contain passwords; the service is also used for reflection attacks.',
  risk: 'medium',
  cwe: ['CWE-306', 'CWE-406'],
  owasp: OWASP.brokenAccess,
  recommendation:
    'Stop the TFTP server when it is not needed, or allow only the devices that boot from it and serve a dedicated read-only directory.',
  references: ['https://www.rfc-editor.org/rfc/rfc1350', 'https://cwe.mitre.org/data/definitions/306.html', CISA_UDP_AMPLIFICATION],
  tags: ['udp', 'tftp', 'amplification'],
} as const satisfies Check

export const udpScannerChecks = [
  udpOpenPort,
  udpDnsOpenResolver,
  udpDnsVersionDisclosure,
  udpNtpMode6,
  udpNtpMonlist,
  udpSnmpPublic,
  udpSsdpExposed,
  udpMemcachedExposed,
  udpNetbiosExposed,
  udpTftpExposed,
] as const satisfies readonly Check[]

/** Each service check, the service it applies to, and the test recorded for it. */
export const udpServiceTests: ReadonlyArray<{ check: Check; service: string; test: string }> = [
  { check: udpDnsOpenResolver, service: 'domain', test: 'DNS recursion for outside clients' },
  { check: udpDnsVersionDisclosure, service: 'domain', test: 'DNS version.bind disclosure' },
  { check: udpNtpMode6, service: 'ntp', test: 'NTP mode 6 control queries' },
  { check: udpNtpMonlist, service: 'ntp', test: 'NTP monlist (CVE-2013-5211)' },
  { check: udpSnmpPublic, service: 'snmp', test: 'SNMP default community "public"' },
  { check: udpSsdpExposed, service: 'ssdp', test: 'SSDP exposure' },
  { check: udpMemcachedExposed, service: 'memcache', test: 'memcached over UDP' },
  { check: udpNetbiosExposed, service: 'netbios-ns', test: 'NetBIOS node status exposure' },
  { check: udpTftpExposed, service: 'tftp', test: 'TFTP exposure' },
]
