// Pure banner parsing: the bytes a service sent (after one of our probes) -> service, product, version.
// Rules are data, tried in order; the first that recognises the reply wins. No I/O here.

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

export interface Identified {
  service: string
  product: string | null
  version: string | null
  banner: string | null
  facts: ServiceFacts
}

interface BannerRule {
  service: string
  /** Only replies to these probes (ids of probes.ts); every probe when absent. */
  probes?: readonly string[]
  parse(reply: Buffer, text: string): Omit<Identified, 'service'> | null
}

/** Printable form of some bytes for `banner`: first line(s), control bytes as '.', at most `max` chars. */
export function printable(buf: Buffer | string, max = 200, lines = 1): string {
  const text = typeof buf === 'string' ? buf : buf.toString('latin1')
  const kept = text.split(/\r?\n/).filter((l) => l.trim()).slice(0, lines).join(' | ')
  const clean = kept.replace(/[^\x20-\x7e]/g, '.').replace(/\.{3,}/g, '...').trim()
  return clean.length > max ? clean.slice(0, max - 3) + '...' : clean
}

const firstLine = (text: string) => printable(text)
const found = (product: string | null, version: string | null, banner: string | null, facts: ServiceFacts = {}) => ({
  product,
  version,
  banner,
  facts,
})

/** "Apache/2.4.49 (Unix) OpenSSL/1.1.1" -> Apache, 2.4.49; "Microsoft-IIS/10.0" -> Microsoft-IIS, 10.0. */
export function splitProductToken(server: string): { product: string | null; version: string | null } {
  const m = /^\s*([A-Za-z][\w .+-]*?)(?:[/ ]v?(\d[\w.+~-]*))?(?:\s|$|\()/.exec(server)
  if (!m) return { product: server.trim() || null, version: null }
  return { product: m[1].trim(), version: m[2] ?? null }
}

/** The product of an HTTP Server header: "Jetty(9.4.43.v20210629)" is Jetty 9.4.43 (the build date dropped). */
function httpServerProduct(server: string): { product: string | null; version: string | null } {
  const jetty = /^Jetty\((\d+(?:\.\d+)*)(?:\.v\d+|[.-][\w-]*)?\)/i.exec(server)
  if (jetty) return { product: 'Jetty', version: jetty[1]! }
  return splitProductToken(server)
}

/** Product/version patterns inside line banners: [regex, product, version group]. */
type ProductPattern = readonly [RegExp, string, number | null]
const productFrom = (text: string, patterns: readonly ProductPattern[]) => {
  for (const [re, product, group] of patterns) {
    const m = re.exec(text)
    if (m) return { product, version: group === null ? null : (m[group] ?? null) }
  }
  return { product: null, version: null }
}

const FTP_PRODUCTS: readonly ProductPattern[] = [
  [/\(vsFTPd (\d[\w.]*)\)/i, 'vsftpd', 1],
  [/ProFTPD (\d[\w.]*)/i, 'ProFTPD', 1],
  [/Pure-FTPd/i, 'Pure-FTPd', null],
  [/FileZilla Server(?: version)? (\d[\w.]*)/i, 'FileZilla Server', 1],
  [/Microsoft FTP Service/i, 'Microsoft ftpd', null],
  [/wu-(\d[\w.]*)/i, 'WU-FTPD', 1],
]
const SMTP_PRODUCTS: readonly ProductPattern[] = [
  [/ESMTP Postfix/i, 'Postfix smtpd', null],
  [/Exim (\d[\w.]*)/i, 'Exim smtpd', 1],
  [/Sendmail (\d[\w.]*)/i, 'Sendmail', 1],
  [/Microsoft ESMTP MAIL Service(?:, Version: (\d[\w.]*))?/i, 'Microsoft Exchange smtpd', 1],
  [/OpenSMTPD/i, 'OpenSMTPD', null],
  [/Haraka\/?(\d[\w.]*)?/i, 'Haraka', 1],
]
const MAIL_PRODUCTS: readonly ProductPattern[] = [
  [/Dovecot/i, 'Dovecot', null],
  [/Cyrus (?:IMAP|POP3)[^\s]* v?(\d[\w.]*)/i, 'Cyrus', 1],
  [/Courier-IMAP/i, 'Courier Imapd', null],
  [/Microsoft Exchange (?:IMAP4|POP3)/i, 'Microsoft Exchange', null],
]

/**
 * The first TXT string of a DNS-over-TCP answer to our version.bind query (id 0x5741), '' when it is a
 * DNS answer without one (refused, empty), undefined when the bytes are not our DNS answer.
 */
function dnsTxtAnswer(b: Buffer): string | undefined {
  if (b.length < 14 || b.readUInt16BE(0) !== b.length - 2 || b.readUInt16BE(2) !== 0x5741 || !(b[4]! & 0x80)) return undefined
  const msg = b.subarray(2)
  const qd = msg.readUInt16BE(4)
  const an = msg.readUInt16BE(6)
  let o = 12
  const skipName = () => {
    while (o < msg.length) {
      const len = msg[o]!
      if (len === 0) return void o++
      if ((len & 0xc0) === 0xc0) return void (o += 2)
      o += len + 1
    }
  }
  for (let i = 0; i < qd; i++) {
    skipName()
    o += 4
  }
  for (let i = 0; i < an && o + 10 <= msg.length; i++) {
    skipName()
    const type = msg.readUInt16BE(o)
    const rdlen = msg.readUInt16BE(o + 8)
    o += 10
    if (type === 16 && rdlen > 0 && o + rdlen <= msg.length) return msg.toString('latin1', o + 1, o + 1 + Math.min(msg[o]!, rdlen - 1))
    o += rdlen
  }
  return ''
}

const u32be = (b: Buffer, o: number) => (o + 4 <= b.length ? b.readUInt32BE(o) : -1)
const cstring = (b: Buffer, from: number) => {
  const end = b.indexOf(0, from)
  return end < 0 ? null : b.toString('latin1', from, end)
}

export const BANNER_RULES: readonly BannerRule[] = [
  {
    // DNS over TCP answering the CHAOS TXT query version.bind (probes.ts dns-version-bind).
    service: 'domain',
    probes: ['dns-version-bind'],
    parse(b) {
      const txt = dnsTxtAnswer(b)
      if (txt === undefined) return null
      const bind = txt ? /^(\d+\.\d+(?:\.\d+)*)(?:[-.\w]*)?$/.exec(txt.trim()) : null
      const named = txt ? /^(PowerDNS|Knot DNS|NSD|dnsmasq|unbound|Microsoft DNS)[\s/-]*v?(\d[\w.]*)?/i.exec(txt.trim()) : null
      if (bind) return found('ISC BIND', bind[1]!, `version.bind: ${printable(txt!)}`)
      if (named) return found(named[1]!, named[2] ?? null, `version.bind: ${printable(txt!)}`)
      return found(null, null, txt ? `version.bind: ${printable(txt)}` : 'DNS (version.bind not answered)')
    },
  },
  {
    service: 'ssh',
    parse(_b, text) {
      const m = /^SSH-(\d[\d.]*)-([^\s\r\n]+)(?:[ \t]+([^\r\n]*))?/.exec(text)
      if (!m) return null
      const [name, ...rest] = m[2].split('_')
      const product = name === 'OpenSSH' ? 'OpenSSH' : /^dropbear$/i.test(name) ? 'Dropbear sshd' : name
      return found(product, rest.join('_') || null, firstLine(text))
    },
  },
  {
    service: 'http',
    parse(_b, text) {
      if (!/^HTTP\/\d(?:\.\d)? \d{3}/.test(text)) return null
      const server = /\r?\nServer:[ \t]*([^\r\n]+)/i.exec(text)?.[1]?.trim() ?? null
      let { product, version } = server ? httpServerProduct(server) : { product: null, version: null }
      const body = text.slice(text.indexOf('\r\n\r\n') + 4)
      // What the answer's body names better than the Server header (or in its absence).
      const es = /"tagline"\s*:\s*"You Know, for Search"/.test(body) ? /"number"\s*:\s*"(\d[\w.-]*)"/.exec(body) : null
      const tomcat = /Apache Tomcat\/(\d[\w.-]*)/.exec(body)
      if (es) ({ product, version } = { product: 'Elasticsearch', version: es[1]! })
      else if (tomcat && (!product || /coyote|tomcat/i.test(product))) ({ product, version } = { product: 'Apache Tomcat', version: tomcat[1]! })
      const status = firstLine(text)
      return found(product, version, server ? `${status} | Server: ${printable(server)}` : status)
    },
  },
  {
    service: 'redis',
    probes: ['redis-info'],
    parse(_b, text) {
      if (/^\$\d+\r\n/.test(text) && /redis_version:/.test(text)) {
        const version = /redis_version:([^\r\n]+)/.exec(text)?.[1]?.trim() ?? null
        const mode = /redis_mode:([^\r\n]+)/.exec(text)?.[1]?.trim()
        return found('Redis key-value store', version, `redis_version:${version}${mode ? ` redis_mode:${mode}` : ''}`, { unauthenticated: true })
      }
      if (/^-NOAUTH\b/.test(text) || /^-ERR operation not permitted/.test(text)) return found('Redis key-value store', null, firstLine(text), { authRequired: true })
      if (/^-DENIED Redis/.test(text)) return found('Redis key-value store', null, firstLine(text), { refused: true })
      return null
    },
  },
  {
    service: 'ftp',
    parse(_b, text) {
      if (!/^220[ -]/.test(text)) return null
      const { product, version } = productFrom(text, FTP_PRODUCTS)
      if (!product && !/\bftp/i.test(firstLine(text))) return null
      return found(product, version, firstLine(text))
    },
  },
  {
    service: 'smtp',
    parse(_b, text) {
      if (!/^220[ -]/.test(text) || !/\b(E?SMTP|mail|Postfix|Exim|Sendmail)\b/i.test(text)) return null
      const { product, version } = productFrom(text, SMTP_PRODUCTS)
      return found(product, version, firstLine(text), /\bSTARTTLS\b/i.test(text) ? { starttls: true } : {})
    },
  },
  {
    service: 'pop3',
    parse(_b, text) {
      if (!/^\+OK\b/.test(text)) return null
      const { product, version } = productFrom(text, MAIL_PRODUCTS)
      return found(product, version, firstLine(text))
    },
  },
  {
    service: 'imap',
    parse(_b, text) {
      if (!/^\* (OK|PREAUTH|BYE)\b/.test(text) || !/IMAP|Dovecot|Courier|Cyrus|ready/i.test(firstLine(text))) return null
      const { product, version } = productFrom(text, MAIL_PRODUCTS)
      return found(product, version, firstLine(text), /\bSTARTTLS\b/i.test(text) ? { starttls: true } : {})
    },
  },
  {
    service: 'mysql',
    parse(b) {
      // Protocol::HandshakeV10: 3-byte length, sequence 0, protocol version 10, NUL-terminated version.
      if (b.length < 6 || b[3] !== 0) return null
      const len = b[0] | (b[1] << 8) | (b[2] << 16)
      if (len < 2 || len > b.length - 4 + 64 * 1024) return null
      if (b[4] === 0x0a) {
        const raw = cstring(b, 5)
        if (!raw || !/^\d+\.\d+/.test(raw)) return null
        const maria = /^(?:5\.5\.5-)?(\d[\w.]*)-MariaDB/i.exec(raw)
        const version = maria ? maria[1] : raw
        return found(maria ? 'MariaDB' : 'MySQL', version, `MySQL protocol 10, server version ${raw}`)
      }
      // ERR packet sent before the handshake, e.g. "Host '10.0.0.5' is not allowed to connect to this MySQL server".
      if (b[4] === 0xff && /MySQL|MariaDB/i.test(b.toString('latin1', 7))) {
        return found(/MariaDB/i.test(b.toString('latin1')) ? 'MariaDB' : 'MySQL', null, printable(b.subarray(7)), { refused: true })
      }
      return null
    },
  },
  {
    service: 'postgresql',
    probes: ['postgres-startup'],
    parse(b) {
      const type = String.fromCharCode(b[0] ?? 0)
      const len = u32be(b, 1)
      if (type === 'R' && len >= 8 && len < 1024) {
        const code = u32be(b, 5)
        if (code < 0 || code > 12) return null
        const version = /server_version\0([^\0]+)\0/.exec(b.toString('latin1'))?.[1] ?? null
        const method = AUTH_METHODS[code] ?? `method ${code}`
        const facts: ServiceFacts = code === 0 ? { unauthenticated: true } : { authRequired: true }
        return found('PostgreSQL', version, `authentication: ${method}${version ? `, server_version ${version}` : ''}`, facts)
      }
      if (type === 'E' && len >= 8 && len < 4096) {
        const fields = b.toString('latin1', 5, 1 + len)
        if (!/(^|\0)S(FATAL|ERROR|PANIC)\0/.test(fields)) return null
        const message = /(?:^|\0)M([^\0]*)/.exec(fields)?.[1] ?? ''
        return found('PostgreSQL', null, printable(message), /password|authentication/i.test(message) ? { authRequired: true } : {})
      }
      return null
    },
  },
  {
    service: 'mongodb',
    probes: ['mongodb-ismaster'],
    parse(b, text) {
      // MsgHeader: length, requestID, responseTo, opCode (1 = OP_REPLY, 2013 = OP_MSG), all int32 LE.
      if (b.length < 36) return null
      const op = b.readInt32LE(12)
      if (op !== 1 && op !== 2013) return null
      if (!/ismaster|isWritablePrimary|maxWireVersion/i.test(text)) return null
      const wire = /maxWireVersion\0/.exec(text)
      const maxWire = wire ? b.readInt32LE(wire.index + wire[0].length) : null
      const version = maxWire !== null ? (MONGO_WIRE[maxWire] ?? null) : null
      return found('MongoDB', version, `MongoDB wire protocol${maxWire !== null ? `, maxWireVersion ${maxWire}` : ''}`)
    },
  },
  {
    service: 'rdp',
    probes: ['rdp-x224'],
    parse(b) {
      // TPKT version 3, then an X.224 Connection Confirm (0xd0).
      if (b.length < 11 || b[0] !== 3 || b[1] !== 0 || (b[5] & 0xf0) !== 0xd0) return null
      const negType = b.length >= 19 ? b[11] : null
      const note = negType === 2 ? `, selected protocol ${b.readUInt32LE(15)}` : negType === 3 ? ', negotiation failure' : ''
      return found('Microsoft Terminal Services', null, `X.224 Connection Confirm${note}`)
    },
  },
  {
    service: 'telnet',
    parse(b) {
      // IAC (255) followed by WILL/WONT/DO/DONT option negotiation.
      if (b.length < 3 || b[0] !== 0xff || b[1] < 0xfb) return null
      const text = b.toString('latin1').replace(/\xff[\xfb-\xfe][\s\S]|\xff[\xf0-\xfa]/g, '')
      return found(null, null, printable(text) || 'telnet option negotiation')
    },
  },
  {
    service: 'vnc',
    parse(_b, text) {
      const m = /^RFB (\d{3})\.(\d{3})\n/.exec(text)
      return m ? found(null, `${Number(m[1])}.${Number(m[2])}`, firstLine(text)) : null
    },
  },
  {
    service: 'memcached',
    probes: ['memcached-stats'],
    parse(_b, text) {
      if (!/^STAT pid \d+/.test(text)) return null
      return found('Memcached', /STAT version ([^\r\n]+)/.exec(text)?.[1] ?? null, firstLine(text), { unauthenticated: true })
    },
  },
]

const AUTH_METHODS: Record<number, string> = { 0: 'none (trust)', 2: 'Kerberos', 3: 'cleartext password', 5: 'MD5 password', 7: 'GSSAPI', 9: 'SSPI', 10: 'SASL' }
/** maxWireVersion -> first MongoDB release that speaks it (the server's minimum version). */
const MONGO_WIRE: Record<number, string> = { 6: '3.6', 7: '4.0', 8: '4.2', 9: '4.4', 13: '5.0', 17: '6.0', 21: '7.0', 25: '8.0' }

/** A TLS record (handshake or alert) where plain text was expected: the port wants TLS. */
export const looksLikeTls = (b: Buffer) => b.length >= 3 && (b[0] === 0x15 || b[0] === 0x16) && b[1] === 3 && b[2] <= 4

/** Applies the rules to one reply to probe `probeId`; null when nothing recognises it. */
export function identify(probeId: string, reply: Buffer): Identified | null {
  if (!reply.length) return null
  const text = reply.toString('latin1')
  for (const rule of BANNER_RULES) {
    if (rule.probes && !rule.probes.includes(probeId)) continue
    const r = rule.parse(reply, text)
    if (r) return { service: rule.service, ...r }
  }
  return null
}
