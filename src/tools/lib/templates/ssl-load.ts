// Loads an ssl block: the address, the protocol versions and cipher suites to offer, and whether to
// enumerate the versions the server accepts.
import type { SslBlock, TlsVersionName } from './model.js'
import { bool, checkMarkers, list, skip, str } from './load-parts.js'
import { matchBlock } from './tcp-load.js'
import { LEGACY_SUITES, TLS13_SUITES } from '../tls/suites.js'

const VERSIONS: Record<string, TlsVersionName> = { tls10: 'tls10', tls11: 'tls11', tls12: 'tls12', tls13: 'tls13' }
const BY_IANA = new Map([...LEGACY_SUITES, ...TLS13_SUITES].map((s) => [s.iana, s.name]))

function version(v: unknown, key: string): TlsVersionName | undefined {
  const s = str(v).toLowerCase()
  if (!s) return undefined
  if (s === 'sslv3' || s === 'sslv2')
    skip(`${key} ${s}: Ward's TLS library cannot negotiate ${s.toUpperCase()} (its own SSL/TLS Scanner checks it)`)
  return VERSIONS[s] ?? skip(`unknown ${key} ${JSON.stringify(s.slice(0, 20))}`)
}

export function parseSslBlock(b: Record<string, unknown>): SslBlock {
  if (bool(b.tls_cipher_enum))
    skip('tls_cipher_enum (cipher suite enumeration) is not supported; the SSL/TLS Scanner enumerates suites itself')
  const ciphers = list(b.cipher_suites).map((c) => BY_IANA.get(c) ?? skip(`unknown cipher suite ${JSON.stringify(c.slice(0, 60))}`))
  const block: SslBlock = {
    ...matchBlock(b, 'ssl'),
    address: str(b.address) || '{{Host}}:{{Port}}',
    minVersion: version(b.min_version, 'min_version'),
    maxVersion: version(b.max_version, 'max_version'),
    ciphers,
    versionEnum: bool(b.tls_version_enum),
  }
  checkMarkers([block.address])
  return block
}
