// Tool 450, SSL/TLS Scanner: protocol versions, cipher suites, certificate, HSTS, compression,
// renegotiation and Heartbleed of one TLS service. The analysis lives in analyze.ts (shared with tool 350).
import { defineTool, type FindingInput, type ScanContext } from '../../toolkit/tool.js'
import { TargetUnreachableError } from '../../toolkit/errors.js'
import { targetHost } from '../../toolkit/ip.js'
import { tlsScannerManifest } from './manifest.js'
import { scanTls, tlsFindings, type TlsReport } from '../lib/tls/analyze.js'

export interface TlsScannerOptions {
  /** Trust anchors (PEM) replacing the runtime's store in the chain check: for test beds with their own CA. */
  ca?: string[]
  /** Per connection/read timeout (default 5 s). */
  timeoutMs?: number
}

/** The port to scan: explicit `port`, else a URL target's port, else 443. */
export function tlsPort(target: ScanContext['target'], port: number | undefined): number {
  if (port !== undefined) return port
  if (target.type === 'url') {
    const p = new URL(target.name).port
    if (p) return Number(p)
  }
  return 443
}

interface Phase {
  name: string
  description: string
  prefix: string
  ran: (r: TlsReport) => boolean
  skip?: (r: TlsReport) => string | null
}

const PHASES: Phase[] = [
  { name: 'SSL/TLS protocol versions', description: 'Hand-built SSLv2/SSLv3/TLS ClientHellos (and the runtime TLS library for TLS 1.0-1.3) to find every accepted protocol version.', prefix: 'tls.protocol.', ran: (r) => r.completed.protocols },
  { name: 'Cipher suites', description: 'Offered every known cipher suite per protocol version, removing each one the server picked, and flagged NULL, anonymous, EXPORT, RC4, DES/3DES (SWEET32), CBC (BEAST on TLS 1.0, Lucky Thirteen on 1.1/1.2) and static key exchange (no forward secrecy) suites, and DHE groups under 2048 bits.', prefix: 'tls.cipher.', ran: (r) => r.completed.protocols },
  { name: 'Certificate', description: 'Checked the served certificate chain: validity dates, expiry within 30 days, self-signed, trust, host name, key size, signature hash, serial number length, OCSP/CRL addresses, Certificate Transparency (SCTs) and OCSP stapling.', prefix: 'tls.cert.', ran: (r) => r.completed.certificate },
  {
    name: 'HTTP Strict Transport Security', description: 'Requested https://host:port/ and checked the Strict-Transport-Security header.', prefix: 'tls.hsts.', ran: (r) => r.completed.http,
    skip: (r) => (r.http?.speaksHttp ? null : `the service did not answer HTTP over TLS (${r.http?.error ?? 'no request'})`),
  },
  { name: 'TLS compression', description: 'Offered DEFLATE compression in the ClientHello and checked whether the server selected it (CRIME).', prefix: 'tls.compression', ran: (r) => r.completed.protocols },
  {
    name: 'Secure renegotiation', description: 'Sent TLS_EMPTY_RENEGOTIATION_INFO_SCSV and checked the ServerHello for the RFC 5746 renegotiation_info extension; started a renegotiation on an established TLS 1.2 (or older) connection to see whether the server accepts client-initiated renegotiation.', prefix: 'tls.renegotiation.', ran: (r) => r.completed.protocols,
    skip: (r) => (r.renegotiation.length ? null : 'no SSLv3-TLS 1.2 handshake to inspect (TLS 1.3 has no renegotiation)'),
  },
  { name: 'Heartbleed', description: 'Advertised the heartbeat extension; where the server supports it, sent one heartbeat whose declared length exceeds the RFC 6520 limit but stays inside the request, and checked for an echo.', prefix: 'tls.heartbleed', ran: (r) => r.completed.heartbleed },
]

export function createTlsScanner(o: TlsScannerOptions = {}) {
  return defineTool(tlsScannerManifest, async (ctx) => {
    const host = targetHost(ctx.target.name)
    const port = tlsPort(ctx.target, ctx.params.port)
    ctx.log(`SSL/TLS scan of ${host}:${port}${ctx.params.sni ? ` (SNI ${ctx.params.sni})` : ''}`)
    const report = await scanTls(ctx.net, host, port, {
      sni: ctx.params.sni,
      signal: ctx.signal,
      log: (l) => ctx.log(l),
      progress: (d, t) => ctx.progress(d, t),
      ...(o.ca ? { ca: o.ca } : {}),
      ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
    })
    if (!report.reachable) {
      if (ctx.signal.aborted) return
      throw new TargetUnreachableError(`Cannot connect to ${host}:${port}`)
    }
    // The one port this scan looks at: findings of another port of the host stay as they are.
    ctx.cover({ protocol: 'tcp', probed: [port], open: [port] })
    ctx.output('protocols', report.protocols.map((p) => ({
      name: p.name,
      accepted: p.accepted,
      ciphers: p.ciphers.map((c) => ({ name: c.name, ...(c.bits !== undefined ? { bits: c.bits } : {}), weak: c.weak, ...(c.reason ? { reason: c.reason } : {}) })),
    })))
    ctx.output('certificates', report.certificates)
    const findings = tlsFindings(report, host, port)
    await recordTests(ctx, report, findings)
  })
}

async function recordTests(ctx: ScanContext, report: TlsReport, findings: FindingInput[]): Promise<void> {
  for (const ph of PHASES) {
    const t = await ctx.test(ph.name, ph.description)
    if (!ph.ran(report)) {
      await t.skip(ctx.signal.aborted ? 'the scan was stopped before this check ran' : 'not run')
      continue
    }
    if (!report.speaksTls) {
      if (ph === PHASES[0]) await t.error(`No SSL/TLS handshake succeeded with ${report.host}:${report.port}`)
      else await t.skip('the service does not speak SSL/TLS')
      continue
    }
    const reason = ph.skip?.(report)
    if (reason) {
      await t.skip(reason)
      continue
    }
    for (const f of findings.filter((f) => f.check.id.startsWith(ph.prefix))) await t.finding(f)
    await t.done()
  }
}

export const tlsScanner = createTlsScanner()
