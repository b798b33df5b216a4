// MongoDB's wire protocol as the auditor needs it: a BSON codec for the documents of a few commands
// (hello, listDatabases, saslStart/saslContinue) and OP_MSG framing. Pure; no driver.

export type BsonValue = string | number | boolean | null | Buffer | BsonDoc | BsonValue[]
export interface BsonDoc {
  [key: string]: BsonValue
}

const cstring = (s: string) => Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])])

function element(key: string, v: BsonValue): Buffer {
  const head = (type: number) => Buffer.concat([Buffer.from([type]), cstring(key)])
  if (typeof v === 'string') {
    const s = Buffer.from(v, 'utf8')
    const len = Buffer.alloc(4)
    len.writeInt32LE(s.length + 1)
    return Buffer.concat([head(0x02), len, s, Buffer.from([0])])
  }
  if (typeof v === 'number') {
    const b = Buffer.alloc(Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? 4 : 8)
    if (b.length === 4) b.writeInt32LE(v)
    else b.writeDoubleLE(v)
    return Buffer.concat([head(b.length === 4 ? 0x10 : 0x01), b])
  }
  if (typeof v === 'boolean') return Buffer.concat([head(0x08), Buffer.from([v ? 1 : 0])])
  if (v === null) return head(0x0a)
  if (Buffer.isBuffer(v)) {
    const len = Buffer.alloc(5)
    len.writeInt32LE(v.length) // subtype 0 (generic) in the fifth byte
    return Buffer.concat([head(0x05), len, v])
  }
  if (Array.isArray(v)) return Buffer.concat([head(0x04), encodeBson(Object.fromEntries(v.map((x, i) => [String(i), x])))])
  return Buffer.concat([head(0x03), encodeBson(v)])
}

export function encodeBson(doc: BsonDoc): Buffer {
  const body = Buffer.concat(Object.entries(doc).map(([k, v]) => element(k, v)))
  const len = Buffer.alloc(4)
  len.writeInt32LE(body.length + 5)
  return Buffer.concat([len, body, Buffer.from([0])])
}

/** Decodes one document; values of types the auditor never reads (ObjectId, dates, timestamps, decimals) come out as numbers or hex. */
export function decodeBson(b: Buffer, at = 0): BsonDoc {
  const end = at + b.readInt32LE(at)
  if (end > b.length || b[end - 1] !== 0) throw new Error('truncated BSON document')
  const out: BsonDoc = {}
  let i = at + 4
  while (i < end - 1) {
    const type = b[i++]!
    const z = b.indexOf(0, i)
    const key = b.toString('utf8', i, z)
    i = z + 1
    const [value, next] = readValue(b, type, i)
    out[key] = value
    i = next
  }
  return out
}

function readValue(b: Buffer, type: number, i: number): [BsonValue, number] {
  switch (type) {
    case 0x01:
      return [b.readDoubleLE(i), i + 8]
    case 0x02:
      return [b.toString('utf8', i + 4, i + 4 + b.readInt32LE(i) - 1), i + 4 + b.readInt32LE(i)]
    case 0x03:
      return [decodeBson(b, i), i + b.readInt32LE(i)]
    case 0x04:
      return [Object.values(decodeBson(b, i)), i + b.readInt32LE(i)]
    case 0x05:
      return [Buffer.from(b.subarray(i + 5, i + 5 + b.readInt32LE(i))), i + 5 + b.readInt32LE(i)]
    case 0x07:
      return [b.toString('hex', i, i + 12), i + 12]
    case 0x08:
      return [b[i] === 1, i + 1]
    case 0x0a:
      return [null, i]
    case 0x10:
      return [b.readInt32LE(i), i + 4]
    case 0x09:
    case 0x11:
    case 0x12:
      return [Number(b.readBigInt64LE(i)), i + 8]
    case 0x13:
      return [b.toString('hex', i, i + 16), i + 16]
    default:
      throw new Error(`BSON type 0x${type.toString(16)} not read`)
  }
}

export const OP_REPLY = 1
export const OP_QUERY = 2004
export const OP_MSG = 2013

/** An OP_MSG with one body section. */
export function opMsg(requestId: number, doc: BsonDoc): Buffer {
  const body = Buffer.concat([Buffer.alloc(5), encodeBson(doc)]) // flagBits 0, section kind 0
  const head = Buffer.alloc(16)
  head.writeInt32LE(16 + body.length, 0)
  head.writeInt32LE(requestId, 4)
  head.writeInt32LE(0, 8)
  head.writeInt32LE(OP_MSG, 12)
  return Buffer.concat([head, body])
}

/** The length of the first complete message in `buf`, 0 while it is incomplete. */
export const frameLength = (buf: Buffer) => (buf.length >= 16 && buf.length >= buf.readInt32LE(0) ? buf.readInt32LE(0) : 0)

/** The body document of an OP_MSG reply (or of a legacy OP_REPLY). */
export function replyDoc(msg: Buffer): BsonDoc {
  const op = msg.readInt32LE(12)
  if (op === OP_MSG && msg[20] === 0) return decodeBson(msg, 21)
  if (op === OP_REPLY) return decodeBson(msg, 36)
  throw new Error(`not a MongoDB reply (opCode ${op})`)
}

/** What a command's answer says: ok, else the error code and message. */
export function commandResult(doc: BsonDoc): { ok: boolean; code: number | null; message: string } {
  return {
    ok: doc.ok === 1 || doc.ok === true,
    code: typeof doc.code === 'number' ? doc.code : null,
    message: typeof doc.errmsg === 'string' ? doc.errmsg.slice(0, 120) : '',
  }
}
