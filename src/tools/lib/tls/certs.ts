// Certificate facts and problems from DER bytes. Pure: no I/O, `now` passed in.
import { X509Certificate } from 'node:crypto'

export type CertProblem =
  | 'expired'
  | 'not-yet-valid'
  | 'expiring-soon'
  | 'self-signed'
  | 'untrusted'
  | 'hostname-mismatch'
  | 'weak-key'
  | 'weak-signature'
  | 'short-serial'
  | 'no-revocation-info'
  | 'no-ct'

export interface CertificateReport {
  /** 0 = the server's own certificate, then its issuers. */
  position: number
  subject: string
  issuer: string
  serial_number: string
  /** Significant bytes of the serial number (leading zero bytes not counted). */
  serial_bytes: number
  /** OCSP responder URLs (Authority Information Access). */
  ocsp_urls: string[]
  /** CRL distribution point URLs. */
  crl_urls: string[]
  /** The certificate embeds signed certificate timestamps (Certificate Transparency). */
  embedded_scts: boolean
  valid_from: string
  valid_to: string
  key_type: string
  key_size: number | null
  signature_algorithm: string
  sans: string[]
  fingerprint_sha1: string
  fingerprint_sha256: string
  self_signed: boolean
  problems: CertProblem[]
}

export const EXPIRY_WARNING_DAYS = 30
const DAY = 86_400_000

const SIG_OIDS: Record<string, string> = {
  '1.2.840.113549.1.1.2': 'md2WithRSAEncryption',
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'rsassaPss',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.113549.1.1.14': 'sha224WithRSAEncryption',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10045.4.3.1': 'ecdsa-with-SHA224',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.2.840.10040.4.3': 'dsa-with-SHA1',
  '2.16.840.1.101.3.4.3.2': 'dsa-with-SHA256',
  '1.3.101.112': 'Ed25519',
  '1.3.101.113': 'Ed448',
}
const WEAK_SIGNATURES = new Set([
  'md2WithRSAEncryption',
  'md5WithRSAEncryption',
  'sha1WithRSAEncryption',
  'ecdsa-with-SHA1',
  'dsa-with-SHA1',
])

/** The outer signatureAlgorithm OID of a DER certificate (Certificate ::= SEQ { tbs, sigAlg, sig }). */
export function signatureAlgorithm(der: Buffer): string {
  try {
    const outer = readTlv(der, 0)
    const tbs = readTlv(der, outer.start)
    const alg = readTlv(der, tbs.end)
    const oid = readTlv(der, alg.start)
    if (oid.tag !== 0x06) return 'unknown'
    const dotted = decodeOid(der.subarray(oid.start, oid.end))
    return SIG_OIDS[dotted] ?? dotted
  } catch {
    return 'unknown'
  }
}

function readTlv(buf: Buffer, off: number): { tag: number; start: number; end: number } {
  const tag = buf[off]!
  let len = buf[off + 1]!
  let start = off + 2
  if (len & 0x80) {
    const n = len & 0x7f
    len = 0
    for (let i = 0; i < n; i++) len = len * 256 + buf[start + i]!
    start += n
  }
  if (start + len > buf.length) throw new Error('truncated DER')
  return { tag, start, end: start + len }
}

const OID_AIA = '1.3.6.1.5.5.7.1.1'
const OID_OCSP = '1.3.6.1.5.5.7.48.1'
const OID_CRL_DP = '2.5.29.31'
const OID_SCT_LIST = '1.3.6.1.4.1.11129.2.4.2'
/** The serial number of a CA/Browser Forum-compliant certificate carries at least 64 random bits. */
export const MIN_SERIAL_BYTES = 8

export interface CertExtensionFacts {
  serialBytes: number
  ocsp: string[]
  crl: string[]
  scts: boolean
}

/** Serial length, revocation addresses and embedded SCTs, read from the DER (Node exposes none of them fully). */
export function extensionFacts(der: Buffer): CertExtensionFacts {
  const out: CertExtensionFacts = { serialBytes: 0, ocsp: [], crl: [], scts: false }
  try {
    const outer = readTlv(der, 0)
    const tbs = readTlv(der, outer.start)
    let off = tbs.start
    let t = readTlv(der, off)
    if (t.tag === 0xa0) t = readTlv(der, (off = t.end)) // [0] version
    let serial = der.subarray(t.start, t.end)
    while (serial.length > 1 && serial[0] === 0) serial = serial.subarray(1)
    out.serialBytes = serial.length
    off = t.end
    while (off < tbs.end) {
      const f = readTlv(der, off)
      off = f.end
      if (f.tag !== 0xa3) continue
      const list = readTlv(der, f.start)
      for (let e = list.start; e < list.end; ) {
        const ext = readTlv(der, e)
        e = ext.end
        const oid = readTlv(der, ext.start)
        let v = readTlv(der, oid.end)
        if (v.tag === 0x01) v = readTlv(der, v.end) // critical
        const dotted = decodeOid(der.subarray(oid.start, oid.end))
        const value = der.subarray(v.start, v.end)
        if (dotted === OID_SCT_LIST) out.scts = value.length > 0
        else if (dotted === OID_CRL_DP) out.crl.push(...uris(value, 0, value.length))
        else if (dotted === OID_AIA) {
          const seq = readTlv(value, 0)
          for (let a = seq.start; a < seq.end; ) {
            const desc = readTlv(value, a)
            a = desc.end
            const method = readTlv(value, desc.start)
            if (decodeOid(value.subarray(method.start, method.end)) === OID_OCSP) out.ocsp.push(...uris(value, method.end, desc.end))
          }
        }
      }
    }
  } catch {
    // Malformed DER: report what was read.
  }
  return out
}

/** Every uniformResourceIdentifier ([6] IA5String) inside constructed DER between `from` and `to`. */
function uris(buf: Buffer, from: number, to: number, depth = 0): string[] {
  const out: string[] = []
  for (let off = from; off < to && depth < 8; ) {
    const t = readTlv(buf, off)
    off = t.end
    if (t.tag === 0x86) out.push(buf.subarray(t.start, t.end).toString('latin1'))
    else if (t.tag & 0x20) out.push(...uris(buf, t.start, t.end, depth + 1))
  }
  return out
}

function decodeOid(b: Buffer): string {
  const parts = [Math.floor(b[0]! / 40), b[0]! % 40]
  let v = 0
  for (const byte of b.subarray(1)) {
    v = v * 128 + (byte & 0x7f)
    if (!(byte & 0x80)) {
      parts.push(v)
      v = 0
    }
  }
  return parts.join('.')
}

export function isWeakSignature(alg: string): boolean {
  return WEAK_SIGNATURES.has(alg)
}

function keyFacts(c: X509Certificate): { type: string; size: number | null; weak: boolean } {
  const k = c.publicKey
  const type = k.asymmetricKeyType ?? 'unknown'
  const d = k.asymmetricKeyDetails ?? {}
  if (type === 'rsa' || type === 'rsa-pss' || type === 'dsa') {
    const size = d.modulusLength ?? null
    return { type, size, weak: size !== null && size < 2048 }
  }
  if (type === 'ec') {
    const size = curveBits(d.namedCurve)
    return { type: `ec (${d.namedCurve ?? '?'})`, size, weak: size !== null && size < 224 }
  }
  if (type === 'ed25519') return { type, size: 256, weak: false }
  if (type === 'ed448') return { type, size: 456, weak: false }
  return { type, size: null, weak: false }
}

function curveBits(curve: string | undefined): number | null {
  const m = curve?.match(/(\d{3})/)
  return m ? Number(m[1]) : null
}

const oneLine = (dn: string) => dn.split('\n').filter(Boolean).join(', ')

export function isSelfSigned(c: X509Certificate): boolean {
  if (c.subject !== c.issuer) return false
  try {
    return c.verify(c.publicKey)
  } catch {
    return false
  }
}

export interface ChainContext {
  now: number
  /** Name (or IP literal) the leaf must be valid for. */
  hostname: string
  /** Whether the chain verified against the trust store; null when no handshake could tell. */
  trusted: boolean | null
  /** The server sent SCTs in the TLS signed_certificate_timestamp extension. */
  sctInHandshake?: boolean
}

/** Reports of a served chain (leaf first) with their problems. Roots (self-signed issuers) are only described. */
export function analyzeChain(ders: Buffer[], ctx: ChainContext): CertificateReport[] {
  const certs = ders.map((d) => {
    try {
      return new X509Certificate(d)
    } catch {
      return null
    }
  })
  return certs.flatMap((c, position) => {
    if (!c) return []
    const der = ders[position]!
    const selfSigned = isSelfSigned(c)
    const key = keyFacts(c)
    const sig = signatureAlgorithm(der)
    const from = Date.parse(c.validFrom)
    const to = Date.parse(c.validTo)
    const problems: CertProblem[] = []
    const isRoot = position > 0 && selfSigned
    const ext = extensionFacts(der)
    if (!isRoot) {
      if (to < ctx.now) problems.push('expired')
      else if (from > ctx.now) problems.push('not-yet-valid')
      else if (to - ctx.now < EXPIRY_WARNING_DAYS * DAY) problems.push('expiring-soon')
      if (key.weak) problems.push('weak-key')
      if (isWeakSignature(sig)) problems.push('weak-signature')
    }
    if (position === 0) {
      if (selfSigned) problems.push('self-signed')
      else if (ctx.trusted === false) problems.push('untrusted')
      if (!matchesHost(c, ctx.hostname)) problems.push('hostname-mismatch')
      // Issuance rules of CAs: a self-signed leaf already has its own, louder finding.
      if (!selfSigned) {
        if (ext.serialBytes > 0 && ext.serialBytes < MIN_SERIAL_BYTES) problems.push('short-serial')
        if (!ext.ocsp.length && !ext.crl.length) problems.push('no-revocation-info')
        // CT is expected of certificates that chain to a trust anchor (publicly trusted CAs log them all).
        if (ctx.trusted === true && !ext.scts && !ctx.sctInHandshake) problems.push('no-ct')
      }
    }
    return [
      {
        position,
        subject: oneLine(c.subject),
        issuer: oneLine(c.issuer),
        serial_number: c.serialNumber,
        serial_bytes: ext.serialBytes,
        ocsp_urls: ext.ocsp,
        crl_urls: ext.crl,
        embedded_scts: ext.scts,
        valid_from: new Date(from).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        valid_to: new Date(to).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        key_type: key.type,
        key_size: key.size,
        signature_algorithm: sig,
        sans: (c.subjectAltName ?? '').split(', ').filter(Boolean),
        fingerprint_sha1: c.fingerprint,
        fingerprint_sha256: c.fingerprint256,
        self_signed: selfSigned,
        problems,
      },
    ]
  })
}

function matchesHost(c: X509Certificate, host: string): boolean {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host
  if (/^[\d.]+$/.test(bare) || bare.includes(':')) return c.checkIP(bare) !== undefined
  return c.checkHost(bare) !== undefined
}

/** Verification errors (Node's authorizationError codes) that mean the chain does not lead to a trusted root. */
export const CHAIN_ERRORS = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'CERT_REJECTED',
])
