// Login test bed for the Password Auditor: FTP, SSH (ssh2), Telnet, MySQL (mysql_native_password),
// PostgreSQL (SCRAM-SHA-256), Redis (AUTH), a Tomcat manager (Basic), a Grafana login (JSON), a Jenkins
// login form, phpMyAdmin's cookie login and a camera-like Digest page, on their standard ports of one
// loopback address. `weak` accounts use shipped defaults; `hardened` gives every account a long random
// password. A lockout bed: HTTP Basic that locks an account after N failures, and says so.
import net from 'node:net'
import http from 'node:http'
import { createHash, createHmac, generateKeyPairSync, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto'
import ssh2 from 'ssh2'
import { lines } from './tcp-services.js'

export type Accounts = Record<
  'ftp' | 'ssh' | 'telnet' | 'mysql' | 'postgresql' | 'redis' | 'tomcat' | 'grafana' | 'jenkins' | 'phpmyadmin' | 'digest',
  Array<[string, string]>
>

/** Defaults the auditor must find (user, password), and an extra FTP account a test hands over in tool_params. */
export const WEAK_ACCOUNTS: Accounts = {
  ftp: [
    ['ftpuser', 'ftppass'],
    ['ward-ops', 'Zq9-Unique-Pass-4417'],
  ],
  ssh: [['pi', 'raspberry']],
  telnet: [['root', 'xc3511']],
  mysql: [['root', 'r00t']],
  postgresql: [['postgres', 'postgres123']],
  redis: [['default', 'foobared']],
  tomcat: [['tomcat', 's3cret']],
  grafana: [['admin', 'prom-operator']],
  jenkins: [['jenkins', 'jenkins']],
  phpmyadmin: [['root', '']],
  digest: [['manager', 'manager']],
}

export const PORTS = {
  ftp: 21,
  ssh: 22,
  telnet: 23,
  tomcat: 80,
  grafana: 3000,
  mysql: 3306,
  postgresql: 5432,
  redis: 6379,
  jenkins: 8080,
  phpmyadmin: 8888,
  digest: 9090,
} as const

export function hardenedAccounts(): Accounts {
  const strong = () => randomBytes(18).toString('base64url')
  return Object.fromEntries(Object.entries(WEAK_ACCOUNTS).map(([k, list]) => [k, list.map(([u]) => [u, strong()])])) as Accounts
}

export interface LoginBed {
  host: string
  close(): Promise<void>
}

const ok = (list: Array<[string, string]>, u: string, p: string) => list.some(([a, b]) => a === u && b === p)

function listen(server: net.Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
}

// ---- FTP ----
const ftp = (acc: Array<[string, string]>) =>
  net.createServer((s) => {
    s.on('error', () => {})
    s.write('220 (vsFTPd 3.0.5)\r\n')
    let user = ''
    lines(s, (line) => {
      const [cmd, ...rest] = line.split(' ')
      const arg = rest.join(' ')
      if (cmd === 'USER') {
        user = arg
        s.write('331 Please specify the password.\r\n')
      } else if (cmd === 'PASS') s.write(ok(acc, user, arg) ? '230 Login successful.\r\n' : '530 Login incorrect.\r\n')
      else if (cmd === 'QUIT') s.end('221 Goodbye.\r\n')
      else s.write('530 Please login with USER and PASS.\r\n')
    })
  })

// ---- Telnet ----
const telnet = (acc: Array<[string, string]>) =>
  net.createServer((s) => {
    s.on('error', () => {})
    s.write(Buffer.from([255, 251, 1, 255, 251, 3])) // WILL ECHO, WILL SGA
    s.write('\r\nUbuntu 22.04.3 LTS\r\nrouter login: ')
    let user: string | null = null
    let buf = ''
    s.on('data', (d: Buffer) => {
      // Drop the client's option answers (IAC x y), keep the text.
      const text: number[] = []
      for (let i = 0; i < d.length; i++) d[i] === 255 ? (i += 2) : text.push(d[i]!)
      buf += Buffer.from(text).toString('latin1')
      let i: number
      // A line ends with CR LF, CR NUL (the NVT form many clients send) or LF.
      buf = buf.replace(/\r\0|\r\n/g, '\n')
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).replace(/\r$/, '').replace(/\0/g, '')
        buf = buf.slice(i + 1)
        if (user === null) {
          user = line
          s.write('Password: ')
        } else {
          if (ok(acc, user, line)) s.write('\r\nWelcome to Ubuntu\r\nroot@router:~# ')
          else s.write('\r\nLogin incorrect\r\nrouter login: ')
          user = null
        }
      }
    })
  })

// ---- Redis ----
const redis = (acc: Array<[string, string]>) =>
  net.createServer((s) => {
    s.on('error', () => {})
    let buf = ''
    s.on('data', (d) => {
      buf += d.toString('latin1')
      for (;;) {
        const m = /^\*(\d+)\r\n/.exec(buf)
        if (!m) return
        let at = m[0].length
        const args: string[] = []
        for (let k = 0; k < Number(m[1]); k++) {
          const h = /^\$(\d+)\r\n/.exec(buf.slice(at))
          if (!h || buf.length < at + h[0].length + Number(h[1]) + 2) return
          at += h[0].length
          args.push(buf.slice(at, at + Number(h[1])))
          at += Number(h[1]) + 2
        }
        buf = buf.slice(at)
        const [cmd, a, b] = args
        if (cmd?.toUpperCase() === 'AUTH') {
          const good = b === undefined ? ok(acc, 'default', a ?? '') : ok(acc, a ?? '', b)
          s.write(good ? '+OK\r\n' : '-WRONGPASS invalid username-password pair or user is disabled.\r\n')
        } else s.write('-NOAUTH Authentication required.\r\n')
      }
    })
  })

// ---- MySQL (mysql_native_password) ----
function mysqlPacket(seq: number, payload: Buffer) {
  const h = Buffer.alloc(4)
  h.writeUIntLE(payload.length, 0, 3)
  h[3] = seq
  return Buffer.concat([h, payload])
}
const sha1 = (b: Buffer | string) => createHash('sha1').update(b).digest()
const mysql = (acc: Array<[string, string]>) =>
  net.createServer((s) => {
    s.on('error', () => {})
    const scramble = Buffer.from(randomBytes(20).map((b) => (b % 94) + 33))
    const hs = Buffer.concat([
      Buffer.from([10]),
      Buffer.from('8.0.35\0'),
      Buffer.from([7, 0, 0, 0]),
      scramble.subarray(0, 8),
      Buffer.from([0]),
      Buffer.from([0xff, 0xf7]),
      Buffer.from([33]),
      Buffer.from([2, 0]),
      Buffer.from([0xff, 0x81]),
      Buffer.from([21]),
      Buffer.alloc(10),
      scramble.subarray(8),
      Buffer.from([0]),
      Buffer.from('mysql_native_password\0'),
    ])
    s.write(mysqlPacket(0, hs))
    let buf = Buffer.alloc(0)
    s.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      if (buf.length < 4 || buf.length < 4 + buf.readUIntLE(0, 3)) return
      const p = buf.subarray(4, 4 + buf.readUIntLE(0, 3))
      const uEnd = p.indexOf(0, 32)
      const user = p.subarray(32, uEnd).toString()
      const auth = p.subarray(uEnd + 2, uEnd + 2 + p[uEnd + 1]!)
      const good = acc.some(([u, pw]) => {
        if (u !== user) return false
        if (!pw) return auth.length === 0
        const h2 = sha1(sha1(pw))
        const x = sha1(Buffer.concat([scramble, h2]))
        return auth.length === 20 && sha1(Buffer.from(auth.map((b, i) => b ^ x[i]!))).equals(h2)
      })
      const err = Buffer.concat([
        Buffer.from([0xff, 0x15, 0x04]),
        Buffer.from(`#28000Access denied for user '${user}'@'localhost' (using password: YES)`),
      ])
      s.end(mysqlPacket(2, good ? Buffer.from([0, 0, 0, 2, 0, 0, 0]) : err))
    })
  })

// ---- PostgreSQL (SCRAM-SHA-256) ----
const pgMsg = (type: string, body: Buffer) => {
  const h = Buffer.alloc(5)
  h.write(type, 0, 'latin1')
  h.writeUInt32BE(body.length + 4, 1)
  return Buffer.concat([h, body])
}
const int32 = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n)
  return b
}
const pgError = (code: string, m: string) => pgMsg('E', Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${m}\0\0`))
const postgres = (acc: Array<[string, string]>) =>
  net.createServer((s) => {
    s.on('error', () => {})
    let buf = Buffer.alloc(0)
    let stage = 0
    let user = ''
    let clientBare = ''
    let serverFirst = ''
    let nonce = ''
    const salt = randomBytes(16)
    s.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      for (;;) {
        if (stage === 0) {
          if (buf.length < 4 || buf.length < buf.readUInt32BE(0)) return
          // libpq asks for TLS (SSLRequest) or GSS encryption first; the server says no ('N') and the
          // client sends its startup message in the clear, as with a server without TLS.
          if (buf.readUInt32BE(0) === 8 && [80877103, 80877104].includes(buf.readUInt32BE(4))) {
            buf = buf.subarray(8)
            s.write('N')
            continue
          }
          const parts = buf.subarray(8, buf.readUInt32BE(0)).toString().split('\0')
          buf = buf.subarray(buf.readUInt32BE(0))
          user = parts[parts.indexOf('user') + 1] ?? ''
          s.write(pgMsg('R', Buffer.concat([int32(10), Buffer.from('SCRAM-SHA-256\0\0')])))
          stage = 1
          continue
        }
        if (buf.length < 5 || buf.length < 1 + buf.readUInt32BE(1)) return
        const body = buf.subarray(5, 1 + buf.readUInt32BE(1))
        buf = buf.subarray(1 + buf.readUInt32BE(1))
        if (stage === 1) {
          const mEnd = body.indexOf(0)
          const first = body.subarray(mEnd + 5).toString()
          clientBare = first.replace(/^n,,/, '')
          nonce = /r=([^,]+)/.exec(clientBare)![1]! + randomBytes(12).toString('base64')
          serverFirst = `r=${nonce},s=${salt.toString('base64')},i=4096`
          s.write(pgMsg('R', Buffer.concat([int32(11), Buffer.from(serverFirst)])))
          stage = 2
        } else {
          const final = body.toString()
          const withoutProof = final.replace(/,p=[^,]*$/, '')
          const proof = Buffer.from(/p=([^,]+)$/.exec(final)?.[1] ?? '', 'base64')
          const authMessage = `${clientBare},${serverFirst},${withoutProof}`
          const pw = acc.find(([u]) => u === user)?.[1]
          let good = false
          if (pw !== undefined && proof.length === 32) {
            const salted = pbkdf2Sync(pw, salt, 4096, 32, 'sha256')
            const storedKey = createHash('sha256').update(createHmac('sha256', salted).update('Client Key').digest()).digest()
            const sig = createHmac('sha256', storedKey).update(authMessage).digest()
            const clientKey = Buffer.from(proof.map((b, i) => b ^ sig[i]!))
            good = timingSafeEqual(createHash('sha256').update(clientKey).digest(), storedKey)
            if (good) {
              const serverKey = createHmac('sha256', salted).update('Server Key').digest()
              const v = createHmac('sha256', serverKey).update(authMessage).digest('base64')
              s.write(
                Buffer.concat([
                  pgMsg('R', Buffer.concat([int32(12), Buffer.from(`v=${v}`)])),
                  pgMsg('R', int32(0)),
                  pgMsg('Z', Buffer.from('I')),
                ]),
              )
              return void s.end()
            }
          }
          return void s.end(pgError('28P01', `password authentication failed for user "${user}"`))
        }
      }
    })
  })

// ---- SSH ----
const HOST_KEY = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'pkcs1', format: 'pem' },
}).privateKey
function sshServer(acc: Array<[string, string]>) {
  const server = new ssh2.Server({ hostKeys: [HOST_KEY], ident: 'OpenSSH_8.9p1 Ubuntu-3ubuntu0.6' }, (client) => {
    client.on('error', () => {})
    client.on('authentication', (c) => {
      if (c.method === 'password' && ok(acc, c.username, c.password)) return c.accept()
      c.reject(['password'])
    })
    client.on('ready', () => client.end())
  })
  return server as unknown as net.Server
}

// ---- Web ----
const send = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string | string[]> = {}) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers })
  res.end(body)
}
const readBody = (req: http.IncomingMessage) =>
  new Promise<string>((resolve) => {
    let b = ''
    req.on('data', (d) => (b += d))
    req.on('end', () => resolve(b))
  })
const basicUser = (req: http.IncomingMessage): [string, string] | null => {
  const m = /^Basic (.+)$/.exec(req.headers.authorization ?? '')
  if (!m) return null
  const t = Buffer.from(m[1]!, 'base64').toString()
  const i = t.indexOf(':')
  return i < 0 ? null : [t.slice(0, i), t.slice(i + 1)]
}

const tomcat = (acc: Array<[string, string]>) =>
  http.createServer((req, res) => {
    if (req.url === '/')
      return send(
        res,
        200,
        '<html><head><title>Apache Tomcat/9.0.50</title></head><body><h1>Apache Tomcat/9.0.50</h1><a href="/manager/html">Manager App</a></body></html>',
      )
    if (req.url?.startsWith('/manager/html')) {
      const c = basicUser(req)
      if (c && ok(acc, c[0], c[1])) return send(res, 200, '<html><title>/manager</title><body>Tomcat Web Application Manager</body></html>')
      return send(res, 401, '<html><body>401 Unauthorized</body></html>', {
        'www-authenticate': 'Basic realm="Tomcat Manager Application"',
      })
    }
    send(res, 404, 'not found')
  })

const grafana = (acc: Array<[string, string]>) =>
  http.createServer(async (req, res) => {
    if (req.method === 'POST' && req.url === '/login') {
      const b = JSON.parse((await readBody(req)) || '{}') as { user?: string; password?: string }
      if (ok(acc, b.user ?? '', b.password ?? ''))
        return send(res, 200, '{"message":"Logged in","redirectUrl":"/"}', {
          'content-type': 'application/json',
          'set-cookie': 'grafana_session=abc; Path=/; HttpOnly',
        })
      return send(res, 401, '{"message":"Invalid username or password"}', { 'content-type': 'application/json' })
    }
    if (req.url === '/') return send(res, 302, '', { location: '/login' })
    if (req.url === '/login')
      return send(
        res,
        200,
        '<!DOCTYPE html><html><head><title>Grafana</title></head><body><script>window.grafanaBootData = {"settings":{"buildInfo":{"version":"10.2.3"}}};</script></body></html>',
      )
    send(res, 404, 'not found')
  })

const jenkins = (acc: Array<[string, string]>, sessionToken = randomBytes(8).toString('hex')) =>
  http.createServer(async (req, res) => {
    const h = { 'x-jenkins': '2.426.1', 'x-hudson': '1.395' }
    if (req.method === 'POST' && req.url === '/j_spring_security_check') {
      const f = new URLSearchParams(await readBody(req))
      // As Jenkins: a session cookie with the redirect home; the home page needs it.
      if (ok(acc, f.get('j_username') ?? '', f.get('j_password') ?? ''))
        return send(res, 302, '', { ...h, location: '/', 'set-cookie': `JSESSIONID.bed=${sessionToken}; Path=/; HttpOnly` })
      return send(res, 302, '', { ...h, location: '/loginError' })
    }
    if (req.url === '/' && (req.headers.cookie ?? '').includes(`JSESSIONID.bed=${sessionToken}`))
      return send(res, 200, '<html><head><title>Dashboard [Jenkins]</title></head><body>Welcome</body></html>', h)
    if (req.url === '/login' || req.url === '/')
      return send(
        res,
        req.url === '/' ? 403 : 200,
        '<html><head><title>Sign in [Jenkins]</title></head><body><form method="post" action="j_spring_security_check"><input name="j_username"><input name="j_password" type="password"><input name="from" type="hidden" value="/"></form></body></html>',
        h,
      )
    send(res, 404, 'not found', h)
  })

const phpmyadmin = (acc: Array<[string, string]>) => {
  const token = randomBytes(8).toString('hex')
  const sessions = new Set<string>()
  const form =
    '<html><head><title>phpMyAdmin</title></head><body><form method="post" action="index.php"><input type="hidden" name="set_session" value="s1"><input type="hidden" name="token" value="' +
    token +
    '"><input name="pma_username" id="input_username"><input type="password" name="pma_password"><input type="hidden" name="server" value="1"></form></body></html>'
  return http.createServer(async (req, res) => {
    if (req.method === 'POST') {
      const f = new URLSearchParams(await readBody(req))
      const sid = /phpMyAdmin=([^;]+)/.exec(req.headers.cookie ?? '')?.[1]
      if (sid && sessions.has(sid) && f.get('token') === token && ok(acc, f.get('pma_username') ?? '', f.get('pma_password') ?? ''))
        return send(res, 302, '', {
          location: 'index.php?route=/',
          'set-cookie': ['pmaAuth-1=' + randomBytes(8).toString('hex') + '; path=/; HttpOnly'],
        })
      return send(
        res,
        200,
        form.replace('<form', '<div class="alert">mysqli::real_connect(): (HY000/1045): Access denied for user</div><form'),
      )
    }
    const sid = randomBytes(8).toString('hex')
    sessions.add(sid)
    send(res, 200, form, { 'set-cookie': `phpMyAdmin=${sid}; path=/; HttpOnly` })
  })
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex')
const digest = (acc: Array<[string, string]>) => {
  const realm = 'IP Camera'
  return http.createServer((req, res) => {
    const a = req.headers.authorization ?? ''
    if (a.startsWith('Digest ')) {
      const f: Record<string, string> = {}
      for (const m of a.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]+))/g)) f[m[1]!] = m[2] ?? m[3]!
      const pw = acc.find(([u]) => u === f.username)?.[1]
      if (pw !== undefined) {
        const expected = md5(`${md5(`${f.username}:${realm}:${pw}`)}:${f.nonce}:${f.nc}:${f.cnonce}:${f.qop}:${md5(`GET:${f.uri}`)}`)
        if (expected === f.response) return send(res, 200, '<html><title>Live view</title></html>')
      }
    }
    send(res, 401, 'Unauthorized', {
      'www-authenticate': `Digest realm="${realm}", qop="auth", nonce="${randomBytes(12).toString('hex')}", algorithm=MD5`,
    })
  })
}

/** Every login service on its standard port of `host`. */
export async function startLoginBed(host: string, acc: Accounts = WEAK_ACCOUNTS): Promise<LoginBed> {
  const servers: Array<[net.Server, number]> = [
    [ftp(acc.ftp), PORTS.ftp],
    [sshServer(acc.ssh), PORTS.ssh],
    [telnet(acc.telnet), PORTS.telnet],
    [mysql(acc.mysql), PORTS.mysql],
    [postgres(acc.postgresql), PORTS.postgresql],
    [redis(acc.redis), PORTS.redis],
    [tomcat(acc.tomcat), PORTS.tomcat],
    [grafana(acc.grafana), PORTS.grafana],
    [jenkins(acc.jenkins), PORTS.jenkins],
    [phpmyadmin(acc.phpmyadmin), PORTS.phpmyadmin],
    [digest(acc.digest), PORTS.digest],
  ]
  for (const [s, port] of servers) await listen(s, host, port)
  return { host, close: () => closeAll(servers.map(([s]) => s)) }
}

async function closeAll(servers: net.Server[]) {
  for (const s of servers) {
    ;(s as { closeAllConnections?: () => void }).closeAllConnections?.()
    await new Promise<void>((r) => s.close(() => r()))
  }
}

export interface LockoutBed extends LoginBed {
  url: string
  /** Failed logins per account so far. */
  failures: Map<string, number>
  /** Accounts locked. */
  locked(): string[]
  /** Login attempts on accounts already locked. */
  afterLock: { count: number }
}

/** HTTP Basic on port 80 that locks an account after `threshold` failures: then it answers 401 with "Account locked". */
export async function startLockoutBed(host: string, threshold = 5): Promise<LockoutBed> {
  const failures = new Map<string, number>()
  const afterLock = { count: 0 }
  const server = http.createServer((req, res) => {
    const c = basicUser(req)
    if (c && (failures.get(c[0]) ?? 0) >= threshold) afterLock.count++
    const challenge = { 'www-authenticate': 'Basic realm="Router Administration"' }
    if (!c) return send(res, 401, 'Authorization required', challenge)
    const n = failures.get(c[0]) ?? 0
    if (n >= threshold)
      return send(res, 401, '<html><body>Account locked: too many failed login attempts. Try again later.</body></html>', challenge)
    if (c[0] === 'admin' && c[1] === 'Not-A-Default-Pw-9931') return send(res, 200, 'Welcome')
    failures.set(c[0], n + 1)
    send(res, 401, 'Authorization required', challenge)
  })
  await listen(server, host, 80)
  return {
    host,
    url: `http://${host}/`,
    failures,
    locked: () => [...failures].filter(([, n]) => n >= threshold).map(([u]) => u),
    afterLock,
    close: () => closeAll([server]),
  }
}
