// The tests of a TLS analysis: one per phase, each owning the findings whose vuln_id starts with its
// prefix, and the reason a phase did not apply. Pure: from the report to each test's outcome.
import type { Hit } from '../../../toolkit/hit.js'
import type { TlsReport } from '../../lib/tls/report.js'

export interface Phase {
  name: string
  description: string
  prefix: string
  /** The stage of the analysis that gathers this phase's facts: the phase ran when the stage completed. */
  stage: keyof TlsReport['completed']
  skip?: (r: TlsReport) => string | null
}

export const PHASES: readonly Phase[] = [
  {
    name: 'SSL/TLS protocol versions',
    description:
      'Hand-built SSLv2/SSLv3/TLS ClientHellos (and the runtime TLS library for TLS 1.0-1.3) to find every accepted protocol version.',
    prefix: 'tls.protocol.',
    stage: 'protocols',
  },
  {
    name: 'Cipher suites',
    description:
      'Offered every known cipher suite per protocol version, removing each one the server picked, and ' +
      'flagged NULL, anonymous, EXPORT, RC4, DES/3DES (SWEET32), CBC (BEAST on TLS 1.0, Lucky Thirteen on ' +
      '1.1/1.2) and static key exchange (no forward secrecy) suites, and DHE groups under 2048 bits.',
    prefix: 'tls.cipher.',
    stage: 'protocols',
  },
  {
    name: 'Certificate',
    description:
      'Checked the served certificate chain: validity dates, expiry within 30 days, self-signed, trust, ' +
      'host name, key size, signature hash, serial number length, OCSP/CRL addresses, Certificate ' +
      'Transparency (SCTs) and OCSP stapling.',
    prefix: 'tls.cert.',
    stage: 'certificate',
  },
  {
    name: 'HTTP Strict Transport Security',
    description: 'Requested https://host:port/ and checked the Strict-Transport-Security header.',
    prefix: 'tls.hsts.',
    stage: 'http',
    skip: (r) => (r.http?.speaksHttp ? null : `the service did not answer HTTP over TLS (${r.http?.error ?? 'no request'})`),
  },
  {
    name: 'TLS compression',
    description: 'Offered DEFLATE compression in the ClientHello and checked whether the server selected it (CRIME).',
    prefix: 'tls.compression',
    stage: 'protocols',
  },
  {
    name: 'Secure renegotiation',
    description:
      'Sent TLS_EMPTY_RENEGOTIATION_INFO_SCSV and checked the ServerHello for the RFC 5746 ' +
      'renegotiation_info extension; started a renegotiation on an established TLS 1.2 (or older) ' +
      'connection to see whether the server accepts client-initiated renegotiation.',
    prefix: 'tls.renegotiation.',
    stage: 'protocols',
    skip: (r) => (r.renegotiation.length ? null : 'no SSLv3-TLS 1.2 handshake to inspect (TLS 1.3 has no renegotiation)'),
  },
  {
    name: 'Heartbleed',
    description:
      'Advertised the heartbeat extension; where the server supports it, sent one heartbeat whose declared ' +
      'length exceeds the RFC 6520 limit but stays inside the request, and checked for an echo.',
    prefix: 'tls.heartbleed',
    stage: 'heartbleed',
  },
]

export type PhaseOutcome = { skip: string } | { error: string } | { hits: Hit[] }

/** What the test of `ph` records, given the report and every finding of the analysis. */
export function phaseOutcome(ph: Phase, report: TlsReport, findings: readonly Hit[], stopped: boolean): PhaseOutcome {
  if (!report.completed[ph.stage]) return { skip: stopped ? 'the scan was stopped before this check ran' : 'not run' }
  if (!report.speaksTls)
    return ph === PHASES[0]
      ? { error: `No SSL/TLS handshake succeeded with ${report.host}:${report.port}` }
      : { skip: 'the service does not speak SSL/TLS' }
  const reason = ph.skip?.(report)
  if (reason) return { skip: reason }
  return { hits: findings.filter((f) => f.check.id.startsWith(ph.prefix)) }
}

/** The port to scan: explicit `port`, else a URL target's port, else 443. */
export function tlsPort(target: { type: string; name: string }, port: number | undefined): number {
  if (port !== undefined) return port
  if (target.type === 'url') {
    const p = new URL(target.name).port
    if (p) return Number(p)
  }
  return 443
}
