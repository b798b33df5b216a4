// TCP test bed: listeners that speak the real first bytes of common services (SSH banner, HTTP with a
// Server header, FTP/SMTP/POP3/IMAP greetings, a redis answering INFO, a MySQL handshake, a PostgreSQL
// authentication request, a MongoDB isMaster reply, an RDP connection confirm, telnet IAC negotiation,
// TLS with a self-signed certificate), on known ports of one loopback address.
import net from 'node:net'
import tls from 'node:tls'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type TestService =
  | 'ssh'
  | 'http'
  | 'https'
  | 'ftp'
  | 'smtp'
  | 'pop3'
  | 'imap'
  | 'redis'
  | 'mysql'
  | 'postgresql'
  | 'mongodb'
  | 'rdp'
  | 'telnet'
  | 'vnc'

export interface ServiceSpec {
  service: TestService
  /** 0 (default for non-standard use) picks a free port; absent: the service's standard port. */
  port?: number
  /** redis: require AUTH; postgresql: ask for a password (default true); ftp: allow anonymous login. */
  auth?: boolean
  anonymous?: boolean
}

export interface OpenedService {
  port: number
  service: TestService
  /** What detection should report (product/version as the banner states them). */
  product?: string
  version?: string
}

export const STANDARD_PORTS: Readonly<Record<TestService, number>> = {
  ftp: 21,
  ssh: 22,
  telnet: 23,
  smtp: 25,
  http: 80,
  pop3: 110,
  imap: 143,
  https: 443,
  mysql: 3306,
  rdp: 3389,
  postgresql: 5432,
  vnc: 5900,
  redis: 6379,
  mongodb: 27017,
}

export const ALL_SERVICES = Object.keys(STANDARD_PORTS) as TestService[]

type Handler = (s: net.Socket, spec: ServiceSpec) => void

/** Calls `onLine` with each line the client sends (CR LF or LF). */
export const lines = (s: net.Socket, onLine: (line: string) => void) => {
  let buf = ''
  s.on('data', (d) => {
    buf += d.toString('latin1')
    let i: number
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i).replace(/\r$/, '')
      buf = buf.slice(i + 1)
      onLine(line)
    }
  })
}

const HTTP_SERVER = 'Apache/2.4.49 (Unix)'
const HTTPS_SERVER = 'nginx/1.18.0 (Ubuntu)'

function httpReply(server: string) {
  const body = '<html><body>ward test bed</body></html>'
  return `HTTP/1.1 200 OK\r\nServer: ${server}\r\nContent-Type: text/html\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`
}

const HANDLERS: Record<TestService, { handler: Handler; product?: string; version?: string; tls?: boolean }> = {
  ssh: { product: 'OpenSSH', version: '8.9p1', handler: (s) => s.write('SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.6\r\n') },
  http: {
    product: 'Apache',
    version: '2.4.49',
    handler: (s) => {
      let req = ''
      s.on('data', (d) => {
        req += d.toString('latin1')
        if (req.includes('\r\n\r\n')) s.end(httpReply(HTTP_SERVER))
      })
    },
  },
  https: {
    tls: true,
    product: 'nginx',
    version: '1.18.0',
    handler: (s) => {
      let req = ''
      s.on('data', (d) => {
        req += d.toString('latin1')
        if (req.includes('\r\n\r\n')) s.end(httpReply(HTTPS_SERVER))
      })
    },
  },
  ftp: {
    product: 'vsftpd',
    version: '3.0.3',
    handler: (s, spec) => {
      s.write('220 (vsFTPd 3.0.3)\r\n')
      let user = ''
      lines(s, (l) => {
        const [cmd, arg = ''] = l.split(' ', 2)
        if (/^USER$/i.test(cmd)) {
          user = arg
          s.write('331 Please specify the password.\r\n')
        } else if (/^PASS$/i.test(cmd))
          s.write(spec.anonymous && /^(anonymous|ftp)$/i.test(user) ? '230 Login successful.\r\n' : '530 Login incorrect.\r\n')
        else if (/^QUIT$/i.test(cmd)) s.end('221 Goodbye.\r\n')
        else s.write('530 Please login with USER and PASS.\r\n')
      })
    },
  },
  smtp: {
    product: 'Postfix smtpd',
    handler: (s) => {
      s.write('220 mail.ward.test ESMTP Postfix (Ubuntu)\r\n')
      lines(s, (l) => {
        if (/^(EHLO|HELO)\b/i.test(l))
          s.write('250-mail.ward.test\r\n250-PIPELINING\r\n250-SIZE 10240000\r\n250-STARTTLS\r\n250 8BITMIME\r\n')
        else if (/^QUIT/i.test(l)) s.end('221 2.0.0 Bye\r\n')
        else s.write('502 5.5.2 Error: command not recognized\r\n')
      })
    },
  },
  pop3: {
    product: 'Dovecot',
    handler: (s) => {
      s.write('+OK Dovecot (Ubuntu) ready.\r\n')
      lines(s, (l) => (/^QUIT/i.test(l) ? s.end('+OK Logging out\r\n') : s.write('-ERR Unknown command.\r\n')))
    },
  },
  imap: {
    product: 'Dovecot',
    handler: (s) => {
      s.write('* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS AUTH=PLAIN] Dovecot (Ubuntu) ready.\r\n')
      lines(s, (l) => s.write(`${l.split(' ')[0] || '*'} BAD Error in IMAP command\r\n`))
    },
  },
  redis: {
    product: 'Redis key-value store',
    version: '6.0.16',
    handler: (s, spec) => {
      let buf = ''
      s.on('data', (d) => {
        buf += d.toString('latin1')
        // One RESP array ("*1\r\n$4\r\nINFO\r\n") or one inline command ("INFO\r\n").
        const m = /^\*(\d+)\r\n((?:\$\d+\r\n[^\r\n]*\r\n)*)/.exec(buf)
        const parts = m
          ? [...m[2].matchAll(/\$\d+\r\n([^\r\n]*)\r\n/g)].map((x) => x[1])
          : buf.includes('\n')
            ? buf.trim().split(/\s+/)
            : null
        if (!parts || (m && parts.length < Number(m[1]))) return
        buf = ''
        const cmd = (parts[0] ?? '').toUpperCase()
        if (spec.auth && cmd !== 'AUTH') return void s.write('-NOAUTH Authentication required.\r\n')
        if (cmd === 'PING') return void s.write('+PONG\r\n')
        if (cmd === 'INFO') {
          const info =
            '# Server\r\nredis_version:6.0.16\r\nredis_git_sha1:00000000\r\nredis_mode:standalone\r\nos:Linux 5.15.0-91-generic x86_64\r\ntcp_port:6379\r\n'
          return void s.write(`$${info.length}\r\n${info}\r\n`)
        }
        s.write(`-ERR unknown command '${cmd}'\r\n`)
      })
    },
  },
  mysql: {
    product: 'MySQL',
    version: '8.0.36-0ubuntu0.22.04.1',
    handler: (s) => s.write(mysqlHandshake('8.0.36-0ubuntu0.22.04.1')),
  },
  postgresql: {
    product: 'PostgreSQL',
    handler: (s, spec) => {
      s.once('data', (d) => {
        if (d.length === 8 && d.readUInt32BE(4) === 80877103) return void s.write('N') // SSLRequest: no TLS
        if (spec.auth === false) {
          s.write(
            Buffer.concat([
              pgMsg('R', u32(0)),
              pgMsg('S', Buffer.from('server_version\x0014.10\0', 'latin1')),
              pgMsg('Z', Buffer.from('I')),
            ]),
          )
        } else s.write(pgMsg('R', Buffer.concat([u32(5), Buffer.from([1, 2, 3, 4])]))) // AuthenticationMD5Password + salt
      })
    },
  },
  mongodb: {
    product: 'MongoDB',
    version: '6.0',
    handler: (s) => {
      s.once('data', (d) => {
        s.write(mongoReply(d.length >= 8 ? d.readInt32LE(4) : 0, 17))
      })
    },
  },
  rdp: {
    product: 'Microsoft Terminal Services',
    handler: (s) => {
      s.once('data', (d) => {
        if (d[0] !== 3) return void s.destroy()
        // TPKT + X.224 Connection Confirm + RDP Negotiation Response selecting CredSSP (2).
        s.write(Buffer.from([3, 0, 0, 0x13, 0x0e, 0xd0, 0, 0, 0x12, 0x34, 0, 2, 0x1f, 8, 0, 2, 0, 0, 0]))
      })
    },
  },
  telnet: {
    // IAC DO TERMINAL-TYPE, IAC DO TERMINAL-SPEED, IAC DO X-DISPLAY, IAC DO NEW-ENVIRON, then a prompt.
    handler: (s) => {
      s.write(Buffer.from([255, 253, 24, 255, 253, 32, 255, 253, 35, 255, 253, 39]))
      setTimeout(() => !s.destroyed && s.write('Ubuntu 22.04 LTS\r\nward-bed login: '), 20)
    },
  },
  vnc: { version: '3.8', handler: (s) => s.write('RFB 003.008\n') },
}

/**
 * Opens the services of `spec` (default: every service on its standard port) on `host`.
 * `ports` says what detection should find; `close()` shuts every listener and connection.
 */
export async function startTcpServices(
  host: string,
  spec: Array<TestService | ServiceSpec> = ALL_SERVICES,
): Promise<{ ports: OpenedService[]; close(): Promise<void> }> {
  const servers: net.Server[] = []
  const sockets = new Set<net.Socket>()
  const opened: OpenedService[] = []
  try {
    for (const item of spec) {
      const s: ServiceSpec = typeof item === 'string' ? { service: item } : item
      const def = HANDLERS[s.service]
      const onConn = (sock: net.Socket) => {
        sockets.add(sock)
        sock.on('error', () => {})
        sock.on('close', () => sockets.delete(sock))
        sock.setTimeout(10_000, () => sock.destroy())
        def.handler(sock, s)
      }
      const server = def.tls ? tls.createServer({ ...testCert() }, onConn) : net.createServer(onConn)
      server.on('error', () => {})
      const port = s.port ?? STANDARD_PORTS[s.service]
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen({ host, port, backlog: 511 }, () => resolve())
      })
      servers.push(server)
      opened.push({ port: (server.address() as net.AddressInfo).port, service: s.service, product: def.product, version: def.version })
    }
  } catch (e) {
    await closeAll(servers, sockets)
    throw e
  }
  return { ports: opened, close: () => closeAll(servers, sockets) }
}

async function closeAll(servers: net.Server[], sockets: Set<net.Socket>) {
  for (const s of sockets) s.destroy()
  await Promise.all(servers.map((srv) => new Promise<void>((r) => srv.close(() => r()))))
}

let cert: { key: string; cert: string } | undefined
/** A self-signed certificate made once per process with openssl, in a temporary directory. */
export function testCert(): { key: string; cert: string } {
  if (cert) return cert
  const dir = mkdtempSync(join(tmpdir(), 'ward-tcp-bed-'))
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-days',
        '2',
        '-subj',
        '/CN=ward-testbed.local',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    )
    cert = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') }
    return cert
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// ------------------------------------------------------------- wire helpers

/** Binary replies of the test bed, for parser unit tests. */
export const wire = {
  mysqlHandshake: (version: string) => mysqlHandshake(version),
  mongoIsMasterReply: (maxWireVersion: number) => mongoReply(0, maxWireVersion),
  pgMessage: (type: string, body: Buffer) => pgMsg(type, body),
}

function mongoReply(requestId: number, maxWireVersion: number): Buffer {
  const doc = bson([
    ['ismaster', true],
    ['maxBsonObjectSize', 16777216],
    ['maxWireVersion', maxWireVersion],
    ['minWireVersion', 0],
    ['ok', 1.0],
  ])
  const body = Buffer.concat([i32(0), Buffer.alloc(8), i32(0), i32(1), doc]) // flags, cursorID, startingFrom, numberReturned
  return Buffer.concat([i32(16 + body.length), i32(1), i32(requestId), i32(1), body])
}

function mysqlHandshake(version: string): Buffer {
  const payload = Buffer.concat([
    Buffer.from([0x0a]),
    Buffer.from(`${version}\0`, 'latin1'),
    u32le(42), // connection id
    Buffer.from('abcdefgh\0', 'latin1'), // auth-plugin-data part 1 + filler
    Buffer.from([0xff, 0xf7, 0xff, 0x02, 0x00, 0xff, 0xc1, 21]), // capabilities, charset, status, caps high, auth data len
    Buffer.alloc(10),
    Buffer.from('ijklmnopqrst\0', 'latin1'),
    Buffer.from('caching_sha2_password\0', 'latin1'),
  ])
  const head = Buffer.from([payload.length & 0xff, (payload.length >> 8) & 0xff, (payload.length >> 16) & 0xff, 0])
  return Buffer.concat([head, payload])
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n)
  return b
}
const u32le = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32LE(n)
  return b
}
const i32 = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeInt32LE(n)
  return b
}
const pgMsg = (type: string, body: Buffer) => Buffer.concat([Buffer.from(type, 'latin1'), u32(4 + body.length), body])

/** A BSON document of booleans, int32s (integers) and doubles (non-integers or 1.0 given as `ok`). */
function bson(fields: Array<[string, boolean | number]>): Buffer {
  const parts = fields.map(([k, v]) => {
    const name = Buffer.from(`${k}\0`, 'latin1')
    if (typeof v === 'boolean') return Buffer.concat([Buffer.from([0x08]), name, Buffer.from([v ? 1 : 0])])
    if (k === 'ok' || !Number.isInteger(v)) {
      const d = Buffer.alloc(8)
      d.writeDoubleLE(v)
      return Buffer.concat([Buffer.from([0x01]), name, d])
    }
    return Buffer.concat([Buffer.from([0x10]), name, i32(v)])
  })
  const body = Buffer.concat([...parts, Buffer.from([0])])
  return Buffer.concat([i32(4 + body.length), body])
}
