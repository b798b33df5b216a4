// A MongoDB-like server for the Password Auditor on 27017 of a loopback address: the legacy OP_QUERY
// isMaster that service detection sends, and OP_MSG hello, listDatabases (13 Unauthorized until
// authenticated) and SCRAM-SHA-256 / SCRAM-SHA-1 saslStart/saslContinue as mongod answers them (18
// AuthenticationFailed). `open` needs no authentication at all. The server side of SCRAM is written
// here from RFC 5802; the BSON codec is the auditor's (its fixed byte vectors are unit-tested).
import net from 'node:net'
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto'
import {
  decodeBson,
  encodeBson,
  frameLength,
  OP_MSG,
  OP_QUERY,
  OP_REPLY,
  type BsonDoc,
} from '../../src/tools/password-auditor/detect/mongo-wire.js'

export const MONGO_ADDR = { weak: '127.0.111.10', open: '127.0.111.11', hardened: '127.0.111.12' } as const
export const MONGO_PORT = 27017

export interface MongoAccount {
  user: string
  password: string
  mechanism: 'SCRAM-SHA-256' | 'SCRAM-SHA-1'
}

/** Defaults the auditor must find: the docker-compose example root (SCRAM-SHA-1 only) and mongoadmin (SCRAM-SHA-256). */
export const WEAK_MONGO: readonly MongoAccount[] = [
  { user: 'root', password: 'example', mechanism: 'SCRAM-SHA-1' },
  { user: 'mongoadmin', password: 'secret', mechanism: 'SCRAM-SHA-256' },
]

const hashOf = (m: MongoAccount['mechanism']) => (m === 'SCRAM-SHA-1' ? 'sha1' : 'sha256')
const ITERATIONS = 4096

function reply(op: number, requestId: number, doc: BsonDoc): Buffer {
  const body = op === OP_MSG ? Buffer.concat([Buffer.alloc(5), encodeBson(doc)]) : Buffer.concat([Buffer.alloc(20), encodeBson(doc)])
  if (op === OP_REPLY) body.writeInt32LE(1, 16) // numberReturned
  const head = Buffer.alloc(16)
  head.writeInt32LE(16 + body.length, 0)
  head.writeInt32LE(Math.floor(Math.random() * 1e6), 4)
  head.writeInt32LE(requestId, 8)
  head.writeInt32LE(op, 12)
  return Buffer.concat([head, body])
}

const unauthorized = (cmd: string) => ({ ok: 0, errmsg: `command ${cmd} requires authentication`, code: 13, codeName: 'Unauthorized' })
const failed = { ok: 0, errmsg: 'Authentication failed.', code: 18, codeName: 'AuthenticationFailed' }

interface Conversation {
  account: MongoAccount | undefined
  clientFirstBare: string
  serverFirst: string
  salt: Buffer
}

function scramContinue(c: Conversation, clientFinal: string): string | null {
  if (!c.account) return null
  const hash = hashOf(c.account.mechanism)
  const pw =
    c.account.mechanism === 'SCRAM-SHA-1'
      ? createHash('md5').update(`${c.account.user}:mongo:${c.account.password}`).digest('hex')
      : c.account.password
  const salted = pbkdf2Sync(pw, c.salt, ITERATIONS, hash === 'sha1' ? 20 : 32, hash)
  const withoutProof = clientFinal.replace(/,p=[^,]*$/, '')
  const proof = Buffer.from(/,p=([^,]*)$/.exec(clientFinal)?.[1] ?? '', 'base64')
  const authMessage = `${c.clientFirstBare},${c.serverFirst},${withoutProof}`
  const clientKey = createHmac(hash, salted).update('Client Key').digest()
  const storedKey = createHash(hash).update(clientKey).digest()
  const expected = Buffer.from(clientKey.map((b, i) => b ^ createHmac(hash, storedKey).update(authMessage).digest()[i]!))
  if (proof.length !== expected.length || !timingSafeEqual(proof, expected)) return null
  const serverKey = createHmac(hash, salted).update('Server Key').digest()
  return `v=${createHmac(hash, serverKey).update(authMessage).digest('base64')}`
}

function session(accounts: readonly MongoAccount[], open: boolean) {
  let authenticated = open
  let conv: Conversation | null = null
  return (cmd: string, doc: BsonDoc): BsonDoc => {
    switch (cmd) {
      case 'hello':
      case 'isMaster':
      case 'ismaster': {
        const a =
          typeof doc.saslSupportedMechs === 'string' ? accounts.find((x) => `admin.${x.user}` === doc.saslSupportedMechs) : undefined
        return {
          isWritablePrimary: true,
          ismaster: true,
          maxWireVersion: 17,
          minWireVersion: 0,
          ...(a ? { saslSupportedMechs: [a.mechanism] } : {}),
          ok: 1,
        }
      }
      case 'listDatabases':
        return authenticated ? { databases: [{ name: 'admin' }, { name: 'shop' }], ok: 1 } : unauthorized(cmd)
      case 'saslStart': {
        const first = Buffer.isBuffer(doc.payload) ? doc.payload.toString('utf8') : ''
        const bare = first.replace(/^n,,/, '')
        const user = /^n=([^,]*)/.exec(bare)?.[1]?.replace(/=2C/g, ',').replace(/=3D/g, '=')
        const account = accounts.find((a) => a.user === user && a.mechanism === doc.mechanism)
        const salt = randomBytes(16)
        const serverFirst = `r=${/r=([^,]*)/.exec(bare)?.[1] ?? ''}${randomBytes(18).toString('base64')},s=${salt.toString('base64')},i=${ITERATIONS}`
        conv = { account, clientFirstBare: bare, serverFirst, salt }
        return { conversationId: 1, done: false, payload: Buffer.from(serverFirst), ok: 1 }
      }
      case 'saslContinue': {
        if (!conv) return { ok: 0, errmsg: 'No SASL session state found', code: 17, codeName: 'ProtocolError' }
        const v = scramContinue(conv, Buffer.isBuffer(doc.payload) ? doc.payload.toString('utf8') : '')
        conv = null
        if (!v) return failed
        authenticated = true
        return { conversationId: 1, done: true, payload: Buffer.from(v), ok: 1 }
      }
      default:
        return authenticated ? { ok: 1 } : unauthorized(cmd)
    }
  }
}

export interface MongoBed {
  host: string
  close(): Promise<void>
}

/** `host`: another loopback address than the kind's own (the benchmarks use their own range). */
export async function startMongoBed(
  kind: keyof typeof MONGO_ADDR,
  accounts: readonly MongoAccount[] = WEAK_MONGO,
  host: string = MONGO_ADDR[kind],
): Promise<MongoBed> {
  const server = net.createServer((s) => {
    s.on('error', () => {})
    const handle = session(accounts, kind === 'open')
    let buf = Buffer.alloc(0)
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d])
      for (let n = frameLength(buf); n > 0; n = frameLength(buf)) {
        const msg = buf.subarray(0, n)
        buf = buf.subarray(n)
        const op = msg.readInt32LE(12)
        const requestId = msg.readInt32LE(4)
        if (op === OP_QUERY) {
          const at = msg.indexOf(0, 20) + 1 + 8 // fullCollectionName, numberToSkip, numberToReturn
          const q = decodeBson(msg, at)
          s.write(reply(OP_REPLY, requestId, handle(Object.keys(q)[0] ?? '', q)))
        } else if (op === OP_MSG) {
          const doc = decodeBson(msg, 21)
          s.write(reply(OP_MSG, requestId, handle(Object.keys(doc)[0] ?? '', doc)))
        } else s.destroy()
      }
    })
  })
  await new Promise<void>((r) => server.listen(MONGO_PORT, host, r))
  return {
    host,
    close: async () => {
      ;(server as { closeAllConnections?: () => void }).closeAllConnections?.()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}

export const hardenedMongo = (): MongoAccount[] => WEAK_MONGO.map((a) => ({ ...a, password: randomBytes(18).toString('base64url') }))
