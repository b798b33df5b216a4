// Recognition rules as data, after nmap's nmap-service-probes: each rule reads the replies to some
// probes (probes.ts ids; every probe when absent) with one regex, and names service, product, version,
// extra info and CPE with templates over its capture groups ($1.., $<name>, $0). Tried in order by the
// engine (banners.ts): the first hard match wins; a soft match names the service and probing goes on
// with the probes that can still say more. Binary protocols a regex cannot walk use a named decoder
// (decoders.ts) whose text output the regex reads; the rule itself stays here.
// Regexes read the reply as latin1 text, so \xNN matches byte NN.
import type { DecoderName } from './decoders.js'

/** What a reply taught us beyond the service's name (used by the risk checks). */
export interface ServiceFacts {
  /** The service asked for credentials (redis NOAUTH, postgres password request...). */
  authRequired?: boolean
  /** The service answered a command that should need credentials without any (redis INFO). */
  unauthenticated?: boolean
  /** Protected mode or similar: the service refused us for where we connect from. */
  refused?: boolean
  /** Capabilities the service announced (smtp EHLO, imap CAPABILITY). */
  starttls?: boolean
}

export interface MatchRule {
  service: string
  /** Reads replies to these probes only (nmap: the rule sits under that Probe). */
  probes?: readonly string[]
  /** Turns the reply into text first; `m` then reads that text. */
  decoder?: DecoderName
  /** With a decoder: must also match the raw reply (a byte signature the decoder drops). */
  raw?: RegExp
  m: RegExp
  /** nmap's softmatch: the service is known, product and version may come from a later probe. */
  soft?: boolean
  product?: string
  version?: string
  info?: string
  /** CPE 2.2 template, when products.ts's vocabulary does not already give it (cpeOf). */
  cpe?: string
  /** Banner pieces, joined; a piece whose groups all stayed empty is left out. Default: the reply's first line. */
  banner?: readonly string[]
  facts?: ServiceFacts
  /** Facts that hold when their regex matches the reply (or the decoded text). */
  factsIf?: Readonly<Partial<Record<keyof ServiceFacts, RegExp>>>
}

const re = (prefix: string, rest: string, flags = 'i') => new RegExp(prefix + rest, flags)

// Shared heads of the line-protocol rules (nmap repeats them in each match line).
const HTTP = String.raw`^(?<status>HTTP\/\d(?:\.\d)? \d{3}[^\r\n]*)`
const FTP = String.raw`^220[ -][\s\S]*?`
const SMTP = String.raw`^220[ -](?=[\s\S]*\b(?:E?SMTP|mail|Postfix|Exim|Sendmail)\b)[\s\S]*?`
const POP3 = String.raw`^\+OK\b[\s\S]*?`
const IMAP = String.raw`^\* (?:OK|PREAUTH|BYE)\b(?=[^\r\n]*(?:IMAP|Dovecot|Courier|Cyrus|ready))[\s\S]*?`
const STARTTLS = { starttls: /\bSTARTTLS\b/i }
/** The Server header's banner piece (dropped when the reply has none). */
const HTTP_BANNER = ['$<status>', ' | Server: $<server>']
/** MySQL HandshakeV10: 3-byte length, sequence 0, protocol 10, the NUL-terminated server version. */
const MYSQL = String.raw`^[\s\S]{3}\0\x0a`
/** PostgreSQL AuthenticationRequest: 'R', int32 length, int32 method. */
const PG_HEAD = String.raw`^R\0\0[\0-\x03][\s\S]`
/** server_version, sent only once authenticated (trust): "16.2 (Debian 16.2-1.pgdg120+2)" -> 16.2, info the rest. */
const PG_VERSION = String.raw`(?=(?:[\s\S]*?server_version\0(\d[\w.]*)[ (]*([^\0)]*)\)?\0)?)`
/** MongoDB reply header: length, requestID, responseTo, opCode 1 (OP_REPLY) or 2013 (OP_MSG). */
const MONGO = String.raw`^[\s\S]{12}(?:\x01|\xdd\x07)\0\0(?=[\s\S]{20})(?=[\s\S]*(?:ismaster|isWritablePrimary|maxWireVersion|buildinfo|version))[\s\S]*?`
/** TPKT version 3, then an X.224 Connection Confirm (0xd0), 11 bytes at least. */
const RDP_CC = String.raw`^\x03\0[\s\S]{3}[\xd0-\xdf][\s\S]{5}`
/** SMB1 Negotiate Protocol response (NetBIOS session header, \xffSMB, command 0x72, status 0), word count 17. */
const SMB1_NEG = String.raw`^\0[\s\S]{3}\xffSMBr\0\0\0\0[\s\S]{23}\x11`

const mongoWire = (wire: number, version: string): MatchRule => ({
  service: 'mongodb',
  probes: ['mongodb-ismaster'],
  m: re(MONGO, String.raw`\x10maxWireVersion\0` + `\\x${wire.toString(16).padStart(2, '0')}\\0\\0\\0`),
  product: 'MongoDB',
  version,
  banner: [`MongoDB wire protocol, maxWireVersion ${wire}`],
})
const pgAuth = (code: number, method: string, facts: ServiceFacts): MatchRule => ({
  service: 'postgresql',
  probes: ['postgres-startup'],
  m: re(PG_HEAD, `\\0\\0\\0\\x${code.toString(16).padStart(2, '0')}` + PG_VERSION, ''),
  product: 'PostgreSQL',
  version: '$1',
  info: '$2',
  banner: [`authentication: ${method}`, ', server_version $1'],
  facts,
})
const rdpSelected = (protocol: number): MatchRule => ({
  service: 'rdp',
  probes: ['rdp-x224'],
  m: re(RDP_CC, `\\x02[\\s\\S]{3}\\x0${protocol}\\0\\0\\0`, ''),
  product: 'Microsoft Terminal Services',
  cpe: 'cpe:/o:microsoft:windows',
  banner: [`X.224 Connection Confirm, selected protocol ${protocol}`],
})

export const MATCH_RULES: readonly MatchRule[] = [
  // ---- DNS over TCP, CHAOS TXT version.bind
  {
    service: 'domain',
    probes: ['dns-version-bind'],
    decoder: 'dns-txt',
    m: /^(\d+\.\d+(?:\.\d+)*)[-.\w]*$/,
    product: 'ISC BIND',
    version: '$1',
    banner: ['version.bind: $0'],
  },
  {
    service: 'domain',
    probes: ['dns-version-bind'],
    decoder: 'dns-txt',
    m: /^(PowerDNS|Knot DNS|NSD|dnsmasq|unbound|Microsoft DNS)[\s/-]*v?(\d[\w.]*)?/i,
    product: '$1',
    version: '$2',
    banner: ['version.bind: $0'],
  },
  { service: 'domain', probes: ['dns-version-bind'], decoder: 'dns-txt', m: /^$/, banner: ['DNS (version.bind not answered)'] },
  { service: 'domain', probes: ['dns-version-bind'], decoder: 'dns-txt', m: /^[\s\S]+$/, banner: ['version.bind: $0'] },

  // ---- SSH identification string
  { service: 'ssh', m: /^SSH-\d[\d.]*-dropbear(?:_(\S+))?(?=\s|$)/i, product: 'Dropbear sshd', version: '$1' },
  { service: 'ssh', m: /^SSH-\d[\d.]*-([^\s_]+)(?:_(\S+))?/, product: '$1', version: '$2' },

  // ---- HTTP: what the body names beats the Server header; then Jetty(...), then product/version tokens
  {
    service: 'http',
    m: re(
      HTTP,
      String.raw`(?=[\s\S]*"tagline"\s*:\s*"You Know, for Search")(?:[\s\S]*?\r?\nServer:[ \t]*(?<server>[^\r\n]*))?[\s\S]*?"number"\s*:\s*"(\d[\w.-]*)"`,
    ),
    product: 'Elasticsearch',
    version: '$3',
    banner: HTTP_BANNER,
  },
  {
    service: 'http',
    m: re(
      HTTP,
      String.raw`[\s\S]*?\r?\nServer:[ \t]*(?<server>(?:Apache-Coyote|Apache Tomcat|Tomcat)[^\r\n]*)[\s\S]*?Apache Tomcat\/(\d[\w.-]*)`,
    ),
    product: 'Apache Tomcat',
    version: '$3',
    banner: HTTP_BANNER,
  },
  {
    service: 'http',
    m: re(HTTP, String.raw`(?:\r?\n(?!Server:)[^\r\n]+)*\r?\n\r?\n[\s\S]*?Apache Tomcat\/(\d[\w.-]*)`),
    product: 'Apache Tomcat',
    version: '$2',
    banner: HTTP_BANNER,
  },
  {
    service: 'http',
    m: re(HTTP, String.raw`[\s\S]*?\r?\nServer:[ \t]*(?<server>Jetty\((\d+(?:\.\d+)*)[^\r\n]*)`),
    product: 'Jetty',
    version: '$3',
    banner: HTTP_BANNER,
  },
  {
    // "Apache/2.4.49 (Unix) OpenSSL/1.1.1" -> Apache 2.4.49; "Microsoft-IIS/10.0"; "nginx"; "Foo Bar 1.2".
    service: 'http',
    m: re(HTTP, String.raw`[\s\S]*?\r?\nServer:[ \t]*(?<server>([A-Za-z][\w .+-]*?)(?:[/ ]v?(\d[\w.+~-]*))?(?=[\s(]|$)[^\r\n]*)`),
    product: '$3',
    version: '$4',
    banner: HTTP_BANNER,
  },
  { service: 'http', m: re(HTTP, String.raw`[\s\S]*?\r?\nServer:[ \t]*(?<server>[^\r\n]*\S)`), product: '$2', banner: HTTP_BANNER },
  { service: 'http', m: re(HTTP, ''), banner: HTTP_BANNER },

  // ---- Redis (RESP answer to INFO)
  {
    service: 'redis',
    probes: ['redis-info'],
    m: /^\$\d+\r\n(?=[\s\S]*?redis_version:([^\r\n]*))(?=(?:[\s\S]*?redis_mode:([^\r\n]*))?)/,
    product: 'Redis key-value store',
    version: '$1',
    banner: ['redis_version:$1', ' redis_mode:$2'],
    facts: { unauthenticated: true },
  },
  {
    service: 'redis',
    probes: ['redis-info'],
    m: /^-NOAUTH\b|^-ERR operation not permitted/,
    product: 'Redis key-value store',
    facts: { authRequired: true },
  },
  { service: 'redis', probes: ['redis-info'], m: /^-DENIED Redis/, product: 'Redis key-value store', facts: { refused: true } },

  // ---- FTP 220 greetings
  { service: 'ftp', m: re(FTP, String.raw`\(vsFTPd (\d[\w.]*)\)`), product: 'vsftpd', version: '$1' },
  { service: 'ftp', m: re(FTP, String.raw`ProFTPD (\d[\w.]*)`), product: 'ProFTPD', version: '$1' },
  { service: 'ftp', m: re(FTP, 'Pure-FTPd'), product: 'Pure-FTPd' },
  { service: 'ftp', m: re(FTP, String.raw`FileZilla Server(?: version)? (\d[\w.]*)`), product: 'FileZilla Server', version: '$1' },
  { service: 'ftp', m: re(FTP, 'Microsoft FTP Service'), product: 'Microsoft ftpd' },
  { service: 'ftp', m: re(FTP, String.raw`wu-(\d[\w.]*)`), product: 'WU-FTPD', version: '$1' },
  { service: 'ftp', m: /^220[ -][^\r\n]*\bftp/i },

  // ---- SMTP 220 greetings
  { service: 'smtp', m: re(SMTP, 'ESMTP Postfix'), product: 'Postfix smtpd', factsIf: STARTTLS },
  { service: 'smtp', m: re(SMTP, String.raw`Exim (\d[\w.]*)`), product: 'Exim smtpd', version: '$1', factsIf: STARTTLS },
  { service: 'smtp', m: re(SMTP, String.raw`Sendmail (\d[\w.]*)`), product: 'Sendmail', version: '$1', factsIf: STARTTLS },
  {
    service: 'smtp',
    m: re(SMTP, String.raw`Microsoft ESMTP MAIL Service(?:, Version: (\d[\w.]*))?`),
    product: 'Microsoft Exchange smtpd',
    version: '$1',
    factsIf: STARTTLS,
  },
  { service: 'smtp', m: re(SMTP, 'OpenSMTPD'), product: 'OpenSMTPD', factsIf: STARTTLS },
  { service: 'smtp', m: re(SMTP, String.raw`Haraka\/?(\d[\w.]*)?`), product: 'Haraka', version: '$1', factsIf: STARTTLS },
  { service: 'smtp', m: re(SMTP, ''), factsIf: STARTTLS },

  // ---- POP3 and IMAP greetings
  { service: 'pop3', m: re(POP3, 'Dovecot'), product: 'Dovecot' },
  { service: 'pop3', m: re(POP3, String.raw`Cyrus (?:IMAP|POP3)\S* v?(\d[\w.]*)`), product: 'Cyrus', version: '$1' },
  { service: 'pop3', m: re(POP3, 'Microsoft Exchange (?:IMAP4|POP3)'), product: 'Microsoft Exchange' },
  { service: 'pop3', m: /^\+OK\b/ },
  { service: 'imap', m: re(IMAP, 'Dovecot'), product: 'Dovecot', factsIf: STARTTLS },
  { service: 'imap', m: re(IMAP, String.raw`Cyrus (?:IMAP|POP3)\S* v?(\d[\w.]*)`), product: 'Cyrus', version: '$1', factsIf: STARTTLS },
  { service: 'imap', m: re(IMAP, 'Courier-IMAP'), product: 'Courier Imapd', factsIf: STARTTLS },
  { service: 'imap', m: re(IMAP, 'Microsoft Exchange (?:IMAP4|POP3)'), product: 'Microsoft Exchange', factsIf: STARTTLS },
  { service: 'imap', m: re(IMAP, ''), factsIf: STARTTLS },

  // ---- MySQL / MariaDB handshake, or the error packet sent instead of it
  {
    service: 'mysql',
    m: re(MYSQL, String.raw`((?:5\.5\.5-)?(\d[\w.]*)-MariaDB[^\0]*)\0`),
    product: 'MariaDB',
    version: '$2',
    banner: ['MySQL protocol 10, server version $1'],
  },
  {
    service: 'mysql',
    m: re(MYSQL, String.raw`(\d+\.\d+[^\0]*)\0`, ''),
    product: 'MySQL',
    version: '$1',
    banner: ['MySQL protocol 10, server version $1'],
  },
  {
    service: 'mysql',
    m: /^[\s\S]{3}\0\xff[\s\S]{2}(?=[\s\S]*MariaDB)([\s\S]*)/i,
    product: 'MariaDB',
    banner: ['$1'],
    facts: { refused: true },
  },
  {
    service: 'mysql',
    m: /^[\s\S]{3}\0\xff[\s\S]{2}(?=[\s\S]*MySQL)([\s\S]*)/i,
    product: 'MySQL',
    banner: ['$1'],
    facts: { refused: true },
  },

  // ---- PostgreSQL answer to a StartupMessage: how it authenticates, or an error
  pgAuth(0, 'none (trust)', { unauthenticated: true }),
  pgAuth(2, 'Kerberos', { authRequired: true }),
  pgAuth(3, 'cleartext password', { authRequired: true }),
  pgAuth(5, 'MD5 password', { authRequired: true }),
  pgAuth(7, 'GSSAPI', { authRequired: true }),
  pgAuth(9, 'SSPI', { authRequired: true }),
  pgAuth(10, 'SASL', { authRequired: true }),
  {
    service: 'postgresql',
    probes: ['postgres-startup'],
    m: re(PG_HEAD, String.raw`\0\0\0[\0-\x0c]`, ''),
    product: 'PostgreSQL',
    banner: ['authentication requested'],
    facts: { authRequired: true },
  },
  {
    service: 'postgresql',
    probes: ['postgres-startup'],
    m: /^E\0\0[\0-\x0f][\s\S](?=(?:[^\0]*\0)*?S(?:FATAL|ERROR|PANIC)\0)(?:[^\0]*\0)*?M([^\0]*(?:password|authentication)[^\0]*)/,
    product: 'PostgreSQL',
    banner: ['$1'],
    facts: { authRequired: true },
  },
  {
    service: 'postgresql',
    probes: ['postgres-startup'],
    m: /^E\0\0[\0-\x0f][\s\S](?=(?:[^\0]*\0)*?S(?:FATAL|ERROR|PANIC)\0)(?:[^\0]*\0)*?M([^\0]*)/,
    product: 'PostgreSQL',
    banner: ['$1'],
  },

  // ---- MongoDB: buildInfo's version string, else the first release speaking the announced wire version
  {
    service: 'mongodb',
    probes: ['mongodb-ismaster'],
    m: re(MONGO, String.raw`\x02version\0[\s\S]{4}(\d[\w.-]*)\0`, ''),
    product: 'MongoDB',
    version: '$1',
    banner: ['MongoDB $1'],
  },
  mongoWire(6, '3.6'),
  mongoWire(7, '4.0'),
  mongoWire(8, '4.2'),
  mongoWire(9, '4.4'),
  mongoWire(13, '5.0'),
  mongoWire(17, '6.0'),
  mongoWire(21, '7.0'),
  mongoWire(25, '8.0'),
  { service: 'mongodb', probes: ['mongodb-ismaster'], m: re(MONGO, ''), product: 'MongoDB', banner: ['MongoDB wire protocol'] },

  // ---- RDP: X.224 Connection Confirm, with the RDP Negotiation Response when there is one
  rdpSelected(0),
  rdpSelected(1),
  rdpSelected(2),
  rdpSelected(8),
  {
    service: 'rdp',
    probes: ['rdp-x224'],
    m: re(RDP_CC, String.raw`\x03`, ''),
    product: 'Microsoft Terminal Services',
    cpe: 'cpe:/o:microsoft:windows',
    banner: ['X.224 Connection Confirm, negotiation failure'],
  },
  {
    service: 'rdp',
    probes: ['rdp-x224'],
    m: re(RDP_CC, '', ''),
    product: 'Microsoft Terminal Services',
    cpe: 'cpe:/o:microsoft:windows',
    banner: ['X.224 Connection Confirm'],
  },

  // ---- SMB: Negotiate Protocol response; Samba picks "NT LANMAN 1.0" (index 6 of our list), Windows "NT LM 0.12" (7)
  {
    service: 'microsoft-ds',
    probes: ['smb-negotiate'],
    m: re(SMB1_NEG, String.raw`\x06\0`, ''),
    product: 'Samba smbd',
    banner: ['SMB1 negotiate: NT LANMAN 1.0'],
  },
  {
    service: 'microsoft-ds',
    probes: ['smb-negotiate'],
    m: re(SMB1_NEG, String.raw`\x07\0`, ''),
    product: 'Microsoft Windows microsoft-ds',
    cpe: 'cpe:/o:microsoft:windows',
    banner: ['SMB1 negotiate: NT LM 0.12'],
  },
  { service: 'microsoft-ds', probes: ['smb-negotiate'], m: /^\0[\s\S]{3}[\xff\xfe]SMB/, banner: ['SMB negotiate response'] },

  // ---- LDAP: answer to an LDAPv2 anonymous bind; OpenLDAP 2.x refuses v2 with its own words
  {
    service: 'ldap',
    probes: ['ldap-bind'],
    m: /^0[\s\S]{1,5}\x02\x01\x01a[\s\S]*?historical protocol version requested, use LDAPv3 instead/,
    product: 'OpenLDAP',
    cpe: 'cpe:/a:openldap:openldap',
    banner: ['LDAP bind: historical protocol version requested, use LDAPv3 instead'],
  },
  { service: 'ldap', probes: ['ldap-bind'], m: /^0[\s\S]{1,5}\x02\x01\x01a/, banner: ['LDAP bind response'] },

  // ---- MQTT: CONNACK, then the broker's $SYS/broker/version when it publishes one
  {
    service: 'mqtt',
    probes: ['mqtt-connect'],
    m: /^\x20\x02[\0\x01]\0[\s\S]*?\$SYS\/broker\/version[\s\S]{0,2}?(mosquitto) version (\d[\w.]*)/,
    product: 'Mosquitto',
    version: '$2',
    cpe: 'cpe:/a:eclipse:mosquitto:$2',
    banner: ['MQTT CONNACK; $SYS/broker/version: $1 version $2'],
  },
  { service: 'mqtt', probes: ['mqtt-connect'], m: /^\x20\x02[\0\x01][\0-\x05]/, banner: ['MQTT CONNACK'] },

  // ---- AMQP 0-9-1: Connection.Start names the broker; a bare protocol header only says "AMQP"
  {
    service: 'amqp',
    probes: ['amqp-header'],
    decoder: 'amqp-start',
    m: /^amqp=(\d+-\d+)$(?=[\s\S]*^product=(RabbitMQ)$)(?=(?:[\s\S]*^version=(.+)$)?)/m,
    product: 'RabbitMQ',
    version: '$3',
    info: 'AMQP $1',
    cpe: 'cpe:/a:vmware:rabbitmq:$3',
    banner: ['AMQP Connection.Start: $2', ' $3'],
  },
  {
    service: 'amqp',
    probes: ['amqp-header'],
    decoder: 'amqp-start',
    m: /^amqp=(\d+-\d+)$(?=[\s\S]*^product=(.+)$)(?=(?:[\s\S]*^version=(.+)$)?)/m,
    product: '$2',
    version: '$3',
    info: 'AMQP $1',
    banner: ['AMQP Connection.Start: $2', ' $3'],
  },
  { service: 'amqp', probes: ['amqp-header'], decoder: 'amqp-start', m: /^amqp=/, banner: ['AMQP Connection.Start'] },
  { service: 'amqp', m: /^AMQP[\0\x01][\0\x01][\0\x09][\x01\x09\x0a]/, soft: true, banner: ['AMQP protocol header'] },

  // ---- Telnet option negotiation (the banner is the text after it)
  {
    service: 'telnet',
    decoder: 'telnet',
    raw: /^\xff\xfd\x18\xff\xfd \xff\xfd#\xff\xfd'/,
    m: /^/,
    product: 'Linux telnetd',
    cpe: 'cpe:/o:linux:linux_kernel',
  },
  { service: 'telnet', decoder: 'telnet', m: /^\s*$/, banner: ['telnet option negotiation'] },
  { service: 'telnet', decoder: 'telnet', m: /^/ },

  // ---- VNC: RFB protocol version ("003.008" -> 3.8)
  { service: 'vnc', m: /^RFB 0*(\d+)\.0*(\d+)\n/, version: '$1.$2' },

  // ---- memcached: stats, or the version command
  {
    service: 'memcached',
    probes: ['memcached-stats'],
    m: /^STAT pid \d+(?=(?:[\s\S]*?STAT version ([^\r\n]+))?)/,
    product: 'Memcached',
    version: '$1',
    facts: { unauthenticated: true },
  },
  { service: 'memcached', m: /^VERSION (\d[\w.]*)\r\n/, product: 'Memcached', version: '$1', facts: { unauthenticated: true } },
]
