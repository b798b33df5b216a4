// The full service bed: one service per port on one loopback address, standard ports where two
// products do not share one, each speaking its real protocol well enough (greetings, handshakes, the
// answers real servers give to nmap's probes as well as Ward's) to be named with product and version
// by both Ward and nmap -sV. Binding ports below 1024 needs root (tests run as root; the bench runs in
// a network namespace). Reuses tcp-services.ts for redis, RDP and VNC.
import net from 'node:net'
import { lines, startTcpServices } from './tcp-services.js'

export interface Expected {
  /** Ward's names: service, product, version, CPE, and the probe whose answer names it. */
  service: string | null
  product: string | null
  /** null: the protocol does not carry it (any answer is right). */
  version: string | null
  cpe: string | null
  probe: string | null
}

export interface BedService {
  name: string
  port: number
  expect: Expected
  /** nmap's names for the same service when they differ from Ward's (ms-wbt-server for rdp...). */
  aliases?: readonly string[]
}

type Handler = (s: net.Socket) => void

const e = (service: string | null, product: string | null, version: string | null, cpe: string | null, probe: string | null): Expected => ({
  service,
  product,
  version,
  cpe,
  probe,
})

// ------------------------------------------------------------------ line protocols

const greet =
  (text: string, onLine?: (line: string, s: net.Socket) => void): Handler =>
  (s) => {
    s.write(text)
    lines(s, (line) => (/^QUIT\b/i.test(line) ? void s.end() : onLine?.(line, s)))
  }

const ftp = (banner: string) => greet(banner, (_l, s) => s.write('530 Please login with USER and PASS.\r\n'))
const smtp = (banner: string, host: string) =>
  greet(banner, (l, s) => {
    if (/^(EHLO|HELO)\b/i.test(l)) s.write(`250-${host}\r\n250-PIPELINING\r\n250-SIZE 10240000\r\n250-STARTTLS\r\n250 8BITMIME\r\n`)
    else s.write('502 5.5.2 Error: command not recognized\r\n')
  })

// ------------------------------------------------------------------ HTTP

const DATE = 'Wed, 25 Nov 2026 06:40:00 GMT'

/** Answers each request (a blank line ends it) with `reply(httpVersion)`, then closes, as HTTP/1.0 clients expect. */
const http =
  (reply: (version: string) => string): Handler =>
  (s) => {
    let req = ''
    s.on('data', (d) => {
      req += d.toString('latin1')
      if (!/\r?\n\r?\n/.test(req)) return
      const version = /^[A-Z]+ \S+ HTTP\/(1\.[01])/.exec(req)?.[1] ?? '1.1'
      s.end(reply(version))
    })
  }
const page = (status: string, headers: string[], body: string) =>
  `${status}\r\n${headers.map((h) => `${h}\r\n`).join('')}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
const HTML = '<html><head><title>Welcome</title></head><body>ward service bed</body></html>'

const ES_BODY = (v: string) =>
  `{\n  "name" : "bed-node",\n  "cluster_name" : "ward-bed",\n  "cluster_uuid" : "Tq1CvPnVQ0yBz4k8o1mX2A",\n  "version" : {\n    "number" : "${v}",\n    "build_flavor" : "default",\n    "build_type" : "deb",\n    "build_hash" : "747e1cc71def077253878a59143c1f785afa92b9",\n    "build_date" : "2021-01-13T00:42:12.435326Z",\n    "build_snapshot" : false,\n    "lucene_version" : "8.7.0",\n    "minimum_wire_compatibility_version" : "6.8.0",\n    "minimum_index_compatibility_version" : "6.0.0-beta1"\n  },\n  "tagline" : "You Know, for Search"\n}\n`
const TOMCAT_BODY = (v: string) =>
  `\n\n\n<!DOCTYPE html>\n<html lang="en">\n    <head>\n        <meta charset="UTF-8" />\n        <title>Apache Tomcat/${v}</title>\n        <link href="favicon.ico" rel="icon" type="image/x-icon" />\n    </head>\n    <body><h1>If you're seeing this, you've successfully installed Tomcat. Congratulations!</h1></body>\n</html>\n`

// ------------------------------------------------------------------ binary protocols

const u16be = (n: number) => Buffer.from([(n >> 8) & 255, n & 255])
const u32be = (n: number) => Buffer.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255])
const i32le = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeInt32LE(n)
  return b
}

/** Reads length-framed messages: `frame(buf)` returns a whole message's length or 0 (need more). */
function framed(s: net.Socket, frame: (buf: Buffer) => number, onMessage: (msg: Buffer) => void) {
  let buf = Buffer.alloc(0)
  s.on('data', (d) => {
    buf = Buffer.concat([buf, d])
    for (let n: number; buf.length && (n = frame(buf)) > 0 && n <= buf.length; ) {
      const msg = buf.subarray(0, n)
      buf = buf.subarray(n)
      onMessage(msg)
      if (s.destroyed) return
    }
  })
}

/** BIND over TCP: version.bind (CHAOS TXT) answered, every other query NOTIMP. */
const dns =
  (version: string): Handler =>
  (s) =>
    framed(
      s,
      (b) => (b.length >= 2 ? 2 + b.readUInt16BE(0) : 0),
      (m) => {
        const q = m.subarray(2)
        if (q.length < 12) return void s.destroy()
        const isVersionBind = q.subarray(12).toString('latin1').toLowerCase().startsWith('\x07version\x04bind\0\0\x10\0\x03')
        const question = q.subarray(12, 12 + 18) // \x07version\x04bind\0, type TXT, class CH
        let msg: Buffer
        if (isVersionBind && q.readUInt16BE(4) === 1) {
          const t = Buffer.from(version, 'latin1')
          const answer = Buffer.concat([
            Buffer.from([0xc0, 0x0c, 0, 16, 0, 3, 0, 0, 0, 0]),
            u16be(t.length + 1),
            Buffer.from([t.length]),
            t,
          ])
          msg = Buffer.concat([q.subarray(0, 2), Buffer.from([0x84 | (q[2]! & 1), 0x00, 0, 1, 0, 1, 0, 0, 0, 0]), question, answer])
        } else msg = Buffer.concat([q.subarray(0, 2), Buffer.from([0x80 | (q[2]! & 0x79), 0x04, 0, 0, 0, 0, 0, 0, 0, 0])])
        s.write(Buffer.concat([u16be(msg.length), msg]))
      },
    )

function mysqlGreeting(version: string): Buffer {
  const payload = Buffer.concat([
    Buffer.from([0x0a]),
    Buffer.from(`${version}\0`, 'latin1'),
    Buffer.from([0x2a, 0, 0, 0]), // connection id
    Buffer.from('Z7~kQ#2a\0', 'latin1'),
    Buffer.from([0xff, 0xf7, 0x08, 0x02, 0x00, 0x0f, 0x80, 21]),
    Buffer.alloc(10),
    Buffer.from('p9$Wl0Yr!x4m\0', 'latin1'),
    Buffer.from('mysql_native_password\0', 'latin1'),
  ])
  return Buffer.concat([Buffer.from([payload.length & 255, payload.length >> 8, 0, 0]), payload])
}

const pgMsg = (type: string, body: Buffer) => Buffer.concat([Buffer.from(type, 'latin1'), u32be(4 + body.length), body])
const pgError = (code: string, message: string, line: number) =>
  pgMsg('E', Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0Fpostmaster.c\0L${line}\0RProcessStartupPacket\0\0`, 'latin1'))

/**
 * PostgreSQL 14.5 with trust authentication: a v3 StartupMessage is let in (server_version follows); an
 * SSLRequest gets 'N'; other protocol versions and bad lengths get postmaster's FATAL errors, as nmap's
 * probes provoke them (the source line numbers are those of 14.5's postmaster.c).
 */
const postgres =
  (version: string, full: string): Handler =>
  (s) => {
    let buf = Buffer.alloc(0)
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d])
      while (buf.length >= 8) {
        const len = buf.readUInt32BE(0)
        if (len < 8 || len > 10000) return void s.end(pgError('08P01', 'invalid length of startup packet', 2065))
        if (buf.length < len) return
        const code = buf.readUInt32BE(4)
        buf = buf.subarray(len)
        if (code === 80877103) s.write('N')
        else if (code === 0x00030000) {
          const param = (k: string, v: string) => pgMsg('S', Buffer.from(`${k}\0${v}\0`, 'latin1'))
          return void s.write(
            Buffer.concat([
              pgMsg('R', u32be(0)),
              param('server_version', `${version} (${full})`),
              param('server_encoding', 'UTF8'),
              pgMsg('K', Buffer.alloc(8, 7)),
              pgMsg('Z', Buffer.from('I')),
            ]),
          )
        } else
          return void s.end(
            pgError('0A000', `unsupported frontend protocol ${code >>> 16}.${code & 0xffff}: server supports 3.0 to 3.0`, 2138),
          )
      }
    })
  }

/** memcached: stats, version, and ERROR for anything else. */
const memcached =
  (version: string): Handler =>
  (s) =>
    greet('', (l, sock) => {
      if (/^stats\s*$/i.test(l))
        sock.write(
          `STAT pid 4242\r\nSTAT uptime 86400\r\nSTAT time 1795588800\r\nSTAT version ${version}\r\nSTAT libevent 2.1.12-stable\r\nSTAT pointer_size 64\r\nSTAT curr_connections 2\r\nEND\r\n`,
        )
      else if (/^version\s*$/i.test(l)) sock.write(`VERSION ${version}\r\n`)
      else sock.write('ERROR\r\n')
    })(s)

/** A BSON document of strings, int32s, doubles and booleans. */
function bson(fields: Array<[string, string | number | boolean]>): Buffer {
  const parts = fields.map(([k, v]) => {
    const name = Buffer.from(`${k}\0`, 'latin1')
    if (typeof v === 'string') return Buffer.concat([Buffer.from([0x02]), name, i32le(Buffer.byteLength(v) + 1), Buffer.from(`${v}\0`)])
    if (typeof v === 'boolean') return Buffer.concat([Buffer.from([0x08]), name, Buffer.from([v ? 1 : 0])])
    if (Number.isInteger(v) && k !== 'ok') return Buffer.concat([Buffer.from([0x10]), name, i32le(v)])
    const d = Buffer.alloc(8)
    d.writeDoubleLE(v)
    return Buffer.concat([Buffer.from([0x01]), name, d])
  })
  const body = Buffer.concat([...parts, Buffer.from([0])])
  return Buffer.concat([i32le(4 + body.length), body])
}

/**
 * MongoDB 4.4 without authentication: OP_QUERY isMaster / serverStatus / buildInfo answered with
 * OP_REPLY, OP_MSG commands with OP_MSG; buildInfo and serverStatus carry the version.
 */
const mongodb =
  (version: string, maxWire: number): Handler =>
  (s) =>
    framed(
      s,
      (b) => (b.length >= 4 ? b.readInt32LE(0) : 0),
      (m) => {
        if (m.length < 16) return void s.destroy()
        const requestId = m.readInt32LE(4)
        const op = m.readInt32LE(12)
        const text = m.toString('latin1').toLowerCase()
        const doc =
          text.includes('ismaster') || text.includes('hello')
            ? bson([
                ['ismaster', true],
                ['maxBsonObjectSize', 16777216],
                ['maxMessageSizeBytes', 48000000],
                ['maxWireVersion', maxWire],
                ['minWireVersion', 0],
                ['readOnly', false],
                ['ok', 1],
              ])
            : text.includes('serverstatus')
              ? bson([
                  ['host', 'bed-mongo'],
                  ['version', version],
                  ['process', 'mongod'],
                  ['pid', 4242],
                  ['uptime', 86400],
                  ['ok', 1],
                ])
              : text.includes('buildinfo')
                ? bson([
                    ['version', version],
                    ['gitVersion', '83b8bb8b6b325d8d8d3dfd2ad9f744bdad7d6ca0'],
                    ['bits', 64],
                    ['maxBsonObjectSize', 16777216],
                    ['ok', 1],
                  ])
                : bson([
                    ['ok', 0],
                    ['errmsg', 'no such command'],
                    ['code', 59],
                  ])
        const body =
          op === 2013
            ? Buffer.concat([i32le(0), Buffer.from([0]), doc])
            : Buffer.concat([i32le(8), Buffer.alloc(8), i32le(0), i32le(1), doc])
        s.write(Buffer.concat([i32le(16 + body.length), i32le(0x1000 + requestId), i32le(requestId), i32le(op === 2013 ? 2013 : 1), body]))
      },
    )

/**
 * Samba answering an SMB1 Negotiate Protocol: it picks "NT LANMAN 1.0" when offered (Windows would
 * pick "NT LM 0.12"), then names its workgroup and host in UTF-16.
 */
const smb: Handler = (s) =>
  framed(
    s,
    (b) => (b.length >= 4 ? 4 + b.readUIntBE(1, 3) : 0),
    (m) => {
      const req = m.subarray(4)
      if (req.length < 35 || req.toString('latin1', 0, 4) !== '\xffSMB' || req[4] !== 0x72) return void s.destroy()
      const dialects = req
        .toString('latin1', 35)
        .split('\0')
        .map((d) => d.replace(/^\x02/, ''))
      let pick = dialects.indexOf('NT LANMAN 1.0')
      if (pick < 0) pick = dialects.indexOf('NT LM 0.12')
      if (pick < 0) return void s.destroy()
      const utf16 = (t: string) => Buffer.from(`${t}\0`, 'utf16le')
      const bytes = Buffer.concat([Buffer.from('8c2e91d4', 'hex'), Buffer.from('5ab3f017', 'hex'), utf16('WORKGROUP'), utf16('WARDBED')])
      const words = Buffer.alloc(34)
      words.writeUInt16LE(pick, 0)
      words[2] = 0x03 // security mode: user level, challenge/response
      words.writeUInt16LE(50, 3) // max mpx
      words.writeUInt16LE(1, 5) // max VCs
      words.writeUInt32LE(16644, 7) // max buffer
      words.writeUInt32LE(65536, 11) // max raw
      words.writeUInt32LE(0, 15) // session key
      words.writeUInt32LE(0x8000e3fd & ~0x80000000, 19) // capabilities, no extended security
      words.writeUInt16LE(0, 31) // server time zone (time itself left zero)
      words[33] = 8 // challenge length
      const header = Buffer.concat([
        Buffer.from([0xff, 0x53, 0x4d, 0x42, 0x72, 0, 0, 0, 0, 0x88, 0x01, 0x40]),
        Buffer.alloc(12),
        req.subarray(24, 32),
      ])
      const smbMsg = Buffer.concat([header, Buffer.from([17]), words, Buffer.from([bytes.length & 255, bytes.length >> 8]), bytes])
      s.write(Buffer.concat([Buffer.from([0, 0]), u16be(smbMsg.length), smbMsg]))
    },
  )

/** BER length: short form under 128, else 0x84 and four bytes (as OpenLDAP writes it). */
const berLen = (n: number) => (n < 128 ? Buffer.from([n]) : Buffer.concat([Buffer.from([0x84]), u32be(n)]))
const ber = (tag: number, body: Buffer, long = false) =>
  Buffer.concat([Buffer.from([tag]), long ? Buffer.concat([Buffer.from([0x84]), u32be(body.length)]) : berLen(body.length), body])
const berStr = (t: string) => ber(0x04, Buffer.from(t, 'latin1'))

/**
 * OpenLDAP 2.4: refuses an LDAPv2 bind with "historical protocol version requested"; an LDAPv3
 * anonymous bind succeeds; a search returns the root DSE (which names no vendor), then done.
 */
const ldap: Handler = (s) =>
  framed(
    s,
    (b) => {
      if (b.length < 2) return 0
      if (b[1]! < 0x80) return 2 + b[1]!
      const n = b[1]! & 0x7f
      return b.length < 2 + n ? 0 : 2 + n + b.readUIntBE(2, n)
    },
    (m) => {
      const hdr = m[1]! < 0x80 ? 2 : 2 + (m[1]! & 0x7f)
      const id = m.subarray(hdr, hdr + 3) // INTEGER messageID (short)
      const op = m[hdr + 3]
      const envelope = (body: Buffer) => ber(0x30, Buffer.concat([id, body]), true)
      const result = (tag: number, code: number, text: string) =>
        ber(tag, Buffer.concat([Buffer.from([0x0a, 1, code]), berStr(''), berStr(text)]), true)
      if (op === 0x60) {
        const version = m[hdr + 3 + (m[hdr + 4]! < 0x80 ? 2 : 2 + (m[hdr + 4]! & 0x7f)) + 2]
        s.write(
          envelope(version === 3 ? result(0x61, 0, '') : result(0x61, 2, 'historical protocol version requested, use LDAPv3 instead')),
        )
      } else if (op === 0x63) {
        const attr = (k: string, ...v: string[]) => ber(0x30, Buffer.concat([berStr(k), ber(0x31, Buffer.concat(v.map(berStr)))]))
        const entry = ber(
          0x64,
          Buffer.concat([
            berStr(''),
            ber(
              0x30,
              Buffer.concat([
                attr('objectClass', 'top', 'OpenLDAProotDSE'),
                attr('namingContexts', 'dc=ward,dc=test'),
                attr('supportedLDAPVersion', '3'),
                attr('supportedSASLMechanisms', 'DIGEST-MD5', 'CRAM-MD5'),
              ]),
            ),
          ]),
          true,
        )
        s.write(Buffer.concat([envelope(entry), envelope(result(0x65, 0, ''))]))
      } else if (op === 0x42) s.end()
      else s.write(envelope(result(0x61, 2, 'unsupported operation')))
    },
  )

/** MQTT length-prefixed packets. */
function mqttFrame(b: Buffer): number {
  let len = 0
  for (let i = 1, mul = 1; i < Math.min(b.length, 5); i++, mul *= 128) {
    len += (b[i]! & 127) * mul
    if (!(b[i]! & 128)) return 1 + i + len
  }
  return 0
}
const mqttString = (t: string) => Buffer.concat([u16be(Buffer.byteLength(t)), Buffer.from(t)])

/** Mosquitto 2.0: CONNACK; a subscription covering $SYS/broker/version gets SUBACK and the retained version. */
const mqtt =
  (version: string): Handler =>
  (s) =>
    framed(s, mqttFrame, (m) => {
      const type = m[0]! >> 4
      const body = m.subarray(m.length - (m.length - (mqttFrame(m) - m.length) - 0)) // whole packet
      void body
      if (type === 1) s.write(Buffer.from([0x20, 2, 0, 0]))
      else if (type === 8) {
        let o = 1
        while (m[o]! & 128) o++
        o++
        const packetId = m.subarray(o, o + 2)
        const topics: string[] = []
        for (o += 2; o + 2 <= m.length; ) {
          const n = m.readUInt16BE(o)
          topics.push(m.toString('utf8', o + 2, o + 2 + n))
          o += 2 + n + 1
        }
        s.write(Buffer.concat([Buffer.from([0x90, 2 + topics.length]), packetId, Buffer.alloc(topics.length)]))
        if (topics.some((t) => t === '$SYS/broker/version' || t === '$SYS/#' || t === '#' || t === '$SYS/broker/#')) {
          const payload = Buffer.concat([mqttString('$SYS/broker/version'), Buffer.from(`mosquitto version ${version}`)])
          s.write(Buffer.concat([Buffer.from([0x31, payload.length]), payload]))
        }
      } else if (type === 12) s.write(Buffer.from([0xd0, 0]))
      else if (type === 14) s.end()
    })

/** RabbitMQ: the AMQP 0-9-1 header gets Connection.Start naming the broker; anything else the header it wants, then close. */
const amqp =
  (version: string): Handler =>
  (s) => {
    s.once('data', (d) => {
      if (d.toString('latin1', 0, 8) !== 'AMQP\0\0\x09\x01') return void s.end('AMQP\0\0\x09\x01')
      const longstr = (k: string, v: string) =>
        Buffer.concat([Buffer.from([k.length]), Buffer.from(k), Buffer.from('S'), u32be(Buffer.byteLength(v)), Buffer.from(v)])
      const capabilities = Buffer.concat([
        Buffer.from([9]),
        Buffer.from('publisher_confirms'.slice(0, 9)),
        Buffer.from('t'),
        Buffer.from([1]),
      ])
      const table = Buffer.concat([
        Buffer.from([12]),
        Buffer.from('capabilities'),
        Buffer.from('F'),
        u32be(capabilities.length),
        capabilities,
        longstr('cluster_name', 'rabbit@bed'),
        longstr('copyright', 'Copyright (c) 2007-2023 VMware, Inc. or its affiliates.'),
        longstr('information', 'Licensed under the MPL 2.0. Website: https://rabbitmq.com'),
        longstr('platform', 'Erlang/OTP 25.3.2.3'),
        longstr('product', 'RabbitMQ'),
        longstr('version', version),
      ])
      const args = Buffer.concat([
        Buffer.from([0, 10, 0, 10, 0, 9]),
        u32be(table.length),
        table,
        u32be(14),
        Buffer.from('AMQPLAIN PLAIN'),
        u32be(5),
        Buffer.from('en_US'),
      ])
      s.write(Buffer.concat([Buffer.from([1, 0, 0]), u32be(args.length), args, Buffer.from([0xce])]))
    })
  }

// ------------------------------------------------------------------ the bed

interface Def {
  name: string
  port: number
  expect: Expected
  aliases?: readonly string[]
  handler?: Handler
  /** Served by tcp-services.ts instead. */
  shared?: 'redis' | 'rdp' | 'vnc'
}

const DEFS: readonly Def[] = [
  {
    name: 'vsftpd',
    port: 21,
    handler: ftp('220 (vsFTPd 3.0.3)\r\n'),
    expect: e('ftp', 'vsftpd', '3.0.3', 'cpe:/a:beasts:vsftpd:3.0.3', 'null'),
  },
  {
    name: 'ProFTPD',
    port: 2121,
    handler: ftp('220 ProFTPD 1.3.5e Server (Debian) [::ffff:127.0.37.10]\r\n'),
    expect: e('ftp', 'ProFTPD', '1.3.5e', 'cpe:/a:proftpd:proftpd:1.3.5e', 'null'),
  },
  {
    name: 'OpenSSH',
    port: 22,
    handler: (s) => s.write('SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.6\r\n'),
    expect: e('ssh', 'OpenSSH', '8.9p1', 'cpe:/a:openbsd:openssh:8.9p1', 'null'),
  },
  {
    name: 'Dropbear',
    port: 2222,
    handler: (s) => s.write('SSH-2.0-dropbear_2020.81\r\n'),
    expect: e('ssh', 'Dropbear sshd', '2020.81', 'cpe:/a:dropbear_ssh_project:dropbear_ssh:2020.81', 'null'),
  },
  {
    // netkit telnetd: DO TERMINAL-TYPE, TSPEED, XDISPLOC, NEW-ENVIRON, then nothing until the client negotiates.
    name: 'Linux telnetd',
    port: 23,
    handler: (s) => s.write(Buffer.from([255, 253, 24, 255, 253, 32, 255, 253, 35, 255, 253, 39])),
    expect: e('telnet', 'Linux telnetd', null, 'cpe:/o:linux:linux_kernel', 'null'),
  },
  {
    name: 'Postfix',
    port: 25,
    handler: smtp('220 mail.ward.test ESMTP Postfix (Ubuntu)\r\n', 'mail.ward.test'),
    expect: e('smtp', 'Postfix smtpd', null, 'cpe:/a:postfix:postfix', 'null'),
  },
  {
    name: 'Exim',
    port: 2525,
    handler: smtp('220 mx.ward.test ESMTP Exim 4.96 Wed, 25 Nov 2026 06:40:00 +0000\r\n', 'mx.ward.test'),
    expect: e('smtp', 'Exim smtpd', '4.96', 'cpe:/a:exim:exim:4.96', 'null'),
  },
  {
    name: 'BIND',
    port: 53,
    handler: dns('9.16.1-Ubuntu'),
    expect: e('domain', 'ISC BIND', '9.16.1', 'cpe:/a:isc:bind:9.16.1', 'dns-version-bind'),
  },
  {
    name: 'Dovecot pop3d',
    port: 110,
    handler: greet('+OK Dovecot (Ubuntu) ready.\r\n', (_l, s) => s.write('-ERR Unknown command.\r\n')),
    expect: e('pop3', 'Dovecot', null, 'cpe:/a:dovecot:dovecot', 'null'),
  },
  {
    name: 'Dovecot imapd',
    port: 143,
    handler: greet(
      '* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS AUTH=PLAIN] Dovecot (Ubuntu) ready.\r\n',
      (l, s) => s.write(`${l.split(' ')[0] || '*'} BAD Error in IMAP command received by server.\r\n`),
    ),
    expect: e('imap', 'Dovecot', null, 'cpe:/a:dovecot:dovecot', 'null'),
  },
  {
    name: 'Apache httpd',
    port: 80,
    handler: http(() =>
      page(
        'HTTP/1.1 200 OK',
        [
          `Date: ${DATE}`,
          'Server: Apache/2.4.49 (Unix)',
          'Last-Modified: Mon, 11 Jun 2007 18:53:14 GMT',
          'Accept-Ranges: bytes',
          'Connection: close',
          'Content-Type: text/html',
        ],
        HTML,
      ),
    ),
    expect: e('http', 'Apache', '2.4.49', 'cpe:/a:apache:http_server:2.4.49', 'http-get'),
  },
  {
    name: 'nginx',
    port: 8080,
    handler: http(() =>
      page(
        'HTTP/1.1 200 OK',
        [
          'Server: nginx/1.18.0',
          `Date: ${DATE}`,
          'Content-Type: text/html',
          'Connection: close',
          'ETag: "5f3a8d2b-264"',
          'Accept-Ranges: bytes',
        ],
        HTML,
      ),
    ),
    expect: e('http', 'nginx', '1.18.0', 'cpe:/a:f5:nginx:1.18.0', 'http-get'),
    aliases: ['http-proxy'],
  },
  {
    name: 'Microsoft IIS',
    port: 81,
    handler: http(() =>
      page(
        'HTTP/1.1 200 OK',
        [
          'Content-Type: text/html',
          'Last-Modified: Tue, 02 Feb 2021 10:00:00 GMT',
          'Accept-Ranges: bytes',
          'ETag: "a1b2c3d4e5f6d71:0"',
          'Server: Microsoft-IIS/10.0',
          `Date: ${DATE}`,
          'Connection: close',
        ],
        HTML,
      ),
    ),
    expect: e('http', 'Microsoft-IIS', '10.0', 'cpe:/a:microsoft:internet_information_services:10.0', 'http-get'),
  },
  {
    name: 'Jetty',
    port: 8081,
    handler: http(() =>
      page(
        'HTTP/1.1 200 OK',
        [`Date: ${DATE}`, 'Content-Type: text/html;charset=utf-8', 'Server: Jetty(9.4.43.v20210629)', 'Connection: close'],
        HTML,
      ),
    ),
    expect: e('http', 'Jetty', '9.4.43', 'cpe:/a:eclipse:jetty:9.4.43', 'http-get'),
  },
  {
    // Tomcat 9 sends no Server header; its default page names it.
    name: 'Apache Tomcat',
    port: 8082,
    handler: http(
      () => `HTTP/1.1 200 \r\nContent-Type: text/html;charset=UTF-8\r\nDate: ${DATE}\r\nConnection: close\r\n\r\n${TOMCAT_BODY('9.0.31')}`,
    ),
    expect: e('http', 'Apache Tomcat', '9.0.31', 'cpe:/a:apache:tomcat:9.0.31', 'http-get'),
  },
  {
    name: 'Werkzeug',
    port: 5000,
    handler: http(() =>
      page('HTTP/1.0 200 OK', ['Content-Type: text/html; charset=utf-8', 'Server: Werkzeug/2.0.1 Python/3.9.5', `Date: ${DATE}`], HTML)
        .replace(/Content-Length: \d+\r\n\r\n/, (m) => m)
        .replace('Server:', 'Server:'),
    ),
    expect: e('http', 'Werkzeug', '2.0.1', 'cpe:/a:palletsprojects:werkzeug:2.0.1', 'http-get'),
  },
  {
    name: 'Elasticsearch',
    port: 9200,
    handler: http(
      (v) =>
        `HTTP/${v} 200 OK\r\ncontent-type: application/json; charset=UTF-8\r\ncontent-length: ${Buffer.byteLength(ES_BODY('7.10.2'))}\r\n\r\n${ES_BODY('7.10.2')}`,
    ),
    expect: e('http', 'Elasticsearch', '7.10.2', 'cpe:/a:elastic:elasticsearch:7.10.2', 'http-get'),
    aliases: ['wap-wsp', 'elasticsearch'],
  },
  {
    name: 'MySQL',
    port: 3306,
    handler: (s) => s.write(mysqlGreeting('5.5.62')),
    expect: e('mysql', 'MySQL', '5.5.62', 'cpe:/a:oracle:mysql:5.5.62', 'null'),
  },
  {
    name: 'MariaDB',
    port: 3307,
    handler: (s) => s.write(mysqlGreeting('5.5.5-10.6.12-MariaDB-0ubuntu0.22.04.1')),
    expect: e('mysql', 'MariaDB', '10.6.12', 'cpe:/a:mariadb:mariadb:10.6.12', 'null'),
    aliases: ['opsession-prxy'],
  },
  {
    name: 'PostgreSQL',
    port: 5432,
    handler: postgres('14.5', 'Ubuntu 14.5-0ubuntu0.22.04.1'),
    expect: e('postgresql', 'PostgreSQL', '14.5', 'cpe:/a:postgresql:postgresql:14.5', 'postgres-startup'),
  },
  {
    name: 'Redis',
    port: 6379,
    shared: 'redis',
    expect: e('redis', 'Redis key-value store', '6.0.16', 'cpe:/a:redis:redis:6.0.16', 'redis-info'),
  },
  {
    name: 'memcached',
    port: 11211,
    handler: memcached('1.6.21'),
    expect: e('memcached', 'Memcached', '1.6.21', 'cpe:/a:memcached:memcached:1.6.21', 'memcached-stats'),
  },
  {
    name: 'MongoDB',
    port: 27017,
    handler: mongodb('4.4.29', 9),
    expect: e('mongodb', 'MongoDB', '4.4.29', 'cpe:/a:mongodb:mongodb:4.4.29', 'mongodb-ismaster'),
  },
  { name: 'VNC', port: 5900, shared: 'vnc', expect: e('vnc', null, '3.8', null, 'null') },
  {
    name: 'RDP',
    port: 3389,
    shared: 'rdp',
    expect: e('rdp', 'Microsoft Terminal Services', null, 'cpe:/o:microsoft:windows', 'rdp-x224'),
    aliases: ['ms-wbt-server'],
  },
  {
    name: 'Samba',
    port: 445,
    handler: smb,
    expect: e('microsoft-ds', 'Samba smbd', null, 'cpe:/a:samba:samba', 'smb-negotiate'),
    aliases: ['netbios-ssn'],
  },
  { name: 'OpenLDAP', port: 389, handler: ldap, expect: e('ldap', 'OpenLDAP', null, 'cpe:/a:openldap:openldap', 'ldap-bind') },
  {
    name: 'Mosquitto',
    port: 1883,
    handler: mqtt('2.0.18'),
    expect: e('mqtt', 'Mosquitto', '2.0.18', 'cpe:/a:eclipse:mosquitto:2.0.18', 'mqtt-connect'),
  },
  {
    name: 'RabbitMQ',
    port: 5672,
    handler: amqp('3.12.1'),
    expect: e('amqp', 'RabbitMQ', '3.12.1', 'cpe:/a:vmware:rabbitmq:3.12.1', 'amqp-header'),
  },
  { name: 'tcpwrapped', port: 9999, handler: (s) => s.destroy(), expect: e('tcpwrapped', null, null, null, null) },
  // Accepts and never says a word: detection must give up on it without holding the others.
  { name: 'silent', port: 7777, handler: () => {}, expect: e(null, null, null, null, null) },
]

export const BED_HOST = '127.0.37.10'

/** What each bed port should be named (the bed need not run to know it). */
export const BED_SERVICES: readonly BedService[] = DEFS.map(({ name, port, expect, aliases }) => ({
  name,
  port,
  expect,
  ...(aliases ? { aliases } : {}),
}))

/** Starts every bed service on `host`; `services` says what each port should be named. */
export async function startServiceBed(host = BED_HOST): Promise<{ host: string; services: BedService[]; close(): Promise<void> }> {
  const servers: net.Server[] = []
  const sockets = new Set<net.Socket>()
  const closers: Array<() => Promise<void>> = []
  const close = async () => {
    for (const s of sockets) s.destroy()
    await Promise.all([...servers.map((srv) => new Promise<void>((r) => srv.close(() => r()))), ...closers.map((c) => c())])
  }
  try {
    const shared = DEFS.filter((d) => d.shared)
    const tcp = await startTcpServices(
      host,
      shared.map((d) => ({ service: d.shared!, port: d.port })),
    )
    closers.push(tcp.close)
    for (const def of DEFS.filter((d) => d.handler)) {
      const server = net.createServer((sock) => {
        sockets.add(sock)
        sock.on('error', () => {})
        sock.on('close', () => sockets.delete(sock))
        sock.setTimeout(30_000, () => sock.destroy())
        def.handler!(sock)
      })
      server.on('error', () => {})
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen({ host, port: def.port, backlog: 511 }, () => resolve())
      })
      servers.push(server)
    }
  } catch (err) {
    await close()
    throw err
  }
  return { host, services: [...BED_SERVICES], close }
}
