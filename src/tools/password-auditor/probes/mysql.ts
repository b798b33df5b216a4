// MySQL / MariaDB login: read the handshake, answer with HandshakeResponse41 for the server's plugin
// (mysql_native_password or caching_sha2_password), follow one auth switch; OK is a success, ERR 1045 a
// failure, ERR 1129 (host blocked after failures) a lockout.
import { withSession, type ProbeTarget, type Session } from '../../lib/services/session.js'
import { authResponse, mysqlError, parseHandshake } from '../detect/mysql-auth.js'
import { timed, type Attempter } from './attempt.js'

const CLIENT_LONG_PASSWORD = 0x1
const CLIENT_PROTOCOL_41 = 0x200
const CLIENT_SECURE_CONNECTION = 0x8000
const CLIENT_PLUGIN_AUTH = 0x80000

async function readPacket(s: Session): Promise<{ seq: number; payload: Buffer }> {
  const b = await s.read((buf) => (buf.length >= 4 && buf.length >= 4 + buf.readUIntLE(0, 3) ? 4 + buf.readUIntLE(0, 3) : 0))
  return { seq: b[3]!, payload: b.subarray(4) }
}

function packet(seq: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(4)
  h.writeUIntLE(payload.length, 0, 3)
  h[3] = seq & 0xff
  return Buffer.concat([h, payload])
}

function handshakeResponse(user: string, auth: Buffer, plugin: string): Buffer {
  const head = Buffer.alloc(32)
  head.writeUInt32LE(CLIENT_LONG_PASSWORD | CLIENT_PROTOCOL_41 | CLIENT_SECURE_CONNECTION | CLIENT_PLUGIN_AUTH, 0)
  head.writeUInt32LE(16 * 1024 * 1024, 4)
  head[8] = 33 // utf8_general_ci
  return Buffer.concat([head, Buffer.from(user + '\0', 'utf8'), Buffer.from([auth.length]), auth, Buffer.from(plugin + '\0', 'latin1')])
}

export const mysqlLogin =
  (t: Omit<ProbeTarget, 'signal'>): Attempter =>
  (user, password, signal) =>
    timed(() =>
      withSession({ ...t, signal }, async (s) => {
        const first = await readPacket(s)
        if (first.payload[0] === 0xff) {
          const e = mysqlError(first.payload)
          return e.code === 1129 ? { result: 'locked', note: 'ERR 1129 host blocked' } : { result: 'error', note: `ERR ${e.code}` }
        }
        const hs = parseHandshake(first.payload)
        let plugin = hs.plugin
        const auth = authResponse(plugin, password, hs.scramble) ?? authResponse((plugin = 'mysql_native_password'), password, hs.scramble)!
        s.send(packet(first.seq + 1, handshakeResponse(user, auth, plugin)), `HandshakeResponse41 user=${user} ${plugin} ***`)
        for (let i = 0; i < 4; i++) {
          const r = await readPacket(s)
          const kind = r.payload[0]
          if (kind === 0x00) return { result: 'success', note: 'OK' }
          if (kind === 0xff) {
            const e = mysqlError(r.payload)
            if (e.code === 1129) return { result: 'locked', note: 'ERR 1129 host blocked' }
            return e.code === 1045 ? { result: 'failure', note: 'ERR 1045' } : { result: 'error', note: `ERR ${e.code}` }
          }
          if (kind === 0xfe) {
            // AuthSwitchRequest: plugin name, then the new scramble.
            const end = r.payload.indexOf(0, 1)
            plugin = r.payload.subarray(1, end).toString('latin1')
            const scramble = r.payload.subarray(end + 1, r.payload[r.payload.length - 1] === 0 ? -1 : undefined)
            const answer = authResponse(plugin, password, scramble)
            if (!answer) return { result: 'error', note: `auth plugin ${plugin} not supported` }
            s.send(packet(r.seq + 1, answer), `auth switch to ${plugin} ***`)
          } else if (kind === 0x01 && r.payload[1] === 0x03)
            continue // caching_sha2 fast auth succeeded; OK follows
          else if (kind === 0x01 && r.payload[1] === 0x04)
            return { result: 'error', note: 'caching_sha2_password needs a full authentication over TLS' }
          else return { result: 'error', note: `unexpected packet 0x${(kind ?? 0).toString(16)}` }
        }
        return { result: 'error', note: 'no verdict' }
      }),
    )
