// What one TLS analysis found (scanTls in analyze.ts fills it in; findings.ts reads it): the shape
// both sides depend on, so neither depends on the other.
import type { CertificateReport } from './certs.js'
import type { ProtocolName } from './hello.js'
import type { WeakClass } from './suites.js'

export const PROTOCOLS: readonly ProtocolName[] = ['SSLv2', 'SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']

export interface CipherReport {
  name: string
  /** IANA name. */
  iana: string
  code: string
  bits?: number
  weak: boolean
  reason?: string
  classes: WeakClass[]
}

export interface ProtocolReport {
  name: ProtocolName
  /** null: could not be determined (connection failures, stopped). */
  accepted: boolean | null
  ciphers: CipherReport[]
  /** How acceptance was established: hand-built hellos, or the runtime's TLS library. */
  via?: 'hello' | 'runtime'
  error?: string
}

export interface TlsReport {
  host: string
  port: number
  sni: string | null
  /** Name the certificate must be valid for (the SNI, else the host). */
  hostname: string
  /** A TCP connection could be made. */
  reachable: boolean
  /** Some SSL/TLS handshake got a ServerHello. */
  speaksTls: boolean
  /** Steps that ran to the end (missing after a stop). */
  completed: { protocols: boolean; certificate: boolean; http: boolean; heartbleed: boolean }
  scannedAt: string
  protocols: ProtocolReport[]
  certificates: CertificateReport[]
  /** null: no handshake could tell (e.g. SSLv3-only servers). */
  trust: { trusted: boolean | null; error: string | null }
  /** Protocols under which the server picked DEFLATE when offered. */
  compression: ProtocolName[]
  /** Per SSLv3..TLS 1.2 protocol: whether ServerHello carried renegotiation_info (RFC 5746). */
  renegotiation: { protocol: ProtocolName; secure: boolean }[]
  /**
   * Whether the server stapled an OCSP response when a TLS 1.0-1.2 ClientHello asked (status_request);
   * null when no such handshake was seen (TLS 1.3 staples inside encrypted messages).
   */
  ocspStapling: boolean | null
  /** The server sent SCTs in the signed_certificate_timestamp extension of a TLS 1.0-1.2 ServerHello. */
  sctInHandshake: boolean
  /** The server completed a renegotiation the client started (TLS 1.2 and older); null: not tested or no answer. */
  clientRenegotiation: boolean | null
  /** The finite-field DH group of the server's DHE suites (null: no DHE suite, or not measured). */
  dh: { bits: number; protocol: ProtocolName; suite: string } | null
  heartbeat: { supported: boolean; vulnerable: boolean | null; protocol?: ProtocolName; note?: string }
  http: { speaksHttp: boolean; status?: number; hsts: string | null; error?: string } | null
}
