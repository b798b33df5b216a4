// Cipher suites: the registry parsed once, and the weakness classes the scanner reports.
import { SUITE_TABLE } from './suite-table.js'

export interface Suite {
  /** 2-byte TLS code (0..0xffff) or 3-byte SSLv2 cipher spec. */
  code: number
  /** OpenSSL name when it has one, else the IANA name. */
  name: string
  iana: string
  kx: string
  au: string
  enc: string
  bits: number
  mac: string
  export: boolean
  sslv2: boolean
  tls13: boolean
}

export type WeakClass = 'null' | 'anonymous' | 'export' | 'rc4' | 'des' | 'cbc-tls10' | 'cbc' | 'no-fs'

export const WEAK_CLASS_LABEL: Readonly<Record<WeakClass, string>> = {
  null: 'NULL encryption',
  anonymous: 'anonymous key exchange',
  export: 'EXPORT-grade',
  rc4: 'RC4',
  des: 'DES/3DES or another 64-bit block cipher',
  'cbc-tls10': 'CBC mode on SSLv3/TLS 1.0',
  cbc: 'CBC mode with MAC-then-encrypt (Lucky Thirteen)',
  'no-fs': 'static key exchange (no forward secrecy)',
}

function parse(): Suite[] {
  return SUITE_TABLE.trim()
    .split('\n')
    .map((line) => {
      const [hex, ossl, iana, minVer, kx, au, enc, bits, mac, exp] = line.split(' ') as string[]
      return {
        code: parseInt(hex!, 16),
        name: ossl && ossl !== '-' ? ossl : iana!,
        iana: iana!,
        kx: kx!,
        au: au!,
        enc: enc!,
        bits: Number(bits),
        mac: mac!,
        export: exp === 'export',
        sslv2: hex!.length === 6,
        tls13: minVer === 'TLSv1.3',
      }
    })
}

const ALL = parse()
const BY_CODE = new Map(ALL.map((s) => [(s.sslv2 ? 0x1000000 : 0) + s.code, s]))

/** Suites worth offering in an SSLv3..TLS 1.2 ClientHello (not TLS_NULL_WITH_NULL_NULL, not TLS 1.3). */
export const LEGACY_SUITES: readonly Suite[] = ALL.filter((s) => !s.sslv2 && !s.tls13 && s.code !== 0)
export const TLS13_SUITES: readonly Suite[] = ALL.filter((s) => s.tls13)
export const SSL2_SUITES: readonly Suite[] = ALL.filter((s) => s.sslv2)

export function suiteByCode(code: number, sslv2 = false): Suite {
  return (
    BY_CODE.get((sslv2 ? 0x1000000 : 0) + code) ?? {
      code,
      name: `0x${code.toString(16).padStart(sslv2 ? 6 : 4, '0')}`,
      iana: 'unknown',
      kx: '?',
      au: '?',
      enc: '?',
      bits: 0,
      mac: '?',
      export: false,
      sslv2,
      tls13: false,
    }
  )
}

/** Node reports the negotiated suite by OpenSSL name (or the IANA name for TLS 1.3). */
export function suiteByName(name: string): Suite | undefined {
  const n = name.toUpperCase()
  return ALL.find((s) => !s.sslv2 && (s.name.toUpperCase() === n || s.iana.toUpperCase() === n))
}

const CBC_FREE = new Set(['None', 'RC4', 'AESGCM', 'AESCCM', 'AESCCM8', 'ChaCha20', 'CamelliaGCM', 'ARIAGCM', 'GOST'])
const BLOCK64 = new Set(['DES', '3DES', 'IDEA', 'RC2'])
/** Key exchanges whose session keys follow from a long-term key (RSA encryption, fixed DH/ECDH, Kerberos, PSK). */
const STATIC_KX = new Set(['RSA', 'DH/DSS', 'DH/RSA', 'ECDH/ECDSA', 'ECDH/RSA', 'KRB5', 'PSK', 'RSAPSK'])

/** Whether a suite's session keys are ephemeral (TLS 1.3 always; ECDHE/DHE before it). */
export function forwardSecret(s: Suite): boolean {
  return s.tls13 || !STATIC_KX.has(s.kx)
}

/** Why a suite is weak when negotiated under `protocol` (empty: not weak). */
export function weakClasses(s: Suite, protocol: string): WeakClass[] {
  const out: WeakClass[] = []
  if (s.enc === 'None') out.push('null')
  if (s.au === 'None') out.push('anonymous')
  if (s.export) out.push('export')
  if (s.enc === 'RC4') out.push('rc4')
  if (BLOCK64.has(s.enc)) out.push('des')
  const cbc = !CBC_FREE.has(s.enc) && !s.tls13
  if ((protocol === 'TLSv1.0' || protocol === 'SSLv3') && cbc) out.push('cbc-tls10')
  // Unknown suites (enc '?') are not guessed to be CBC on TLS 1.1/1.2.
  if ((protocol === 'TLSv1.1' || protocol === 'TLSv1.2') && cbc && s.enc !== '?') out.push('cbc')
  if (protocol !== 'SSLv2' && protocol !== 'TLSv1.3' && !forwardSecret(s) && s.au !== 'None') out.push('no-fs')
  return out
}
