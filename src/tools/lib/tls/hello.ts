// Hand-built SSL/TLS handshake messages and parsers of what servers answer. Pure: bytes in, bytes out.
// Built by hand because the runtime's TLS library refuses SSLv2/SSLv3 and suites it no longer implements.
import { generateKeyPairSync, randomBytes } from 'node:crypto'

export type ProtocolName = 'SSLv2' | 'SSLv3' | 'TLSv1.0' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'

export const VERSION_CODE: Readonly<Record<Exclude<ProtocolName, 'SSLv2'>, number>> = {
  SSLv3: 0x0300,
  'TLSv1.0': 0x0301,
  'TLSv1.1': 0x0302,
  'TLSv1.2': 0x0303,
  'TLSv1.3': 0x0304,
}

export function versionName(code: number): ProtocolName | undefined {
  if (code === 0x0002) return 'SSLv2'
  return (Object.entries(VERSION_CODE) as [ProtocolName, number][]).find(([, c]) => c === code)?.[0]
}

export const CONTENT = { alert: 21, handshake: 22, heartbeat: 24 } as const
export const HS = { serverHello: 2, certificate: 11, serverKeyExchange: 12, serverHelloDone: 14, certificateStatus: 22 } as const
export const EXT = {
  serverName: 0x0000,
  statusRequest: 0x0005,
  supportedGroups: 0x000a,
  ecPointFormats: 0x000b,
  signatureAlgorithms: 0x000d,
  heartbeat: 0x000f,
  signedCertificateTimestamp: 0x0012,
  padding: 0x0015,
  supportedVersions: 0x002b,
  pskModes: 0x002d,
  keyShare: 0x0033,
  renegotiationInfo: 0xff01,
} as const
/** TLS_EMPTY_RENEGOTIATION_INFO_SCSV: asks the server to show RFC 5746 support. */
export const RENEGOTIATION_SCSV = 0x00ff
export const COMPRESSION_DEFLATE = 1

// Legacy binary curves and FFDHE groups too, so old servers find an ECDHE/DHE group they know.
const GROUPS = [0x001d, 0x0017, 0x0018, 0x0019, 0x001e, ...range(0x0001, 0x0016), 0x0100, 0x0101, 0x0102, 0x0103, 0x0104]
// SHA-1 and MD5 schemes included on purpose: old servers must still be able to answer.
const SIG_ALGS = [
  0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601, 0x0807, 0x0808, 0x0809, 0x080a, 0x080b, 0x0402, 0x0502, 0x0602,
  0x0201, 0x0203, 0x0202, 0x0101,
]
const HRR_RANDOM = Buffer.from('cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c', 'hex')

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i)
}
const u8 = (n: number) => Buffer.from([n & 0xff])
const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff])
const u24 = (n: number) => Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff])
const vec16 = (b: Buffer) => Buffer.concat([u16(b.length), b])
const vec8 = (b: Buffer) => Buffer.concat([u8(b.length), b])
const list16 = (ns: number[]) => Buffer.concat(ns.map(u16))
const ext = (type: number, body: Buffer) => Buffer.concat([u16(type), vec16(body)])

export interface HelloOptions {
  protocol: Exclude<ProtocolName, 'SSLv2'>
  suites: readonly number[]
  /** A host name for SNI (never an IP literal). */
  sni?: string
  /** Offer DEFLATE before null compression (SSLv3..TLS 1.2 only). */
  offerCompression?: boolean
  /** Advertise the heartbeat extension (peer_allowed_to_send). */
  heartbeat?: boolean
  /** Ask for a stapled OCSP response (status_request) and for SCTs (signed_certificate_timestamp). */
  statusRequest?: boolean
  /**
   * TLSv1.3 hellos only: also offer the versions from this one up (and the SCSV, and padding), as
   * browsers do, so that one hello draws an answer from any TLS server (the port scanner's sniff).
   * Unset: TLS 1.3 alone, as this scanner probes it.
   */
  minProtocol?: 'TLSv1.0' | 'TLSv1.1' | 'TLSv1.2'
}

/** One ClientHello record. SSLv3 hellos carry no extensions (SSLv3-only stacks may choke on them). */
export function buildClientHello(o: HelloOptions): Buffer {
  const tls13 = o.protocol === 'TLSv1.3'
  const clientVersion = tls13 ? 0x0303 : VERSION_CODE[o.protocol]
  const versions = tls13 && o.minProtocol ? range(VERSION_CODE[o.minProtocol], 0x0304).reverse() : [0x0304]
  const suites = tls13 && versions.length === 1 ? [...o.suites] : [...o.suites, RENEGOTIATION_SCSV]
  const compression = !tls13 && o.offerCompression ? [COMPRESSION_DEFLATE, 0] : [0]
  const exts: Buffer[] = []
  if (o.protocol !== 'SSLv3') {
    if (o.sni) {
      const name = Buffer.from(o.sni, 'ascii')
      exts.push(ext(EXT.serverName, vec16(Buffer.concat([u8(0), vec16(name)]))))
    }
    exts.push(ext(EXT.supportedGroups, vec16(list16(GROUPS))))
    exts.push(ext(EXT.ecPointFormats, vec8(Buffer.from([0, 1, 2]))))
    if (o.protocol === 'TLSv1.2' || tls13) exts.push(ext(EXT.signatureAlgorithms, vec16(list16(SIG_ALGS))))
    if (o.heartbeat) exts.push(ext(EXT.heartbeat, Buffer.from([1])))
    if (o.statusRequest) {
      // status_type ocsp, no responder ids, no request extensions (RFC 6066 section 8).
      exts.push(ext(EXT.statusRequest, Buffer.from([1, 0, 0, 0, 0])))
      exts.push(ext(EXT.signedCertificateTimestamp, Buffer.alloc(0)))
    }
    if (tls13) {
      exts.push(ext(EXT.supportedVersions, vec8(list16(versions))))
      exts.push(ext(EXT.pskModes, vec8(Buffer.from([1]))))
      exts.push(ext(EXT.keyShare, vec16(Buffer.concat([u16(0x001d), vec16(x25519PublicKey())]))))
    }
    if (versions.length > 1) {
      // Like browsers, skip handshake sizes 256..511: some servers hang on them (RFC 7685 padding).
      const size = 4 + 2 + 32 + 33 + 2 + 2 * suites.length + 1 + compression.length + 2 + exts.reduce((n, e) => n + e.length, 0)
      if (size >= 256 && size < 512) exts.push(ext(EXT.padding, Buffer.alloc(Math.max(0, 512 - size - 4))))
    }
  }
  const body = Buffer.concat([
    u16(clientVersion),
    randomBytes(32),
    vec8(tls13 ? randomBytes(32) : Buffer.alloc(0)), // TLS 1.3 middlebox compatibility session id
    vec16(list16(suites)),
    vec8(Buffer.from(compression)),
    exts.length ? vec16(Buffer.concat(exts)) : Buffer.alloc(0),
  ])
  const hs = Buffer.concat([u8(1), u24(body.length), body])
  return record(CONTENT.handshake, o.protocol === 'SSLv3' ? 0x0300 : 0x0301, hs)
}

export const record = (type: number, version: number, body: Buffer) => Buffer.concat([u8(type), u16(version), u16(body.length), body])

function x25519PublicKey(): Buffer {
  const der = generateKeyPairSync('x25519').publicKey.export({ format: 'der', type: 'spki' })
  return Buffer.from(der.subarray(der.length - 32))
}

/** SSLv2 CLIENT-HELLO offering the given 3-byte cipher specs. */
export function buildSsl2ClientHello(specs: readonly number[]): Buffer {
  const cs = Buffer.concat(specs.map((c) => Buffer.from([(c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff])))
  const challenge = randomBytes(16)
  const body = Buffer.concat([u8(1), u16(0x0002), u16(cs.length), u16(0), u16(challenge.length), cs, challenge])
  return Buffer.concat([u16(0x8000 | body.length), body])
}

// ---- parsing ----

export interface TlsRecord {
  type: number
  version: number
  body: Buffer
}

/** Complete records at the start of `buf` and the bytes left over. `null`: not TLS framing at all. */
export function splitRecords(buf: Buffer): { records: TlsRecord[]; rest: Buffer } | null {
  const records: TlsRecord[] = []
  let off = 0
  while (buf.length - off >= 5) {
    const type = buf[off]!
    const major = buf[off + 1]!
    if (type < 20 || type > 24 || major !== 3) return null
    const len = buf.readUInt16BE(off + 3)
    if (len > 18432) return null
    if (buf.length - off < 5 + len) break
    records.push({ type, version: buf.readUInt16BE(off + 1), body: buf.subarray(off + 5, off + 5 + len) })
    off += 5 + len
  }
  return { records, rest: buf.subarray(off) }
}

export interface HandshakeMessage {
  type: number
  body: Buffer
}

/** Handshake messages in a handshake byte stream (messages may span records) and the bytes left over. */
export function splitHandshake(buf: Buffer): { messages: HandshakeMessage[]; rest: Buffer } {
  const messages: HandshakeMessage[] = []
  let off = 0
  while (buf.length - off >= 4) {
    const len = (buf[off + 1]! << 16) | (buf[off + 2]! << 8) | buf[off + 3]!
    if (buf.length - off < 4 + len) break
    messages.push({ type: buf[off]!, body: buf.subarray(off + 4, off + 4 + len) })
    off += 4 + len
  }
  return { messages, rest: buf.subarray(off) }
}

export interface ServerHello {
  /** The negotiated protocol (supported_versions wins over the legacy field). */
  version: number
  suite: number
  compression: number
  extensions: Map<number, Buffer>
  helloRetry: boolean
}

export function parseServerHello(body: Buffer): ServerHello {
  let off = 0
  const legacyVersion = body.readUInt16BE(off)
  off += 2
  const random = body.subarray(off, off + 32)
  off += 32
  off += 1 + body[off]!
  const suite = body.readUInt16BE(off)
  off += 2
  const compression = body[off]!
  off += 1
  const extensions = new Map<number, Buffer>()
  if (off + 2 <= body.length) {
    const end = Math.min(body.length, off + 2 + body.readUInt16BE(off))
    off += 2
    while (off + 4 <= end) {
      const type = body.readUInt16BE(off)
      const len = body.readUInt16BE(off + 2)
      extensions.set(type, body.subarray(off + 4, off + 4 + len))
      off += 4 + len
    }
  }
  const sv = extensions.get(EXT.supportedVersions)
  const version = sv && sv.length >= 2 ? sv.readUInt16BE(0) : legacyVersion
  return { version, suite, compression, extensions, helloRetry: random.equals(HRR_RANDOM) }
}

/**
 * The size in bits of the prime of a finite-field DH ServerKeyExchange (dh_p is its first field), or null
 * when the message is too short to hold one.
 */
export function dhPrimeBits(ske: Buffer): number | null {
  if (ske.length < 3) return null
  const len = ske.readUInt16BE(0)
  if (len === 0 || ske.length < 2 + len) return null
  let p = ske.subarray(2, 2 + len)
  while (p.length > 1 && p[0] === 0) p = p.subarray(1)
  return (p.length - 1) * 8 + (32 - Math.clz32(p[0]!))
}

/** DER certificates of a Certificate message (SSLv3..TLS 1.2 layout). */
export function parseCertificateMessage(body: Buffer): Buffer[] {
  const certs: Buffer[] = []
  const total = (body[0]! << 16) | (body[1]! << 8) | body[2]!
  let off = 3
  const end = Math.min(body.length, 3 + total)
  while (off + 3 <= end) {
    const len = (body[off]! << 16) | (body[off + 1]! << 8) | body[off + 2]!
    off += 3
    if (off + len > end) break
    certs.push(Buffer.from(body.subarray(off, off + len)))
    off += len
  }
  return certs
}

export interface Ssl2ServerHello {
  version: number
  certificate: Buffer | null
  specs: number[]
}

/** An SSLv2 SERVER-HELLO at the start of `buf`; `undefined` while incomplete; `null` when it is something else. */
export function parseSsl2ServerHello(buf: Buffer): Ssl2ServerHello | null | undefined {
  if (buf.length < 2) return undefined
  if (!(buf[0]! & 0x80)) return null
  const len = ((buf[0]! & 0x7f) << 8) | buf[1]!
  if (buf.length < 2 + len) return undefined
  const m = buf.subarray(2, 2 + len)
  if (m.length < 11 || m[0] !== 4) return null
  const version = m.readUInt16BE(3)
  const certLen = m.readUInt16BE(5)
  const specLen = m.readUInt16BE(7)
  if (11 + certLen + specLen > m.length) return null
  const certificate = certLen ? Buffer.from(m.subarray(11, 11 + certLen)) : null
  const specs: number[] = []
  for (let o = 11 + certLen; o + 3 <= 11 + certLen + specLen; o += 3) specs.push((m[o]! << 16) | (m[o + 1]! << 8) | m[o + 2]!)
  return { version, certificate, specs }
}

// ---- heartbeat (RFC 6520) ----

export const HEARTBEAT_PAYLOAD = Buffer.from('WARD-HEARTBEAT-PROBE', 'ascii')
const PADDING = 16

/**
 * A heartbeat request whose payload_length claims the payload plus our own 16 padding bytes. RFC 6520
 * requires payload_length + 16 bytes of padding to fit in the record, so a patched server discards it
 * silently; a vulnerable one (CVE-2014-0160) echoes payload_length bytes, which are all bytes we sent:
 * the probe proves the missing bounds check without making the server read past our record.
 */
export function buildHeartbeatProbe(version: number): Buffer {
  const claimed = HEARTBEAT_PAYLOAD.length + PADDING
  const body = Buffer.concat([u8(1), u16(claimed), HEARTBEAT_PAYLOAD, Buffer.alloc(PADDING, 0x57)])
  return record(CONTENT.heartbeat, version, body)
}

/** Whether a heartbeat record is the over-long echo only a vulnerable server sends. */
export function isHeartbleedEcho(body: Buffer): boolean {
  if (body.length < 3 || body[0] !== 2) return false
  const len = body.readUInt16BE(1)
  return len === HEARTBEAT_PAYLOAD.length + PADDING && body.subarray(3, 3 + HEARTBEAT_PAYLOAD.length).equals(HEARTBEAT_PAYLOAD)
}
