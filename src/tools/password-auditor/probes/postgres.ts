// PostgreSQL login: a StartupMessage, then whatever authentication the server asks for (cleartext,
// md5, SCRAM-SHA-256). AuthenticationOk, or an error other than a failed authentication after it, is
// a success; SQLSTATE 28P01 (invalid_password) and 28000 are failures.
import { withSession, type ProbeTarget, type Session } from '../../lib/services/session.js'
import { pgMd5 } from '../detect/pg-auth.js'
import { scramClient } from '../detect/scram.js'
import { saysLocked } from '../detect/lockout.js'
import { timed, type Attempter } from './attempt.js'

const msg = (type: string, body: Buffer) => {
  const head = Buffer.alloc(5)
  head.write(type, 0, 'latin1')
  head.writeUInt32BE(body.length + 4, 1)
  return Buffer.concat([head, body])
}
const cstr = (s: string) => Buffer.from(s + '\0', 'utf8')

function startup(user: string): Buffer {
  const body = Buffer.concat([
    Buffer.from([0, 3, 0, 0]),
    cstr('user'),
    cstr(user),
    cstr('database'),
    cstr('postgres'),
    cstr('application_name'),
    cstr('ward'),
    Buffer.from([0]),
  ])
  const len = Buffer.alloc(4)
  len.writeUInt32BE(body.length + 4)
  return Buffer.concat([len, body])
}

/** One backend message: its type and body. */
async function readMessage(s: Session): Promise<{ type: string; body: Buffer }> {
  const b = await s.read((buf) => (buf.length >= 5 && buf.length >= 1 + buf.readUInt32BE(1) ? 1 + buf.readUInt32BE(1) : 0))
  return { type: String.fromCharCode(b[0]!), body: b.subarray(5) }
}

/** The SQLSTATE code and message of an ErrorResponse body. */
function pgError(body: Buffer): { code: string; message: string } {
  const f: Record<string, string> = {}
  for (let i = 0; i < body.length && body[i] !== 0; ) {
    const end = body.indexOf(0, i + 1)
    f[String.fromCharCode(body[i]!)] = body.subarray(i + 1, end).toString('utf8')
    i = end + 1
  }
  return { code: f.C ?? '', message: f.M ?? '' }
}

export const postgresLogin =
  (t: Omit<ProbeTarget, 'signal'>): Attempter =>
  (user, password, signal) =>
    timed(() =>
      withSession({ ...t, signal }, async (s) => {
        s.send(startup(user), `StartupMessage user=${user}`)
        let scram: ReturnType<typeof scramClient> | null = null
        for (let i = 0; i < 8; i++) {
          const m = await readMessage(s)
          if (m.type === 'E') {
            const e = pgError(m.body)
            if (e.code === '28P01' || e.code === '28000') return { result: 'failure', note: e.code }
            if (saysLocked(e.message)) return { result: 'locked', note: e.code }
            // Authentication passed (no auth error) but the session could not start: the password was right.
            if (i > 0 && e.code === '3D000') return { result: 'success', note: 'authenticated (database "postgres" does not exist)' }
            return { result: 'error', note: `error ${e.code}` }
          }
          if (m.type !== 'R') return { result: 'error', note: `unexpected message ${m.type}` }
          const code = m.body.readUInt32BE(0)
          if (code === 0) return { result: i === 0 ? 'no-auth' : 'success', note: i === 0 ? 'trust authentication' : 'AuthenticationOk' }
          if (code === 3) s.send(msg('p', cstr(password)), 'PasswordMessage ***')
          else if (code === 5) s.send(msg('p', cstr(pgMd5(user, password, m.body.subarray(4, 8)))), 'PasswordMessage md5***')
          else if (code === 10) {
            const mechs = m.body.subarray(4).toString('utf8').split('\0')
            if (!mechs.includes('SCRAM-SHA-256')) return { result: 'error', note: `SASL mechanisms ${mechs.join(' ')}` }
            scram = scramClient()
            const data = Buffer.from(scram.first)
            const len = Buffer.alloc(4)
            len.writeInt32BE(data.length)
            s.send(msg('p', Buffer.concat([cstr('SCRAM-SHA-256'), len, data])), 'SASLInitialResponse SCRAM-SHA-256')
          } else if (code === 11 && scram)
            s.send(msg('p', Buffer.from(scram.final(m.body.subarray(4).toString('utf8'), password))), 'SASLResponse ***')
          else if (code === 12) continue
          else return { result: 'error', note: `authentication method ${code} not supported` }
        }
        return { result: 'error', note: 'no verdict' }
      }),
    )
