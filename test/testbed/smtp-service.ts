// SMTP AUTH test bed for the Password Auditor: one mail server on four ports of a loopback address, its
// accounts shared by every port as on a real server. 25: AUTH PLAIN LOGIN in clear text; 2525: AUTH
// LOGIN only (with the old "AUTH=" line), its first AUTH answered 454 (a temporary failure); 587:
// STARTTLS, AUTH offered and accepted only after it (530 before); 465: TLS from the first byte, AUTH
// CRAM-MD5 only. An account locks after `threshold` failures on any port: from then on its AUTH gets
// "421 4.7.0 Too many failed authentication attempts", and the connection closes.
import net from 'node:net'
import tls from 'node:tls'
import type { Duplex } from 'node:stream'
import { createHmac, randomBytes } from 'node:crypto'
import { testCert } from './tcp-services.js'

export const SMTP_ADDR = { weak: '127.0.122.10', hardened: '127.0.122.11' } as const
export const SMTP_PORTS = { plain: 25, smtps: 465, submission: 587, alt: 2525 } as const
/** The default account the auditor must find (shipped list "smtp"). */
export const WEAK_SMTP: ReadonlyArray<readonly [string, string]> = [['test', 'test123']]
export const hardenedSmtp = (): Array<[string, string]> => WEAK_SMTP.map(([u]) => [u, randomBytes(18).toString('base64url')])

const GREETING = '220 mail.ward-test.example ESMTP Postfix\r\n'

interface Profile {
  port: number
  mechs: string[]
  /** TLS from the first byte. */
  implicitTls?: boolean
  /** STARTTLS offered; AUTH only after it. */
  starttls?: boolean
  /** The first AUTH on this port gets 454. */
  temporaryFirst?: boolean
}

const PROFILES: readonly Profile[] = [
  { port: SMTP_PORTS.plain, mechs: ['PLAIN', 'LOGIN'] },
  { port: SMTP_PORTS.alt, mechs: ['LOGIN'], temporaryFirst: true },
  { port: SMTP_PORTS.submission, mechs: ['PLAIN', 'LOGIN', 'CRAM-MD5'], starttls: true },
  { port: SMTP_PORTS.smtps, mechs: ['CRAM-MD5'], implicitTls: true },
]

/** One AUTH the server decided. */
export interface SmtpAuth {
  port: number
  mech: string
  tls: boolean
  user: string
  ok: boolean
}

export interface SmtpBed {
  host: string
  auths: SmtpAuth[]
  /** Failed AUTHs per account, every port together. */
  failures: Map<string, number>
  locked(): string[]
  /** AUTHs of accounts already locked. */
  afterLock: { count: number }
  /** AUTHs answered 454. */
  temporary: { count: number }
  close(): Promise<void>
}

const unb64 = (s: string) => Buffer.from(s.trim(), 'base64').toString('utf8')
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64')

export async function startSmtpBed(
  host: string,
  accounts: ReadonlyArray<readonly [string, string]> = WEAK_SMTP,
  threshold = 5,
): Promise<SmtpBed> {
  const { key, cert } = testCert()
  const secureContext = tls.createSecureContext({ key, cert })
  const auths: SmtpAuth[] = []
  const failures = new Map<string, number>()
  const afterLock = { count: 0 }
  const temporary = { count: 0 }
  const temporaryDone = new Set<number>()
  const sockets = new Set<Duplex>()
  const passwordOf = (user: string) => accounts.find(([u]) => u === user)?.[1]

  function session(raw: Duplex, p: Profile) {
    sockets.add(raw)
    raw.on('close', () => sockets.delete(raw))
    raw.on('error', () => {})
    let sock = raw
    let secure = !!p.implicitTls
    let buf = ''
    // An AUTH exchange under way: its mechanism, what it still waits for, and what it has so far.
    let pending: { mech: string; step: 'response' | 'user' | 'password'; user?: string; challenge?: string } | null = null
    const say = (line: string) => sock.write(`${line}\r\n`)

    const decide = (mech: string, user: string, check: (password: string | undefined) => boolean) => {
      pending = null
      if ((failures.get(user) ?? 0) >= threshold) {
        afterLock.count++
        sock.end('421 4.7.0 mail.ward-test.example Error: too many failed authentication attempts, closing connection\r\n')
        return
      }
      const ok = check(passwordOf(user))
      auths.push({ port: p.port, mech, tls: secure, user, ok })
      if (ok) return say('235 2.7.0 Authentication successful')
      failures.set(user, (failures.get(user) ?? 0) + 1)
      say('535 5.7.8 Error: authentication failed: authentication failure')
    }
    const plain = (response: string) => {
      const [, user = '', password = ''] = unb64(response).split('\0')
      decide('PLAIN', user, (pw) => pw === password)
    }

    const onAuthLine = (line: string) => {
      const a = pending!
      if (line === '*') {
        pending = null
        return say('501 5.7.0 Authentication aborted')
      }
      if (a.mech === 'PLAIN') return plain(line)
      if (a.mech === 'LOGIN' && a.step === 'user') {
        pending = { ...a, step: 'password', user: unb64(line) }
        return say(`334 ${b64('Password:')}`)
      }
      if (a.mech === 'LOGIN') return decide('LOGIN', a.user!, (pw) => pw === unb64(line))
      const [user = '', digest = ''] = unb64(line).split(' ')
      decide('CRAM-MD5', user, (pw) => pw !== undefined && createHmac('md5', pw).update(a.challenge!).digest('hex') === digest)
    }

    const onAuth = (mech: string, initial: string | undefined) => {
      if (p.starttls && !secure) return say('530 5.7.0 Must issue a STARTTLS command first')
      if (!p.mechs.includes(mech)) return say('504 5.5.4 Unrecognized authentication type')
      if (p.temporaryFirst && !temporaryDone.has(p.port)) {
        temporaryDone.add(p.port)
        temporary.count++
        return say('454 4.7.0 Temporary authentication failure')
      }
      if (mech === 'PLAIN') {
        if (initial) return plain(initial)
        pending = { mech, step: 'response' }
        return say('334 ')
      }
      if (mech === 'LOGIN') {
        pending = initial ? { mech, step: 'password', user: unb64(initial) } : { mech, step: 'user' }
        return say(`334 ${b64(initial ? 'Password:' : 'Username:')}`)
      }
      const challenge = `<${randomBytes(8).toString('hex')}.${Date.now()}@mail.ward-test.example>`
      pending = { mech, step: 'response', challenge }
      say(`334 ${b64(challenge)}`)
    }

    const ehlo = () => {
      const ext = ['mail.ward-test.example', 'PIPELINING', 'SIZE 10240000']
      if (p.starttls && !secure) ext.push('STARTTLS')
      else {
        ext.push(`AUTH ${p.mechs.join(' ')}`)
        // Old clients (Outlook Express) read "AUTH=": some servers still send both lines.
        if (p.mechs.includes('LOGIN')) ext.push(`AUTH=${p.mechs.join(' ')}`)
      }
      ext.push('ENHANCEDSTATUSCODES', '8BITMIME')
      ext.forEach((e, i) => say(`250${i === ext.length - 1 ? ' ' : '-'}${e}`))
    }

    const onLine = (line: string) => {
      if (pending) return onAuthLine(line)
      const [verb = '', ...args] = line.split(' ')
      switch (verb.toUpperCase()) {
        case 'EHLO':
          return ehlo()
        case 'HELO':
          return say('250 mail.ward-test.example')
        case 'STARTTLS':
          if (!p.starttls || secure) return say('503 5.5.1 Error: TLS already active or not offered')
          say('220 2.0.0 Ready to start TLS')
          return upgrade()
        case 'AUTH':
          return onAuth((args[0] ?? '').toUpperCase(), args[1])
        case 'NOOP':
        case 'RSET':
          return say('250 2.0.0 Ok')
        case 'QUIT':
          sock.end('221 2.0.0 Bye\r\n')
          return
        default:
          return say('502 5.5.2 Error: command not recognized')
      }
    }

    const onData = (d: Buffer) => {
      buf += d.toString('latin1')
      if (buf.length > 65536) return sock.destroy()
      let i: number
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).replace(/\r$/, '')
        buf = buf.slice(i + 1)
        onLine(line)
      }
    }

    const upgrade = () => {
      sock.off('data', onData)
      buf = '' // RFC 3207: nothing sent before the handshake counts after it
      const t = new tls.TLSSocket(sock as net.Socket, { isServer: true, secureContext })
      t.on('error', () => {})
      sockets.add(t)
      t.on('close', () => sockets.delete(t))
      sock = t
      secure = true
      t.on('data', onData)
    }

    sock.on('data', onData)
    sock.write(GREETING)
  }

  const servers: net.Server[] = []
  for (const p of PROFILES) {
    const server = p.implicitTls
      ? tls.createServer({ key, cert }, (s) => session(s, p)).on('tlsClientError', () => {})
      : net.createServer((s) => session(s, p))
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(p.port, host, () => resolve())
    })
    servers.push(server)
  }
  return {
    host,
    auths,
    failures,
    locked: () => [...failures].filter(([, n]) => n >= threshold).map(([u]) => u),
    afterLock,
    temporary,
    close: async () => {
      for (const s of sockets) s.destroy()
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))))
    },
  }
}
