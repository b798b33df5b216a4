// DNS wire format (RFC 1035): encode and decode whole messages. Pure; no I/O.
// Record data is kept in presentation form (`data: string`) because tools compare and show it;
// the encoder turns the same strings back into wire form (used by the test bed's server).

export const TYPE = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  RP: 17,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  DNAME: 39,
  OPT: 41,
  DS: 43,
  SSHFP: 44,
  DNSKEY: 48,
  TLSA: 52,
  SPF: 99,
  AXFR: 252,
  ANY: 255,
  URI: 256,
  CAA: 257,
} as const
export type RecordType = keyof typeof TYPE

export const CLASS = { IN: 1, CH: 3 } as const

export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const
const RCODE_NAMES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'] as const
export const rcodeName = (rcode: number): string => RCODE_NAMES[rcode] ?? `RCODE${rcode}`

const TYPE_NAMES = new Map<number, string>(Object.entries(TYPE).map(([k, v]) => [v, k]))
export const typeName = (type: number): string => TYPE_NAMES.get(type) ?? `TYPE${type}`

export interface DnsQuestion {
  name: string
  type: number
  class: number
}

export interface DnsRecord {
  /** Owner name, lower case, no trailing dot ('' is the root). */
  name: string
  type: number
  class: number
  ttl: number
  /** Presentation form: '192.0.2.1', 'mail.example', '10 mail.example', TXT strings joined. */
  data: string
}

export interface DnsFlags {
  qr: boolean
  opcode: number
  aa: boolean
  tc: boolean
  rd: boolean
  ra: boolean
  rcode: number
}

export interface DnsMessage {
  id: number
  flags: DnsFlags
  questions: DnsQuestion[]
  answers: DnsRecord[]
  authorities: DnsRecord[]
  additionals: DnsRecord[]
}

export class DnsFormatError extends Error {
  override name = 'DnsFormatError'
}

export const normalizeName = (name: string): string => name.trim().replace(/\.$/, '').toLowerCase()

// ---------------------------------------------------------------- encoding

export function encodeMessage(m: Partial<DnsMessage> & { id: number }): Buffer {
  const f: DnsFlags = { qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, rcode: 0, ...m.flags }
  const questions = m.questions ?? []
  const sections = [m.answers ?? [], m.authorities ?? [], m.additionals ?? []]
  const header = Buffer.alloc(12)
  header.writeUInt16BE(m.id & 0xffff, 0)
  header.writeUInt16BE(
    (f.qr ? 0x8000 : 0) |
      ((f.opcode & 0xf) << 11) |
      (f.aa ? 0x400 : 0) |
      (f.tc ? 0x200 : 0) |
      (f.rd ? 0x100 : 0) |
      (f.ra ? 0x80 : 0) |
      (f.rcode & 0xf),
    2,
  )
  header.writeUInt16BE(questions.length, 4)
  sections.forEach((s, i) => header.writeUInt16BE(s.length, 6 + i * 2))
  const parts: Buffer[] = [header]
  for (const q of questions) {
    const tail = Buffer.alloc(4)
    tail.writeUInt16BE(q.type, 0)
    tail.writeUInt16BE(q.class, 2)
    parts.push(encodeName(q.name), tail)
  }
  for (const r of sections.flat()) parts.push(encodeRecord(r))
  return Buffer.concat(parts)
}

/** A standard query with a random id. */
export function buildQuery(
  name: string,
  type: number,
  o: { id?: number; rd?: boolean; class?: number } = {},
): { id: number; bytes: Buffer } {
  const id = o.id ?? Math.floor(Math.random() * 0x10000)
  const bytes = encodeMessage({
    id,
    flags: { qr: false, opcode: 0, aa: false, tc: false, rd: o.rd ?? true, ra: false, rcode: 0 },
    questions: [{ name, type, class: o.class ?? CLASS.IN }],
  })
  return { id, bytes }
}

export function encodeName(name: string): Buffer {
  const n = normalizeName(name)
  const labels = n === '' ? [] : n.split('.')
  const parts: Buffer[] = []
  for (const label of labels) {
    const b = Buffer.from(label, 'utf8')
    if (b.length === 0 || b.length > 63) throw new DnsFormatError(`invalid label in ${JSON.stringify(name)}`)
    parts.push(Buffer.from([b.length]), b)
  }
  parts.push(Buffer.from([0]))
  const out = Buffer.concat(parts)
  if (out.length > 255) throw new DnsFormatError(`name too long: ${name}`)
  return out
}

function encodeRecord(r: DnsRecord): Buffer {
  const rdata = encodeRdata(r.type, r.data)
  const fixed = Buffer.alloc(10)
  fixed.writeUInt16BE(r.type, 0)
  fixed.writeUInt16BE(r.class, 2)
  fixed.writeUInt32BE(r.ttl >>> 0, 4)
  fixed.writeUInt16BE(rdata.length, 8)
  return Buffer.concat([encodeName(r.name), fixed, rdata])
}

function encodeRdata(type: number, data: string): Buffer {
  switch (type) {
    case TYPE.A:
      return Buffer.from(parseIpv4(data))
    case TYPE.AAAA:
      return Buffer.from(parseIpv6(data))
    case TYPE.NS:
    case TYPE.CNAME:
    case TYPE.PTR:
    case TYPE.DNAME:
      return encodeName(data)
    case TYPE.SRV: {
      const [prio, weight, port, target] = tokens(data)
      return Buffer.concat([u16s(Number(prio), Number(weight), Number(port)), encodeName(target ?? '')])
    }
    case TYPE.NAPTR: {
      const [order, pref, flags, service, regexp, replacement] = tokens(data)
      return Buffer.concat([
        u16s(Number(order), Number(pref)),
        charString(flags),
        charString(service),
        charString(regexp),
        encodeName(replacement ?? ''),
      ])
    }
    case TYPE.CAA: {
      const [flags, tag = '', value = ''] = tokens(data)
      return Buffer.concat([
        Buffer.from([Number(flags) & 0xff, Buffer.byteLength(tag)]),
        Buffer.from(tag, 'utf8'),
        Buffer.from(value, 'utf8'),
      ])
    }
    case TYPE.URI: {
      const [prio, weight, target = ''] = tokens(data)
      return Buffer.concat([u16s(Number(prio), Number(weight)), Buffer.from(target, 'utf8')])
    }
    case TYPE.HINFO:
      return Buffer.concat(tokens(data).slice(0, 2).map(charString))
    case TYPE.RP: {
      const [mbox, txt] = tokens(data)
      return Buffer.concat([encodeName(mbox ?? ''), encodeName(txt ?? '')])
    }
    case TYPE.SSHFP: {
      const [alg, fpType, ...hex] = tokens(data)
      return Buffer.concat([Buffer.from([Number(alg), Number(fpType)]), Buffer.from(hex.join(''), 'hex')])
    }
    case TYPE.TLSA: {
      const [usage, selector, mtype, ...hex] = tokens(data)
      return Buffer.concat([Buffer.from([Number(usage), Number(selector), Number(mtype)]), Buffer.from(hex.join(''), 'hex')])
    }
    case TYPE.DS: {
      const [tag, alg, dtype, ...hex] = tokens(data)
      return Buffer.concat([u16s(Number(tag)), Buffer.from([Number(alg), Number(dtype)]), Buffer.from(hex.join(''), 'hex')])
    }
    case TYPE.DNSKEY: {
      const [flags, proto, alg, ...b64] = tokens(data)
      return Buffer.concat([u16s(Number(flags)), Buffer.from([Number(proto), Number(alg)]), Buffer.from(b64.join(''), 'base64')])
    }
    case TYPE.MX: {
      const [pref, exchange] = data.trim().split(/\s+/)
      const p = Buffer.alloc(2)
      p.writeUInt16BE(Number(pref), 0)
      return Buffer.concat([p, encodeName(exchange ?? '')])
    }
    case TYPE.TXT:
    case TYPE.SPF: {
      // One presentation string → character-strings of at most 255 bytes each.
      const b = Buffer.from(data, 'utf8')
      const parts: Buffer[] = []
      for (let i = 0; i < b.length || i === 0; i += 255) {
        const chunk = b.subarray(i, i + 255)
        parts.push(Buffer.from([chunk.length]), chunk)
        if (b.length === 0) break
      }
      return Buffer.concat(parts)
    }
    case TYPE.SOA: {
      const [mname, rname, ...nums] = data.trim().split(/\s+/)
      const tail = Buffer.alloc(20)
      for (let i = 0; i < 5; i++) tail.writeUInt32BE(Number(nums[i] ?? 0) >>> 0, i * 4)
      return Buffer.concat([encodeName(mname ?? ''), encodeName(rname ?? ''), tail])
    }
    default:
      return Buffer.from(data.replace(/^\\# \d+ ?/, '').replace(/\s+/g, ''), 'hex')
  }
}

const u16s = (...ns: number[]) => {
  const b = Buffer.alloc(ns.length * 2)
  ns.forEach((n, i) => b.writeUInt16BE(n & 0xffff, i * 2))
  return b
}

function charString(s: string | undefined): Buffer {
  const b = Buffer.from(s ?? '', 'utf8')
  if (b.length > 255) throw new DnsFormatError('character-string longer than 255 bytes')
  return Buffer.concat([Buffer.from([b.length]), b])
}

/** Presentation-form fields: whitespace-separated, "double quoted" with \" and \\ escapes. */
export function tokens(data: string): string[] {
  const out: string[] = []
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g
  for (let m = re.exec(data); m; m = re.exec(data)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!)
  return out
}

// ---------------------------------------------------------------- decoding

export function decodeMessage(buf: Buffer): DnsMessage {
  if (buf.length < 12) throw new DnsFormatError('message shorter than its header')
  const flags = buf.readUInt16BE(2)
  const counts = [4, 6, 8, 10].map((o) => buf.readUInt16BE(o)) as [number, number, number, number]
  const r = { off: 12 }
  const questions: DnsQuestion[] = []
  for (let i = 0; i < counts[0]; i++) {
    const name = readName(buf, r)
    need(buf, r.off, 4)
    questions.push({ name, type: buf.readUInt16BE(r.off), class: buf.readUInt16BE(r.off + 2) })
    r.off += 4
  }
  const section = (n: number) => Array.from({ length: n }, () => readRecord(buf, r))
  return {
    id: buf.readUInt16BE(0),
    flags: {
      qr: (flags & 0x8000) !== 0,
      opcode: (flags >> 11) & 0xf,
      aa: (flags & 0x400) !== 0,
      tc: (flags & 0x200) !== 0,
      rd: (flags & 0x100) !== 0,
      ra: (flags & 0x80) !== 0,
      rcode: flags & 0xf,
    },
    questions,
    answers: section(counts[1]),
    authorities: section(counts[2]),
    additionals: section(counts[3]),
  }
}

function need(buf: Buffer, off: number, n: number) {
  if (off + n > buf.length) throw new DnsFormatError('message truncated')
}

/** Reads a possibly compressed name at r.off and advances r.off past it. */
export function readName(buf: Buffer, r: { off: number }): string {
  const labels: string[] = []
  let off = r.off
  let jumped = false
  let hops = 0
  for (;;) {
    need(buf, off, 1)
    const len = buf[off]!
    if ((len & 0xc0) === 0xc0) {
      need(buf, off, 2)
      if (++hops > 64) throw new DnsFormatError('compression loop')
      const target = ((len & 0x3f) << 8) | buf[off + 1]!
      if (!jumped) r.off = off + 2
      jumped = true
      off = target
      continue
    }
    if (len & 0xc0) throw new DnsFormatError('unsupported label type')
    off += 1
    if (len === 0) break
    need(buf, off, len)
    labels.push(buf.toString('latin1', off, off + len))
    off += len
  }
  if (!jumped) r.off = off
  return labels.join('.').toLowerCase()
}

function readRecord(buf: Buffer, r: { off: number }): DnsRecord {
  const name = readName(buf, r)
  need(buf, r.off, 10)
  const type = buf.readUInt16BE(r.off)
  const cls = buf.readUInt16BE(r.off + 2)
  const ttl = buf.readUInt32BE(r.off + 4)
  const len = buf.readUInt16BE(r.off + 8)
  r.off += 10
  need(buf, r.off, len)
  const start = r.off
  const data = decodeRdata(buf, type, start, len)
  r.off = start + len
  return { name, type, class: cls, ttl, data }
}

function decodeRdata(buf: Buffer, type: number, start: number, len: number): string {
  const rdata = buf.subarray(start, start + len)
  const at = { off: start }
  switch (type) {
    case TYPE.A:
      if (len !== 4) throw new DnsFormatError('bad A record')
      return [...rdata].join('.')
    case TYPE.AAAA:
      if (len !== 16) throw new DnsFormatError('bad AAAA record')
      return formatIpv6(rdata)
    case TYPE.NS:
    case TYPE.CNAME:
    case TYPE.PTR:
    case TYPE.DNAME:
      return readName(buf, at)
    case TYPE.SRV: {
      need(buf, start, 6)
      at.off = start + 6
      return `${buf.readUInt16BE(start)} ${buf.readUInt16BE(start + 2)} ${buf.readUInt16BE(start + 4)} ${readName(buf, at)}`
    }
    case TYPE.NAPTR: {
      need(buf, start, 4)
      at.off = start + 4
      const strs = [0, 1, 2].map(() => quoted(readCharString(buf, at, start + len)))
      return `${buf.readUInt16BE(start)} ${buf.readUInt16BE(start + 2)} ${strs.join(' ')} ${readName(buf, at) || '.'}`
    }
    case TYPE.CAA: {
      if (len < 2 || 2 + rdata[1]! > len) throw new DnsFormatError('bad CAA record')
      const tagEnd = 2 + rdata[1]!
      return `${rdata[0]} ${rdata.toString('latin1', 2, tagEnd)} ${quoted(rdata.toString('utf8', tagEnd))}`
    }
    case TYPE.URI: {
      if (len < 4) throw new DnsFormatError('bad URI record')
      return `${rdata.readUInt16BE(0)} ${rdata.readUInt16BE(2)} ${quoted(rdata.toString('utf8', 4))}`
    }
    case TYPE.HINFO: {
      const strs = [readCharString(buf, at, start + len), readCharString(buf, at, start + len)]
      return strs.map(quoted).join(' ')
    }
    case TYPE.RP:
      return `${readName(buf, at) || '.'} ${readName(buf, at) || '.'}`
    case TYPE.SSHFP:
      if (len < 2) throw new DnsFormatError('bad SSHFP record')
      return `${rdata[0]} ${rdata[1]} ${rdata.toString('hex', 2)}`
    case TYPE.TLSA:
      if (len < 3) throw new DnsFormatError('bad TLSA record')
      return `${rdata[0]} ${rdata[1]} ${rdata[2]} ${rdata.toString('hex', 3)}`
    case TYPE.DS:
      if (len < 4) throw new DnsFormatError('bad DS record')
      return `${rdata.readUInt16BE(0)} ${rdata[2]} ${rdata[3]} ${rdata.toString('hex', 4)}`
    case TYPE.DNSKEY:
      if (len < 4) throw new DnsFormatError('bad DNSKEY record')
      return `${rdata.readUInt16BE(0)} ${rdata[2]} ${rdata[3]} ${rdata.toString('base64', 4)}`
    case TYPE.MX: {
      need(buf, start, 2)
      at.off = start + 2
      return `${buf.readUInt16BE(start)} ${readName(buf, at)}`
    }
    case TYPE.TXT:
    case TYPE.SPF: {
      const strings: string[] = []
      for (let i = 0; i < len; ) {
        const n = rdata[i]!
        strings.push(rdata.toString('utf8', i + 1, Math.min(len, i + 1 + n)))
        i += 1 + n
      }
      return strings.join('')
    }
    case TYPE.SOA: {
      const mname = readName(buf, at)
      const rname = readName(buf, at)
      need(buf, at.off, 20)
      const nums = [0, 1, 2, 3, 4].map((i) => buf.readUInt32BE(at.off + i * 4))
      return [mname, rname, ...nums].join(' ')
    }
    default:
      return `\\# ${len} ${rdata.toString('hex')}`
  }
}

function readCharString(buf: Buffer, at: { off: number }, end: number): string {
  if (at.off >= end) throw new DnsFormatError('character-string missing')
  const n = buf[at.off]!
  if (at.off + 1 + n > end) throw new DnsFormatError('character-string overruns its record')
  const s = buf.toString('utf8', at.off + 1, at.off + 1 + n)
  at.off += 1 + n
  return s
}

const quoted = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`

// ---------------------------------------------------------------- addresses

function parseIpv4(s: string): number[] {
  const parts = s.split('.').map(Number)
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new DnsFormatError(`bad IPv4 ${s}`)
  return parts
}

function parseIpv6(s: string): number[] {
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined]
  const groups = (x: string | undefined) => (x ? x.split(':').filter((g) => g !== '') : [])
  const h = groups(head)
  const t = groups(tail)
  const fill = tail === undefined ? 0 : 8 - h.length - t.length
  const all = [...h, ...Array(fill).fill('0'), ...t]
  if (all.length !== 8) throw new DnsFormatError(`bad IPv6 ${s}`)
  return all.flatMap((g) => {
    const v = parseInt(g, 16)
    return [v >> 8, v & 0xff]
  })
}

function formatIpv6(b: Buffer): string {
  const g = Array.from({ length: 8 }, (_, i) => b.readUInt16BE(i * 2))
  // RFC 5952: compress the longest run (≥ 2) of zero groups.
  let best = -1
  let bestLen = 0
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && g[j] === 0) j++
    if (j - i > bestLen && j - i >= 2) {
      best = i
      bestLen = j - i
    }
    i = j
  }
  const hex = g.map((x) => x.toString(16))
  if (best < 0) return hex.join(':')
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`
}
