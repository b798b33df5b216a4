// Service probes as data: what to send after connecting, and on which ports to try each first.
// services.ts loops over this list; the rules of match-rules.ts recognise the replies.
import { ipVersion, stripBrackets } from '../../../toolkit/ip.js'
// The TLS library's hand-built hello and suite registry are pure bytes and data: reused rather than copied.
import { buildClientHello } from '../tls/hello.js'
import { LEGACY_SUITES, TLS13_SUITES } from '../tls/suites.js'

export interface Probe {
  id: string
  /** Bytes sent once connected; null: only listen (the server speaks first). */
  payload: ((host: string) => Buffer) | null
  /** Run over TLS; the inner exchange then follows the same rules. */
  tls?: boolean
  /** Listen this long for a greeting before sending the payload (TLS-wrapped banners: imaps, pop3s...). */
  listenFirstMs?: number
  /** Ports where this probe is tried before the others. */
  ports: readonly number[]
  /** Tried on its own ports only (a protocol seldom found elsewhere: not worth a silent port's wait). */
  onlyOnPorts?: boolean
}

const text = (s: string) => () => Buffer.from(s, 'latin1')

const httpGet = (host: string) =>
  Buffer.from(`GET / HTTP/1.0\r\nHost: ${host.includes(':') ? `[${host}]` : host}\r\nUser-Agent: Ward\r\nAccept: */*\r\n\r\n`, 'latin1')

/** PostgreSQL StartupMessage, protocol 3.0, as user postgres: the reply says how it authenticates. */
function pgStartup(): Buffer {
  const body = Buffer.from('user\0postgres\0database\0postgres\0application_name\0ward\0\0', 'latin1')
  const head = Buffer.alloc(8)
  head.writeUInt32BE(8 + body.length, 0)
  head.writeUInt32BE(0x00030000, 4)
  return Buffer.concat([head, body])
}

/**
 * MongoDB OP_QUERY { isMaster: 1 } on admin.$cmd, the handshake every server version answers, then
 * OP_MSG { buildInfo: 1 }, which 3.6 and later answer with their exact version (even with
 * authentication on); older servers close after the first reply, which still names them.
 */
function mongoIsMaster(): Buffer {
  const isMaster = bsonDoc([[0x10, 'isMaster', int32le(1)]])
  const query = Buffer.concat([int32le(0), Buffer.from('admin.$cmd\0', 'latin1'), int32le(0), int32le(-1), isMaster])
  const buildInfo = bsonDoc([
    [0x10, 'buildInfo', int32le(1)],
    [0x02, '$db', Buffer.concat([int32le(6), Buffer.from('admin\0', 'latin1')])],
  ])
  const msg = Buffer.concat([int32le(0), Buffer.from([0]), buildInfo]) // flagBits, section kind 0 (body)
  return Buffer.concat([
    Buffer.concat([int32le(16 + query.length), int32le(0x5741), int32le(0), int32le(2004), query]),
    Buffer.concat([int32le(16 + msg.length), int32le(0x5742), int32le(0), int32le(2013), msg]),
  ])
}
function bsonDoc(fields: Array<[type: number, name: string, value: Buffer]>): Buffer {
  const body = Buffer.concat([
    ...fields.map(([t, n, v]) => Buffer.concat([Buffer.from([t]), Buffer.from(`${n}\0`, 'latin1'), v])),
    Buffer.from([0]),
  ])
  return Buffer.concat([int32le(4 + body.length), body])
}
function int32le(n: number) {
  const b = Buffer.alloc(4)
  b.writeInt32LE(n)
  return b
}

/** RDP: TPKT + X.224 Connection Request with an RDP Negotiation Request (TLS | CredSSP). */
const RDP_X224_CR = Buffer.from([3, 0, 0, 0x13, 0x0e, 0xe0, 0, 0, 0, 0, 0, 1, 0, 8, 0, 3, 0, 0, 0])

/** DNS over TCP: the CHAOS-class TXT query for version.bind (id 0x5741), which BIND and others answer with their version. */
function dnsVersionBind(): Buffer {
  const name = Buffer.concat([Buffer.from([7]), Buffer.from('version'), Buffer.from([4]), Buffer.from('bind'), Buffer.from([0])])
  const msg = Buffer.concat([Buffer.from([0x57, 0x41, 0x00, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]), name, Buffer.from([0, 16, 0, 3])])
  const len = Buffer.alloc(2)
  len.writeUInt16BE(msg.length)
  return Buffer.concat([len, msg])
}

/**
 * SMB1 Negotiate Protocol offering eight dialects, oldest first: which one the server picks tells
 * Samba ("NT LANMAN 1.0", index 6) from Windows ("NT LM 0.12", index 7).
 */
function smbNegotiate(): Buffer {
  const dialects = [
    'PC NETWORK PROGRAM 1.0',
    'MICROSOFT NETWORKS 1.03',
    'MICROSOFT NETWORKS 3.0',
    'LANMAN1.0',
    'LM1.2X002',
    'Samba',
    'NT LANMAN 1.0',
    'NT LM 0.12',
  ]
  const bytes = Buffer.concat(dialects.map((d) => Buffer.from(`\x02${d}\0`, 'latin1')))
  const header = Buffer.from([
    0xff, 0x53, 0x4d, 0x42, 0x72, 0, 0, 0, 0, 0x08, 0x01, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x57, 0x41, 0, 0, 0, 0,
  ])
  const count = Buffer.alloc(2)
  count.writeUInt16LE(bytes.length)
  const smb = Buffer.concat([header, Buffer.from([0]), count, bytes]) // WordCount 0, ByteCount, dialects
  return Buffer.concat([Buffer.from([0, (smb.length >> 16) & 0xff, (smb.length >> 8) & 0xff, smb.length & 0xff]), smb])
}

/** LDAP BindRequest, message 1, protocol version 2, anonymous: v3-only servers refuse it in their own words. */
const LDAP_BIND_V2 = Buffer.from([0x30, 0x0c, 0x02, 0x01, 0x01, 0x60, 0x07, 0x02, 0x01, 0x02, 0x04, 0x00, 0x80, 0x00])

/** MQTT 3.1.1 CONNECT (clean session, client "ward"), then SUBSCRIBE $SYS/broker/version, which brokers that publish it answer with their version. */
function mqttConnect(): Buffer {
  const connect = Buffer.concat([Buffer.from([0x10, 16, 0, 4]), Buffer.from('MQTT'), Buffer.from([4, 2, 0, 30, 0, 4]), Buffer.from('ward')])
  const topic = Buffer.from('$SYS/broker/version')
  const subscribe = Buffer.concat([Buffer.from([0x82, 2 + 2 + topic.length + 1, 0, 1, 0, topic.length]), topic, Buffer.from([0])])
  return Buffer.concat([connect, subscribe])
}

export const PROBES: readonly Probe[] = [
  { id: 'null', payload: null, ports: [21, 22, 23, 25, 110, 143, 587, 2222, 3306, 5900, 5901, 2121, 992] },
  {
    id: 'http-get',
    payload: httpGet,
    ports: [80, 81, 591, 3000, 5000, 5601, 8000, 8008, 8080, 8081, 8082, 8088, 8888, 9000, 9090, 9200, 10000],
  },
  {
    id: 'tls',
    tls: true,
    listenFirstMs: 400,
    payload: httpGet,
    ports: [443, 465, 636, 990, 993, 995, 2376, 4443, 5986, 6443, 8443, 8883, 9443, 10443],
  },
  { id: 'redis-info', payload: text('*1\r\n$4\r\nINFO\r\n'), ports: [6379, 6380, 16379] },
  { id: 'postgres-startup', payload: pgStartup, ports: [5432, 5433, 6432] },
  { id: 'mongodb-ismaster', payload: mongoIsMaster, ports: [27017, 27018, 27019] },
  { id: 'rdp-x224', payload: () => RDP_X224_CR, ports: [3389] },
  { id: 'memcached-stats', payload: text('stats\r\n'), ports: [11211] },
  { id: 'dns-version-bind', payload: dnsVersionBind, ports: [53, 5353], onlyOnPorts: true },
  // Protocols seldom found off their ports: not worth a silent port's wait elsewhere.
  { id: 'smb-negotiate', payload: smbNegotiate, ports: [445, 139], onlyOnPorts: true },
  { id: 'ldap-bind', payload: () => LDAP_BIND_V2, ports: [389, 3268], onlyOnPorts: true },
  { id: 'mqtt-connect', payload: mqttConnect, ports: [1883], onlyOnPorts: true },
  { id: 'amqp-header', payload: text('AMQP\x00\x00\x09\x01'), ports: [5671, 5672], onlyOnPorts: true },
]

/**
 * Suites of the sniffing hello: TLS 1.3's, then every older suite a server can pick with an ordinary
 * certificate or none (RSA, DHE, ECDHE, anonymous; RC4, DES and EXPORT ones too), so any TLS server
 * finds one it knows. Left out: suites that need special keys or setup (PSK, SRP, Kerberos, GOST, static
 * DH/ECDH) and NULL, ARIA and Camellia-GCM, which keeps the list under 128, a length some stacks choke on.
 */
export const SNIFF_SUITES: readonly number[] = [
  ...TLS13_SUITES,
  ...LEGACY_SUITES.filter(
    (s) => ['RSA', 'DH', 'ECDH'].includes(s.kx) && !['None', 'ARIA', 'ARIAGCM', 'CamelliaGCM', 'GOST'].includes(s.enc),
  ),
].map((s) => s.code)

/**
 * The ClientHello that tells whether a port speaks TLS before any real handshake: TLS 1.2-style, also
 * offering TLS 1.0 to 1.3 (supported_versions, an x25519 key share), so TLS 1.3-only servers answer too.
 * Any TLS server answers it with a record: a ServerHello or an alert.
 */
export function tlsSniffHello(host: string): Buffer {
  const bare = stripBrackets(host)
  return buildClientHello({ protocol: 'TLSv1.3', minProtocol: 'TLSv1.0', suites: SNIFF_SUITES, sni: ipVersion(bare) ? undefined : bare })
}

/** Probes for `port`: those that name it first, then the others in list order. */
export function probeOrder(port: number): Probe[] {
  const first = PROBES.filter((p) => p.ports.includes(port))
  return [...first, ...PROBES.filter((p) => !first.includes(p) && !p.onlyOnPorts)]
}

/** Service names by port (IANA), reported when no probe recognised the service. */
export const PORT_SERVICE_NAMES: Readonly<Record<number, string>> = {
  21: 'ftp',
  22: 'ssh',
  23: 'telnet',
  25: 'smtp',
  53: 'domain',
  80: 'http',
  88: 'kerberos',
  110: 'pop3',
  111: 'rpcbind',
  135: 'msrpc',
  139: 'netbios-ssn',
  143: 'imap',
  389: 'ldap',
  443: 'https',
  445: 'microsoft-ds',
  465: 'smtps',
  512: 'exec',
  513: 'login',
  1883: 'mqtt',
  514: 'shell',
  548: 'afp',
  587: 'submission',
  631: 'ipp',
  636: 'ldaps',
  873: 'rsync',
  993: 'imaps',
  995: 'pop3s',
  1433: 'ms-sql-s',
  1521: 'oracle',
  1723: 'pptp',
  2049: 'nfs',
  2375: 'docker',
  2376: 'docker-tls',
  3306: 'mysql',
  3389: 'rdp',
  5432: 'postgresql',
  5672: 'amqp',
  5900: 'vnc',
  5985: 'winrm',
  5986: 'winrm-tls',
  6379: 'redis',
  8080: 'http-alt',
  8443: 'https-alt',
  9200: 'elasticsearch',
  11211: 'memcached',
  27017: 'mongodb',
}
