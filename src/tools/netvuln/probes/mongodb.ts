// Unauthenticated MongoDB: the handshake (isMaster over OP_QUERY, accepted by every server version) proves
// it is MongoDB; listDatabases (OP_MSG from wire version 6, else OP_QUERY) proves access control is off.
// "hello"/"isMaster" alone is allowed without authentication by design, so it is not the proof.
import { encodeBson, decodeBson, type BsonDoc } from './bson.js'
import { NotThisProtocol, withSession, type ProbeTarget, type Session } from '../../lib/services/session.js'

export const OP_REPLY = 1
export const OP_QUERY = 2004
export const OP_MSG = 2013

export type MongoResult = {
  unauthenticated: boolean
  version: string | null
  databases: string[]
  error: string | null
  transcript: string[]
}

let nextRequestId = 1

function header(length: number, opCode: number): Buffer {
  const h = Buffer.alloc(16)
  h.writeInt32LE(length, 0)
  h.writeInt32LE(nextRequestId++ & 0x7fffffff, 4)
  h.writeInt32LE(0, 8)
  h.writeInt32LE(opCode, 12)
  return h
}

export function opQuery(collection: string, query: BsonDoc): Buffer {
  const body = Buffer.concat([Buffer.alloc(4), Buffer.from(collection + '\0', 'utf8'), Buffer.alloc(4), int32(-1), encodeBson(query)])
  return Buffer.concat([header(16 + body.length, OP_QUERY), body])
}

export function opMsg(doc: BsonDoc): Buffer {
  const body = Buffer.concat([Buffer.alloc(4), Buffer.from([0]), encodeBson(doc)])
  return Buffer.concat([header(16 + body.length, OP_MSG), body])
}

const int32 = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeInt32LE(n)
  return b
}

/** The first document of an OP_REPLY or OP_MSG message (header included in `msg`). */
export function replyDocument(msg: Buffer): BsonDoc {
  const opCode = msg.readInt32LE(12)
  if (opCode === OP_REPLY) return decodeBson(msg, 16 + 20)
  if (opCode === OP_MSG) {
    if (msg[20] !== 0) throw new Error('OP_MSG reply without a body section')
    return decodeBson(msg, 21)
  }
  throw new Error(`unexpected MongoDB opCode ${opCode}`)
}

const MAX_MESSAGE = 48 * 1024 * 1024

/** A whole wire message; a length no MongoDB would send means another protocol (take what came and fail). */
function messageComplete(b: Buffer): number {
  if (b.length < 4) return 0
  const len = b.readInt32LE(0)
  if (len < 21 || len > MAX_MESSAGE) return b.length
  return b.length >= len ? len : 0
}

async function roundTrip(s: Session, msg: Buffer): Promise<BsonDoc> {
  s.send(msg)
  const reply = await s.read(messageComplete)
  if (reply.length < 21 || reply.readInt32LE(0) !== reply.length) throw new NotThisProtocol('not a MongoDB reply')
  try {
    return replyDocument(reply)
  } catch (e) {
    throw new NotThisProtocol(`not a MongoDB reply: ${(e as Error).message}`)
  }
}

export function probeMongo(t: ProbeTarget): Promise<MongoResult> {
  return withSession(t, async (s) => {
    s.transcript.push('C: OP_QUERY admin.$cmd {isMaster: 1}')
    const hello = await roundTrip(s, opQuery('admin.$cmd', { isMaster: 1 }))
    if (hello.ok !== 1 && hello.ok !== true) throw new NotThisProtocol('isMaster was not answered with ok: 1')
    const wire = typeof hello.maxWireVersion === 'number' ? hello.maxWireVersion : 0
    s.transcript.push(`S: {ok: 1, maxWireVersion: ${wire}${hello.ismaster !== undefined ? `, ismaster: ${hello.ismaster}` : ''}}`)
    const cmd = { listDatabases: 1, nameOnly: true }
    s.transcript.push(`C: ${wire >= 6 ? 'OP_MSG' : 'OP_QUERY admin.$cmd'} {listDatabases: 1, nameOnly: true, $db: "admin"}`)
    const list = await roundTrip(s, wire >= 6 ? opMsg({ ...cmd, $db: 'admin' }) : opQuery('admin.$cmd', cmd))
    const ok = list.ok === 1 || list.ok === true
    const databases = ok && Array.isArray(list.databases) ? list.databases.map((d) => String((d as BsonDoc).name)) : []
    const error = ok ? null : `${String(list.errmsg ?? 'error')} (code ${String(list.code ?? '?')})`
    s.transcript.push(ok ? `S: {ok: 1, databases: [${databases.join(', ')}]}` : `S: {ok: 0, errmsg: "${error}"}`)
    let version: string | null = null
    if (ok) {
      const info = await roundTrip(s, wire >= 6 ? opMsg({ buildInfo: 1, $db: 'admin' }) : opQuery('admin.$cmd', { buildInfo: 1 })).catch(
        () => null,
      )
      if (info && typeof info.version === 'string') version = info.version
    }
    return { unauthenticated: ok, version, databases, error, transcript: s.transcript }
  })
}
