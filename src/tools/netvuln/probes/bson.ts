// Just enough BSON for MongoDB handshakes: encode flat command documents, decode replies. Pure.

export type BsonValue = number | string | boolean | null | bigint | Date | BsonValue[] | { [k: string]: BsonValue }
export type BsonDoc = { [k: string]: BsonValue }

const cstring = (s: string) => Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])])

/** Encodes int32 (integers), double, string, boolean, null and nested documents. */
export function encodeBson(doc: BsonDoc): Buffer {
  const parts: Buffer[] = []
  for (const [k, v] of Object.entries(doc)) {
    if (typeof v === 'string') {
      const s = Buffer.from(v, 'utf8')
      const len = Buffer.alloc(4)
      len.writeInt32LE(s.length + 1)
      parts.push(Buffer.from([0x02]), cstring(k), len, s, Buffer.from([0]))
    } else if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 31) {
      const b = Buffer.alloc(4)
      b.writeInt32LE(v)
      parts.push(Buffer.from([0x10]), cstring(k), b)
    } else if (typeof v === 'number') {
      const b = Buffer.alloc(8)
      b.writeDoubleLE(v)
      parts.push(Buffer.from([0x01]), cstring(k), b)
    } else if (typeof v === 'boolean') {
      parts.push(Buffer.from([0x08]), cstring(k), Buffer.from([v ? 1 : 0]))
    } else if (v === null) {
      parts.push(Buffer.from([0x0a]), cstring(k))
    } else if (Array.isArray(v)) {
      parts.push(Buffer.from([0x04]), cstring(k), encodeBson(Object.fromEntries(v.map((x, i) => [String(i), x]))))
    } else if (typeof v === 'object' && !(v instanceof Date) && typeof v !== 'bigint') {
      parts.push(Buffer.from([0x03]), cstring(k), encodeBson(v))
    } else {
      throw new Error(`cannot encode BSON member ${k}`)
    }
  }
  const body = Buffer.concat(parts)
  const head = Buffer.alloc(4)
  head.writeInt32LE(body.length + 5)
  return Buffer.concat([head, body, Buffer.from([0])])
}

/** Decodes one document at `offset`; unknown element types stop with an error. */
export function decodeBson(buf: Buffer, offset = 0): BsonDoc {
  const size = buf.readInt32LE(offset)
  if (size < 5 || offset + size > buf.length) throw new Error('truncated BSON document')
  const end = offset + size - 1
  const out: BsonDoc = {}
  let p = offset + 4
  while (p < end) {
    const type = buf[p++]
    const z = buf.indexOf(0, p)
    if (z < 0 || z > end) throw new Error('bad BSON key')
    const key = buf.toString('utf8', p, z)
    p = z + 1
    switch (type) {
      case 0x01:
        out[key] = buf.readDoubleLE(p)
        p += 8
        break
      case 0x02: {
        const n = buf.readInt32LE(p)
        out[key] = buf.toString('utf8', p + 4, p + 4 + n - 1)
        p += 4 + n
        break
      }
      case 0x03:
      case 0x04: {
        const d = decodeBson(buf, p)
        out[key] = type === 0x04 ? Object.values(d) : d
        p += buf.readInt32LE(p)
        break
      }
      case 0x05: // binary: kept as its length
        out[key] = buf.readInt32LE(p)
        p += 5 + buf.readInt32LE(p)
        break
      case 0x07: // ObjectId
        out[key] = buf.toString('hex', p, p + 12)
        p += 12
        break
      case 0x08:
        out[key] = buf[p++] === 1
        break
      case 0x09:
        out[key] = new Date(Number(buf.readBigInt64LE(p)))
        p += 8
        break
      case 0x0a:
        out[key] = null
        break
      case 0x10:
        out[key] = buf.readInt32LE(p)
        p += 4
        break
      case 0x11: // timestamp
      case 0x12:
        out[key] = buf.readBigInt64LE(p)
        p += 8
        break
      default:
        throw new Error(`unsupported BSON type 0x${type.toString(16)} for "${key}"`)
    }
  }
  return out
}
