// Report → findings. Pure: the same report always gives the same findings.
import type { Check } from '../../../toolkit/check.js'
import {
  tlsCertExpired,
  tlsCertExpiringSoon,
  tlsCertHostnameMismatch,
  tlsCertNoCt,
  tlsCertNoRevocationInfo,
  tlsCertNotYetValid,
  tlsCertOcspStaplingMissing,
  tlsCertSelfSigned,
  tlsCertShortSerial,
  tlsCertUntrusted,
  tlsCertWeakKey,
  tlsCertWeakSignature,
  tlsCipherAnonymous,
  tlsCipherCbc,
  tlsCipherCbcTls10,
  tlsCipherDes,
  tlsCipherExport,
  tlsCipherNoForwardSecrecy,
  tlsCipherNull,
  tlsCipherRc4,
  tlsCipherWeakDh,
  tlsCompression,
  tlsHeartbleed,
  tlsHstsMissing,
  tlsProtocolSslv2,
  tlsProtocolSslv3,
  tlsProtocolTls10,
  tlsProtocolTls11,
  tlsRenegotiationClientInitiated,
  tlsRenegotiationInsecure,
} from './checks.js'
import { tableEvidence, textEvidence } from '../../../toolkit/evidence.js'
import { ipVersion } from '../../../toolkit/ip.js'
import type { FindingInput } from '../../../toolkit/tool.js'
import type { CertProblem, CertificateReport } from './certs.js'
import type { TlsReport } from './report.js'
import type { ProtocolName } from './hello.js'
import { WEAK_CLASS_LABEL, type WeakClass } from './suites.js'

const PROTOCOL_CHECKS: Partial<Record<ProtocolName, Check>> = {
  SSLv2: tlsProtocolSslv2,
  SSLv3: tlsProtocolSslv3,
  'TLSv1.0': tlsProtocolTls10,
  'TLSv1.1': tlsProtocolTls11,
}

const CIPHER_CHECKS: Readonly<Record<WeakClass, Check>> = {
  null: tlsCipherNull,
  anonymous: tlsCipherAnonymous,
  export: tlsCipherExport,
  rc4: tlsCipherRc4,
  des: tlsCipherDes,
  'cbc-tls10': tlsCipherCbcTls10,
  cbc: tlsCipherCbc,
  'no-fs': tlsCipherNoForwardSecrecy,
}

/** DH groups below this size get a finding (Logjam; NIST SP 800-57 since 2014). */
export const MIN_DH_BITS = 2048

const CERT_CHECKS: Readonly<Record<CertProblem, Check>> = {
  expired: tlsCertExpired,
  'not-yet-valid': tlsCertNotYetValid,
  'expiring-soon': tlsCertExpiringSoon,
  'self-signed': tlsCertSelfSigned,
  untrusted: tlsCertUntrusted,
  'hostname-mismatch': tlsCertHostnameMismatch,
  'weak-key': tlsCertWeakKey,
  'weak-signature': tlsCertWeakSignature,
  'short-serial': tlsCertShortSerial,
  'no-revocation-info': tlsCertNoRevocationInfo,
  'no-ct': tlsCertNoCt,
}

type At = { port: number; protocol: 'tcp'; service: string }

/** The findings of a TLS report. `host`/`port` locate them (the report's own are used when they agree). */
export function tlsFindings(report: TlsReport, host: string, port: number): FindingInput[] {
  const at: At = { port, protocol: 'tcp', service: report.http?.speaksHttp ? 'https' : 'tls' }
  return [
    ...protocolFindings(report, host, at),
    ...cipherFindings(report, at),
    ...certificateFindings(report, at),
    ...hstsFindings(report, host, at),
    ...handshakeFindings(report, at),
  ]
}

function protocolFindings(report: TlsReport, host: string, at: At): FindingInput[] {
  const { port } = at
  return report.protocols.flatMap((p) => {
    const check = PROTOCOL_CHECKS[p.name]
    if (!check || !p.accepted) return []
    return [
      {
        check,
        ...at,
        confirmed: true,
        detail: `${host}:${port} completed a ${p.name} handshake${p.ciphers.length ? ` with ${p.ciphers.length} cipher suite(s)` : ''}.`,
        evidence: tableEvidence(
          ['Protocol', 'Cipher suite', 'Bits'],
          p.ciphers.map((c) => [p.name, c.name, c.bits ?? '']),
        ),
      },
    ]
  })
}

function cipherFindings(report: TlsReport, at: At): FindingInput[] {
  const out: FindingInput[] = []
  const byClass = new Map<WeakClass, string[][]>()
  for (const p of report.protocols) {
    if (!p.accepted) continue
    for (const c of p.ciphers)
      for (const k of c.classes)
        byClass.set(k, [...(byClass.get(k) ?? []), [p.name, c.name, c.iana, c.bits === undefined ? '' : String(c.bits)]])
  }
  for (const [k, rows] of byClass) {
    out.push({
      check: CIPHER_CHECKS[k],
      ...at,
      confirmed: true,
      location: `cipher:${k}`,
      detail:
        `${rows.length} accepted cipher suite(s) use ${WEAK_CLASS_LABEL[k]}: ` +
        `${[...new Set(rows.map((r) => r[1]))].join(', ')}.${k === 'no-fs' ? fsNote(report) : ''}`,
      evidence: tableEvidence(['Protocol', 'Cipher suite', 'IANA name', 'Bits'], rows),
      ...(k === 'no-fs' && !offersForwardSecrecy(report) ? { risk: 'medium' as const } : {}),
    })
  }
  if (report.dh && report.dh.bits < MIN_DH_BITS) {
    out.push({
      check: tlsCipherWeakDh,
      ...at,
      confirmed: true,
      location: 'cipher:weak-dh',
      detail: `The DHE key exchange (${report.dh.protocol}, ${report.dh.suite}) uses a ${report.dh.bits}-bit group; at least ${MIN_DH_BITS} bits are needed.`,
      evidence: textEvidence(
        `ClientHello (${report.dh.protocol}) offering only the server's DHE suites; ServerKeyExchange dh_p: ${report.dh.bits} bits.`,
      ),
      ...(report.dh.bits <= 1024 ? {} : { risk: 'low' as const }),
    })
  }
  return out
}

function certificateFindings(report: TlsReport, at: At): FindingInput[] {
  const out: FindingInput[] = []
  const problems = new Map<CertProblem, CertificateReport[]>()
  for (const c of report.certificates) for (const pr of c.problems) problems.set(pr, [...(problems.get(pr) ?? []), c])
  for (const [pr, certs] of problems) {
    out.push({
      check: CERT_CHECKS[pr],
      ...at,
      confirmed: true,
      detail: certDetail(pr, certs, report),
      evidence: tableEvidence(
        ['Position', 'Subject', 'Issuer', 'Valid from', 'Valid to', 'Key', 'Signature', 'SANs'],
        certs.map((c) => [
          c.position === 0 ? 'leaf' : String(c.position),
          c.subject,
          c.issuer,
          c.valid_from,
          c.valid_to,
          `${c.key_type} ${c.key_size ?? ''}`.trim(),
          c.signature_algorithm,
          c.sans.join(', '),
        ]),
      ),
    })
  }
  const leaf = report.certificates.find((c) => c.position === 0)
  if (leaf?.ocsp_urls.length && report.ocspStapling === false) {
    out.push({
      check: tlsCertOcspStaplingMissing,
      ...at,
      confirmed: true,
      detail: `The certificate names the OCSP responder ${leaf.ocsp_urls.join(', ')}, but no ServerHello carried status_request.`,
      evidence: textEvidence(
        `ClientHello carried status_request (OCSP); ServerHello (${report.renegotiation.map((r) => r.protocol).join(', ')}) ` +
          'had no status_request (0x0005) extension.',
      ),
    })
  }
  return out
}

function hstsFindings(report: TlsReport, host: string, at: At): FindingInput[] {
  if (!report.http?.speaksHttp || hstsOk(report.http.hsts)) return []
  const urlHost = ipVersion(host) === 6 ? `[${host}]` : host
  return [
    {
      check: tlsHstsMissing,
      ...at,
      service: 'https',
      url: `https://${urlHost}:${at.port}/`,
      confirmed: true,
      detail: report.http.hsts
        ? `Strict-Transport-Security is "${report.http.hsts}", which sets no positive max-age.`
        : `HTTP ${report.http.status} response without Strict-Transport-Security.`,
      evidence: textEvidence(
        `GET https://${urlHost}:${at.port}/ -> ${report.http.status}\nstrict-transport-security: ${report.http.hsts ?? '(absent)'}`,
      ),
    },
  ]
}

/** Compression, renegotiation and Heartbleed: what the handshakes themselves showed. */
function handshakeFindings(report: TlsReport, at: At): FindingInput[] {
  const out: FindingInput[] = []
  if (report.compression.length) {
    out.push({
      check: tlsCompression,
      ...at,
      confirmed: true,
      detail: `The server chose DEFLATE compression under ${report.compression.join(', ')}.`,
      evidence: textEvidence(
        `ClientHello offered compression methods [DEFLATE, null]; ServerHello selected DEFLATE (${report.compression.join(', ')}).`,
      ),
    })
  }

  const insecure = report.renegotiation.filter((r) => !r.secure).map((r) => r.protocol)
  if (insecure.length) {
    out.push({
      check: tlsRenegotiationInsecure,
      ...at,
      confirmed: false,
      detail: `No renegotiation_info extension in the ServerHello under ${insecure.join(', ')}.`,
      evidence: textEvidence(
        `ClientHello carried TLS_EMPTY_RENEGOTIATION_INFO_SCSV; ServerHello (${insecure.join(', ')}) had no renegotiation_info (0xff01) extension.`,
      ),
    })
  }

  if (report.clientRenegotiation) {
    out.push({
      check: tlsRenegotiationClientInitiated,
      ...at,
      confirmed: true,
      detail: 'On an established connection the server completed a second handshake that the client started.',
      evidence: textEvidence(
        'After a TLS 1.2-or-older handshake the client sent a new ClientHello on the same connection; the ' +
          'server answered it and the second handshake completed.',
      ),
    })
  }

  if (report.heartbeat.vulnerable) {
    out.push({
      check: tlsHeartbleed,
      ...at,
      confirmed: true,
      detail: `Over ${report.heartbeat.protocol}, the server answered a heartbeat request whose payload_length exceeded the RFC 6520 limit by echoing it.`,
      evidence: textEvidence(
        'Heartbeat request: payload 20 bytes + 16 bytes padding, payload_length 36 (RFC 6520 requires payload_length + 16 <= record). ' +
          'The server echoed 36 bytes instead of discarding the message; no memory beyond the request was read.',
      ),
    })
  }
  return out
}

/** Whether some accepted suite (TLS 1.3 included) has an ephemeral key exchange. */
function offersForwardSecrecy(report: TlsReport): boolean {
  return report.protocols.some(
    (p) =>
      p.accepted && p.ciphers.some((c) => !c.classes.includes('no-fs') && !c.classes.includes('anonymous') && !c.classes.includes('null')),
  )
}

function fsNote(report: TlsReport): string {
  return offersForwardSecrecy(report)
    ? ' Suites with forward secrecy are offered too; clients that prefer a static one still get none.'
    : ' No accepted suite offers forward secrecy.'
}

function hstsOk(h: string | null): boolean {
  const m = h?.match(/max-age\s*=\s*"?(\d+)/i)
  return !!m && Number(m[1]) > 0
}

function certDetail(pr: CertProblem, certs: CertificateReport[], report: TlsReport): string {
  const who = certs.map((c) => `${c.position === 0 ? 'leaf' : `chain #${c.position}`} "${c.subject}"`).join('; ')
  switch (pr) {
    case 'expired':
      return `Expired: ${certs.map((c) => `${c.subject} on ${c.valid_to}`).join('; ')}.`
    case 'not-yet-valid':
      return `Not valid before: ${certs.map((c) => `${c.subject} from ${c.valid_from}`).join('; ')}.`
    case 'expiring-soon':
      return `Expires soon: ${certs.map((c) => `${c.subject} on ${c.valid_to}`).join('; ')}.`
    case 'self-signed':
      return `The leaf certificate "${certs[0]!.subject}" is signed by its own key.`
    case 'untrusted':
      return `The chain of ${who} does not verify against the trust store${report.trust.error ? ` (${report.trust.error})` : ''}.`
    case 'hostname-mismatch':
      return `"${report.hostname}" is not covered by ${who} (SANs: ${certs[0]!.sans.join(', ') || 'none'}).`
    case 'weak-key':
      return `Weak key: ${certs.map((c) => `${c.subject} (${c.key_type} ${c.key_size ?? '?'} bits)`).join('; ')}.`
    case 'weak-signature':
      return `Weak signature: ${certs.map((c) => `${c.subject} (${c.signature_algorithm})`).join('; ')}.`
    case 'short-serial':
      return `The serial number ${certs[0]!.serial_number} of "${certs[0]!.subject}" has ${certs[0]!.serial_bytes} byte(s) (at least 8 expected).`
    case 'no-revocation-info':
      return `"${certs[0]!.subject}" has neither a CRL distribution point nor an OCSP responder.`
    case 'no-ct':
      return (
        `"${certs[0]!.subject}" chains to a trusted root (${certs[0]!.issuer}) without embedded SCTs, ` +
        'and the server sent none in the handshake. (An internal CA added to the trust store is not ' +
        'expected to log to CT.)'
      )
  }
}
