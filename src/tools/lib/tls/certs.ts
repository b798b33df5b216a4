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

export interface CertificateReport {
  /** 0 = the server's own certificate, then its issuers. */
  position: number
  subject: string
  issuer: string
  serial_number: string
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
const WEAK_SIGNATURES = new Set(['md2WithRSAEncryption', 'md5WithRSAEncryption', 'sha1WithRSAEncryption', 'ecdsa-with-SHA1', 'dsa-with-SHA1'])

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
    }
    return [
      {
        position,
        subject: oneLine(c.subject),
        issuer: oneLine(c.issuer),
        serial_number: c.serialNumber,
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
