// Test bed for tool 350: vulnerable-looking TCP services with banners (startVulnServices) and their
// healthy twin (startHealthyServices): modern banners, authentication required, relay refused, strong SSH
// algorithms. Loopback only; each service speaks just enough of its protocol for the scanner's probes.
import net from 'node:net'
import http from 'node:http'
import https from 'node:https'
import { randomBytes } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeBson, decodeBson, type BsonDoc } from '../../src/tools/netvuln/probes/bson.js'

export type ServiceName = 'ftp' | 'ssh' | 'smtp' | 'http' | 'redis' | 'memcached' | 'elasticsearch' | 'mongodb' | 'https'

export const STANDARD_PORTS: Readonly<Record<ServiceName, number>> = {
  ftp: 21,
  ssh: 22,
  smtp: 25,
  http: 80,
  https: 443,
  redis: 6379,
  memcached: 11211,
  elasticsearch: 9200,
  mongodb: 27017,
}

export interface ServiceBed {
  host: string
  ports: Partial<Record<ServiceName, number>>
  /** Every port the bed listens on, for an explicit `ports` list. */
  portList: number[]
  /** SMTP commands the bed received (to prove DATA never came). */
  smtpCommands: string[]
  close(): Promise<void>
}

type Flavour = 'vulnerable' | 'healthy'

interface Options {
  /** Port per service; defaults to STANDARD_PORTS. */
  ports?: Partial<Record<ServiceName, number>>
  /** Also serve HTTPS with a self-signed certificate (vulnerable bed only; default true). */
  tls?: boolean
}

export const startVulnServices = (host: string, o: Options = {}) => startBed(host, 'vulnerable', o)
export const startHealthyServices = (host: string, o: Options = {}) => startBed(host, 'healthy', o)

async function startBed(host: string, flavour: Flavour, o: Options): Promise<ServiceBed> {
  const ports = { ...STANDARD_PORTS, ...o.ports }
  const closers: Array<() => Promise<void>> = []
  const smtpCommands: string[] = []
  const used: Partial<Record<ServiceName, number>> = {}
  const vuln = flavour === 'vulnerable'
  const listen = async (name: ServiceName, server: net.Server) => {
    const sockets = new Set<net.Socket>()
    server.on('connection', (s: net.Socket) => {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => {})
    })
    server.on('secureConnection', (s: net.Socket) => s.on('error', () => {}))
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(ports[name], host, () => resolve())
    })
    used[name] = (server.address() as net.AddressInfo).port
    closers.push(async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((r) => server.close(() => r()))
    })
  }
  try {
    await listen('ftp', lineServer(vuln ? '220 (vsFTPd 2.3.4)' : '220 (vsFTPd 3.0.5)', ftpReply(vuln)))
    await listen('ssh', sshServer(vuln))
    await listen(
      'smtp',
      lineServer(
        vuln ? '220 mail.vuln.test ESMTP Exim 4.89 Sat, 21 Nov 2026 02:00:00 +0000' : '220 mail.healthy.test ESMTP Postfix',
        smtpReply(vuln, smtpCommands),
      ),
    )
    await listen('http', http.createServer(webHandler(vuln)))
    await listen('redis', redisServer(vuln))
    await listen('memcached', lineServer(null, memcachedReply(vuln)))
    await listen('elasticsearch', http.createServer(elasticHandler(vuln)))
    await listen('mongodb', mongoServer(vuln))
    if (vuln && o.tls !== false) await listen('https', https.createServer(selfSignedCert(), webHandler(true)))
  } catch (e) {
    for (const c of closers) await c()
    throw e
  }
  return {
    host,
    ports: used,
    portList: Object.values(used).sort((a, b) => a - b),
    smtpCommands,
    async close() {
      for (const c of closers.reverse()) await c()
    },
  }
}

// ---- line protocols (FTP, SMTP, memcached) ----

type LineReply = (line: string, s: net.Socket) => string | null

function lineServer(greeting: string | null, reply: LineReply): net.Server {
  return net.createServer((s) => {
    if (greeting) s.write(greeting + '\r\n')
    let buf = ''
    s.on('data', (d) => {
      buf += d.toString('latin1')
      let i: number
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).replace(/\r$/, '')
        buf = buf.slice(i + 1)
        const out = reply(line, s)
        if (out !== null && !s.destroyed) s.write(out)
      }
    })
  })
}

function ftpReply(vuln: boolean): LineReply {
  let user = ''
  return (line, s) => {
    const [cmd, ...rest] = line.split(' ')
    switch (cmd.toUpperCase()) {
      case 'USER':
        user = rest.join(' ')
        return '331 Please specify the password.\r\n'
      case 'PASS':
        return vuln && user === 'anonymous' ? '230 Login successful.\r\n' : '530 Login incorrect.\r\n'
      case 'QUIT':
        s.end('221 Goodbye.\r\n')
        return null
      default:
        return '530 Please login with USER and PASS.\r\n'
    }
  }
}

function smtpReply(vuln: boolean, log: string[]): LineReply {
  return (line, s) => {
    log.push(line)
    const cmd = line.slice(0, 4).toUpperCase()
    switch (cmd) {
      case 'EHLO':
        return vuln
          ? '250-mail.vuln.test Hello\r\n250-SIZE 52428800\r\n250 HELP\r\n'
          : '250-mail.healthy.test\r\n250-PIPELINING\r\n250-STARTTLS\r\n250 8BITMIME\r\n'
      case 'HELO':
        return '250 hello\r\n'
      case 'MAIL':
        return '250 2.1.0 Ok\r\n'
      case 'RCPT': {
        const local = /@(vuln|healthy)\.test>/i.test(line)
        return vuln || local ? '250 2.1.5 Accepted\r\n' : '554 5.7.1 Relay access denied\r\n'
      }
      case 'RSET':
        return '250 2.0.0 Ok\r\n'
      case 'DATA':
        return '554 5.5.1 Error: no valid recipients\r\n'
      case 'QUIT':
        s.end('221 2.0.0 Bye\r\n')
        return null
      default:
        return '502 5.5.2 Error: command not recognized\r\n'
    }
  }
}

function memcachedReply(vuln: boolean): LineReply {
  return (line) => {
    if (!vuln) return 'CLIENT_ERROR unauthenticated\r\n'
    if (line === 'stats')
      return (
        ['pid 4242', 'uptime 3600', 'version 1.4.15', 'curr_connections 3', 'total_items 12'].map((l) => `STAT ${l}\r\n`).join('') +
        'END\r\n'
      )
    if (line === 'version') return 'VERSION 1.4.15\r\n'
    return 'ERROR\r\n'
  }
}

// ---- Redis (RESP) ----

function redisServer(vuln: boolean): net.Server {
  const info = '# Server\r\nredis_version:5.0.7\r\nredis_mode:standalone\r\nos:Linux 5.4.0 x86_64\r\ntcp_port:6379\r\n'
  return net.createServer((s) => {
    let buf = ''
    s.on('data', (d) => {
      buf += d.toString('latin1')
      for (;;) {
        const parsed = parseResp(buf)
        if (!parsed) break
        buf = buf.slice(parsed.used)
        const cmd = (parsed.args[0] ?? '').toUpperCase()
        if (!vuln && cmd !== 'AUTH') s.write('-NOAUTH Authentication required.\r\n')
        else if (cmd === 'PING') s.write('+PONG\r\n')
        else if (cmd === 'INFO') s.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`)
        else if (cmd === 'AUTH') s.write('-WRONGPASS invalid username-password pair or user is disabled.\r\n')
        else s.write(`-ERR unknown command '${cmd}'\r\n`)
      }
    })
  })
}

/** A RESP array of bulk strings, or an inline command. */
function parseResp(buf: string): { args: string[]; used: number } | null {
  if (!buf.startsWith('*')) {
    const i = buf.indexOf('\n')
    return i < 0 ? null : { args: buf.slice(0, i).trim().split(/\s+/), used: i + 1 }
  }
  let p = buf.indexOf('\r\n')
  if (p < 0) return null
  const n = Number(buf.slice(1, p))
  p += 2
  const args: string[] = []
  for (let k = 0; k < n; k++) {
    const e = buf.indexOf('\r\n', p)
    if (e < 0) return null
    const len = Number(buf.slice(p + 1, e))
    if (buf.length < e + 2 + len + 2) return null
    args.push(buf.slice(e + 2, e + 2 + len))
    p = e + 2 + len + 2
  }
  return { args, used: p }
}

// ---- SSH: identification, then a KEXINIT ----

const VULN_KEX = {
  kex: [
    'curve25519-sha256@libssh.org',
    'ecdh-sha2-nistp256',
    'diffie-hellman-group-exchange-sha256',
    'diffie-hellman-group14-sha1',
    'diffie-hellman-group-exchange-sha1',
    'diffie-hellman-group1-sha1',
  ],
  hostKey: ['ssh-rsa', 'ecdsa-sha2-nistp256', 'ssh-ed25519'],
  ciphers: ['aes128-ctr', 'aes256-ctr', 'aes128-cbc', '3des-cbc', 'arcfour256', 'arcfour'],
  macs: ['hmac-sha2-256', 'hmac-sha1', 'hmac-md5', 'hmac-sha1-96', 'hmac-md5-96'],
}
const HEALTHY_KEX = {
  kex: [
    'sntrup761x25519-sha512@openssh.com',
    'curve25519-sha256',
    'curve25519-sha256@libssh.org',
    'ecdh-sha2-nistp256',
    'diffie-hellman-group16-sha512',
    'diffie-hellman-group14-sha256',
  ],
  hostKey: ['rsa-sha2-512', 'rsa-sha2-256', 'ecdsa-sha2-nistp256', 'ssh-ed25519'],
  ciphers: ['chacha20-poly1305@openssh.com', 'aes128-gcm@openssh.com', 'aes256-gcm@openssh.com', 'aes128-ctr', 'aes256-ctr'],
  macs: [
    'umac-128-etm@openssh.com',
    'hmac-sha2-256-etm@openssh.com',
    'hmac-sha2-512-etm@openssh.com',
    'hmac-sha1-etm@openssh.com',
    'umac-128@openssh.com',
    'hmac-sha2-256',
    'hmac-sha1',
  ],
}
export const SSH_ALGORITHMS = { vulnerable: VULN_KEX, healthy: HEALTHY_KEX } as const

function kexInitPacket(a: typeof VULN_KEX): Buffer {
  const list = (names: string[]) => {
    const s = Buffer.from(names.join(','), 'latin1')
    const len = Buffer.alloc(4)
    len.writeUInt32BE(s.length)
    return Buffer.concat([len, s])
  }
  const payload = Buffer.concat([
    Buffer.from([20]),
    randomBytes(16),
    ...[a.kex, a.hostKey, a.ciphers, a.ciphers, a.macs, a.macs, ['none', 'zlib@openssh.com'], ['none', 'zlib@openssh.com'], [], []].map(
      list,
    ),
    Buffer.from([0, 0, 0, 0, 0]),
  ])
  let pad = 8 - ((5 + payload.length) % 8)
  if (pad < 4) pad += 8
  const head = Buffer.alloc(5)
  head.writeUInt32BE(1 + payload.length + pad)
  head[4] = pad
  return Buffer.concat([head, payload, Buffer.alloc(pad)])
}

function sshServer(vuln: boolean): net.Server {
  return net.createServer((s) => {
    s.write(vuln ? 'SSH-2.0-OpenSSH_7.4\r\n' : 'SSH-2.0-OpenSSH_9.9\r\n')
    let got = ''
    s.on('data', (d) => {
      if (got.includes('\n')) return // already answered; ignore the client's KEXINIT
      got += d.toString('latin1')
      if (got.includes('\n')) s.write(kexInitPacket(vuln ? VULN_KEX : HEALTHY_KEX))
    })
  })
}

// ---- HTTP: web server and Elasticsearch ----

function webHandler(vuln: boolean): http.RequestListener {
  return (_req, res) => {
    res.writeHead(200, { server: vuln ? 'Apache/2.4.49 (Unix) OpenSSL/1.0.1f' : 'nginx/1.26.2', 'content-type': 'text/html' })
    res.end('<html><body>It works!</body></html>')
  }
}

function elasticHandler(vuln: boolean): http.RequestListener {
  return (_req, res) => {
    if (!vuln) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="security" charset="UTF-8"', 'content-type': 'application/json' })
      return res.end(
        JSON.stringify({
          error: { type: 'security_exception', reason: 'missing authentication credentials for REST request [/]' },
          status: 401,
        }),
      )
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' })
    res.end(
      JSON.stringify({
        name: 'node-1',
        cluster_name: 'vuln-cluster',
        cluster_uuid: 'Q0zq2n1ZQ5W4Yx0oKk2fHg',
        version: { number: '6.8.0', build_flavor: 'default', lucene_version: '7.7.0' },
        tagline: 'You Know, for Search',
      }),
    )
  }
}

// ---- MongoDB wire protocol: OP_QUERY / OP_MSG in, OP_REPLY / OP_MSG out ----

function mongoServer(vuln: boolean): net.Server {
  const answer = (cmd: BsonDoc): BsonDoc => {
    const name = Object.keys(cmd)[0]?.toLowerCase()
    // maxWireVersion 13 is MongoDB 5.0 (past its end of life), 21 is 7.0.
    if (name === 'ismaster' || name === 'hello')
      return { ismaster: true, maxBsonObjectSize: 16777216, maxWireVersion: vuln ? 13 : 21, minWireVersion: 0, ok: 1 }
    if (!vuln) return { ok: 0, errmsg: `command ${Object.keys(cmd)[0]} requires authentication`, code: 13, codeName: 'Unauthorized' }
    if (name === 'listdatabases')
      return {
        databases: [
          { name: 'admin', sizeOnDisk: 40960, empty: false },
          { name: 'customers', sizeOnDisk: 73728, empty: false },
        ],
        totalSize: 114688,
        ok: 1,
      }
    if (name === 'buildinfo') return { version: '4.4.29', ok: 1 }
    return { ok: 0, errmsg: 'no such command', code: 59 }
  }
  return net.createServer((s) => {
    let buf = Buffer.alloc(0)
    s.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      while (buf.length >= 16 && buf.length >= buf.readInt32LE(0)) {
        const msg = buf.subarray(0, buf.readInt32LE(0))
        buf = buf.subarray(msg.length)
        const requestId = msg.readInt32LE(4)
        const op = msg.readInt32LE(12)
        if (op === 2004) {
          const nameEnd = msg.indexOf(0, 20)
          const reply = encodeBson(answer(decodeBson(msg, nameEnd + 1 + 8)))
          const body = Buffer.alloc(20)
          body.writeInt32LE(1, 16) // numberReturned
          s.write(Buffer.concat([header(16 + 20 + reply.length, requestId, 1), body, reply]))
        } else if (op === 2013) {
          const reply = encodeBson(answer(decodeBson(msg, 21)))
          s.write(Buffer.concat([header(16 + 5 + reply.length, requestId, 2013), Buffer.alloc(5), reply]))
        } else s.destroy()
      }
    })
  })
}

function header(length: number, responseTo: number, op: number): Buffer {
  const h = Buffer.alloc(16)
  h.writeInt32LE(length, 0)
  h.writeInt32LE(1, 4)
  h.writeInt32LE(responseTo, 8)
  h.writeInt32LE(op, 12)
  return h
}

// ---- TLS ----

/** A throw-away self-signed certificate (openssl CLI), so the TLS analysis has something to report. */
function selfSignedCert(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'ward-netvuln-'))
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '365',
        '-subj',
        '/CN=vuln.test',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    )
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
