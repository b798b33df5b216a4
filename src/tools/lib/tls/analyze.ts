// The TLS analysis, reusable by other tools (the Network Vulnerability Scanner runs it on TLS ports):
// scanTls() does the network work and returns a typed report (report.ts); findings.ts turns a report
// into findings.
import type { SecureVersion } from 'node:tls'
import { X509Certificate } from 'node:crypto'
import type { ConnectionOptions, TLSSocket, PeerCertificate, DetailedPeerCertificate } from 'node:tls'
import type { Egress } from '../../../toolkit/egress.js'
import { mapLimit } from '../../../toolkit/limit.js'
import { ipVersion, stripBrackets } from '../../../toolkit/ip.js'
import { analyzeChain, CHAIN_ERRORS, isSelfSigned } from './certs.js'
import {
  buildClientHello,
  buildSsl2ClientHello,
  dhPrimeBits,
  versionName,
  COMPRESSION_DEFLATE,
  EXT,
  type ProtocolName,
  type ServerHello,
} from './hello.js'
import { heartbleedProbe, sendHello, sendSsl2Hello, type Endpoint } from './probe.js'
import { LEGACY_SUITES, SSL2_SUITES, TLS13_SUITES, suiteByCode, suiteByName, weakClasses, WEAK_CLASS_LABEL, type Suite } from './suites.js'
import { CONNECT_TIMEOUT_MS, SIDE_HTTP_TIMEOUT_MS } from '../../../toolkit/timeouts.js'
import { PROTOCOLS, type CipherReport, type ProtocolReport, type TlsReport } from './report.js'

export { PROTOCOLS, type CipherReport, type ProtocolReport, type TlsReport }

export interface ScanTlsOptions {
  sni?: string
  signal: AbortSignal
  log?: (line: string) => void
  /** Extra trust anchors (PEM) for the chain check, replacing the runtime's store (tests). */
  ca?: string[]
  /** Per connection/read timeout (default 5 s). */
  timeoutMs?: number
  /** Probes at once (default 3). */
  concurrency?: number
  /** Called as steps finish (6 protocol probes, DHE group, certificate, HTTP, renegotiation, heartbeat). */
  progress?: (done: number, total: number) => void
}

const NODE_VERSION: Partial<Record<ProtocolName, 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'>> = {
  'TLSv1.0': 'TLSv1',
  'TLSv1.1': 'TLSv1.1',
  'TLSv1.2': 'TLSv1.2',
  'TLSv1.3': 'TLSv1.3',
}
const MAX_HELLOS_PER_PROTOCOL = 128
/** Suites per hello in the retry for servers that refuse long lists. */
const CHUNK = 64

/** What the steps of one analysis share: where to connect, how, and the report they fill in. */
interface TlsSession {
  net: Egress
  ep: Endpoint
  o: ScanTlsOptions
  log: (line: string) => void
  bare: string
  port: number
  sniName: string | undefined
  report: TlsReport
  /** The first ServerHello per protocol (compression, renegotiation, heartbeat are read from it). */
  firstHellos: Map<ProtocolName, ServerHello>
  /** Certificates seen in raw handshakes: the fallback when the runtime's handshake fails. */
  helloCerts: Buffer[][]
  stopped: () => boolean
  /** How far the suite enumeration of protocol `p` got (0..1 of its suites). */
  suitesDone: (p: ProtocolName, fraction: number) => void
}

export async function scanTls(
  net: Egress,
  host: string,
  port: number,
  opts: { sni?: string; signal: AbortSignal; log?: (line: string) => void } & Partial<ScanTlsOptions>,
): Promise<TlsReport> {
  const o: ScanTlsOptions = { timeoutMs: CONNECT_TIMEOUT_MS, concurrency: 3, ...opts }
  const bare = stripBrackets(host)
  const s: TlsSession = {
    net,
    o,
    bare,
    port,
    ep: { host: bare, port },
    log: o.log ?? (() => {}),
    sniName: o.sni ?? (ipVersion(bare) ? undefined : bare),
    report: emptyReport(bare, port, o.sni),
    firstHellos: new Map(),
    helloCerts: [],
    stopped: () => o.signal.aborted,
    suitesDone: () => {},
  }
  const { report, stopped, log } = s
  // Progress: one step per protocol (moving suite by suite while it is enumerated), then five.
  const TOTAL_STEPS = PROTOCOLS.length + 5
  let stepsDone = 0
  const partial = new Map<ProtocolName, number>()
  const emit = () => o.progress?.(stepsDone + [...partial.values()].reduce((a, b) => a + b, 0), TOTAL_STEPS)
  const step = () => {
    stepsDone++
    emit()
  }
  s.suitesDone = (p, fraction) => {
    partial.set(p, Math.min(0.95, fraction))
    emit()
  }

  if (!(await connectStep(s))) return report
  // 1. Protocols and suites.
  await mapLimit(PROTOCOLS, o.concurrency!, undefined, (p) =>
    enumerateProtocol(s, p).finally(() => {
      partial.delete(p)
      step()
    }),
  )
  if (stopped()) return report
  summariseProtocols(s)
  if (!report.speaksTls) {
    log(`${bare}:${port}: no SSL/TLS handshake succeeded`)
    return report
  }
  // 2-6. Independent of each other (one or two connections each): at once.
  const after = async (run: () => Promise<unknown>) => {
    const ok = await run()
    if (ok !== false && !stopped()) step()
  }
  await Promise.all([
    after(() => dhStep(s)),
    after(() => certificateStep(s)),
    after(() => httpStep(s)),
    after(() => renegotiationStep(s)),
    after(() => heartbleedStep(s)),
  ])
  return report
}

function emptyReport(bare: string, port: number, sni: string | undefined): TlsReport {
  return {
    host: bare,
    port,
    sni: sni ?? null,
    hostname: sni ?? bare,
    reachable: false,
    speaksTls: false,
    completed: { protocols: false, certificate: false, http: false, heartbleed: false },
    scannedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    protocols: PROTOCOLS.map((name) => ({ name, accepted: null, ciphers: [] })),
    certificates: [],
    trust: { trusted: null, error: null },
    compression: [],
    renegotiation: [],
    ocspStapling: null,
    sctInHandshake: false,
    clientRenegotiation: null,
    dh: null,
    heartbeat: { supported: false, vulnerable: null },
    http: null,
  }
}

/** Whether the port accepts TCP at all (nothing else is tried when it does not). */
async function connectStep(s: TlsSession): Promise<boolean> {
  const { net, bare, port, o, log, report, stopped } = s
  try {
    const sock = await net.connect({ host: bare, port, timeoutMs: o.timeoutMs, signal: o.signal })
    sock.destroy()
    report.reachable = true
  } catch (e) {
    if (!stopped()) log(`${bare}:${port}: cannot connect (${oneLine(e)})`)
    return false
  }
  log(`${bare}:${port}: connected; probing SSL/TLS protocol versions and cipher suites`)
  return true
}

/** One protocol version: accepted or not, and its suites (hand-built hellos, the runtime's TLS as a second opinion). */
async function enumerateProtocol(s: TlsSession, p: ProtocolName): Promise<void> {
  const { net, ep, o, log, report, helloCerts, stopped } = s
  const pr = report.protocols.find((x) => x.name === p)!
  try {
    if (p === 'SSLv2') {
      const r = await sendSsl2Hello(net, ep, buildSsl2ClientHello(SSL2_SUITES.map((s) => s.code)), o)
      if (stopped()) return
      pr.accepted = r.kind === 'hello'
      if (r.kind === 'hello') {
        pr.via = 'hello'
        pr.ciphers = r.hello.specs.map((c) => cipherReport(suiteByCode(c, true), p))
        if (r.hello.certificate) helloCerts.push([r.hello.certificate])
      }
      return
    }
    const all = (p === 'TLSv1.3' ? TLS13_SUITES : LEGACY_SUITES).map((s) => s.code)
    // Each accepted suite is one suite settled; a refusal settles the rest.
    let settled = 0
    const picked = () => s.suitesDone(p, ++settled / all.length)
    const accepted = await offerUntilRefused(s, p, all, picked)
    const nodeVersion = NODE_VERSION[p]
    if (!accepted.length && nodeVersion && !stopped()) {
      const negotiated = await runtimeHandshake(s, nodeVersion)
      if (negotiated) {
        // Some stacks choke on long suite lists (the "128 cipher" bug): enumerate again in small chunks.
        log(`${p}: refused the full suite list but accepts ${p} (${negotiated}); offering suites in chunks of ${CHUNK}`)
        for (let i = 0; i < all.length && !stopped(); i += CHUNK) {
          settled = i
          s.suitesDone(p, settled / all.length)
          accepted.push(...(await offerUntilRefused(s, p, all.slice(i, i + CHUNK), picked)))
        }
        pr.via = accepted.length ? 'hello' : 'runtime'
        if (!accepted.length) {
          const s = suiteByName(negotiated)
          pr.ciphers = s ? [cipherReport(s, p)] : [{ name: negotiated, iana: negotiated, code: '', weak: false, classes: [] }]
        }
        pr.accepted = true
      }
    }
    if (stopped()) return
    if (accepted.length) {
      pr.accepted = true
      pr.via = 'hello'
      pr.ciphers = accepted.map((c) => cipherReport(suiteByCode(c), p))
    } else pr.accepted ??= false
  } catch (e) {
    if (!stopped()) {
      pr.error = oneLine(e)
      log(`${p}: probe failed (${pr.error})`)
    }
  }
}

/** Offers `suites`, removing each one the server picks, until it refuses; the picked codes in order. */
async function offerUntilRefused(
  s: TlsSession,
  p: Exclude<ProtocolName, 'SSLv2'>,
  suites: number[],
  picked: () => void = () => {},
): Promise<number[]> {
  const { net, ep, o, sniName, firstHellos, helloCerts, stopped } = s
  const remaining = new Set(suites)
  const accepted: number[] = []
  for (let i = 0; i < MAX_HELLOS_PER_PROTOCOL && remaining.size && !stopped(); i++) {
    const hello = buildClientHello({
      protocol: p,
      suites: [...remaining],
      sni: sniName,
      offerCompression: true,
      heartbeat: true,
      statusRequest: true,
    })
    const r = await sendHello(net, ep, hello, { ...o, untilDone: !firstHellos.has(p) && p !== 'TLSv1.3' })
    if (r.kind !== 'hello' || versionName(r.hello.version) !== p) break
    if (!firstHellos.has(p)) {
      firstHellos.set(p, r.hello)
      if (r.certificates.length) helloCerts.push(r.certificates)
    }
    accepted.push(r.hello.suite)
    picked()
    if (!remaining.delete(r.hello.suite)) break // a suite we did not offer: stop rather than loop
  }
  return accepted
}

/** A handshake by the runtime's TLS to the session's endpoint and name, with these TLS options. */
function runtimeConnect(s: TlsSession, tls: ConnectionOptions): Promise<TLSSocket> {
  return s.net.tlsConnect({ ...s.ep, servername: s.sniName, timeoutMs: s.o.timeoutMs, signal: s.o.signal, tls })
}

/** The suite the runtime's TLS negotiates at exactly version `v`, or null. */
async function runtimeHandshake(s: TlsSession, v: SecureVersion): Promise<string | null> {
  let sock: TLSSocket | undefined
  try {
    sock = await runtimeConnect(s, { minVersion: v, maxVersion: v, ciphers: 'ALL:@SECLEVEL=0' })
    return sock.getCipher()?.name ?? null
  } catch {
    return null
  } finally {
    sock?.destroy()
  }
}

/** What the protocol probes found, as the report's protocol, compression and renegotiation facts. */
function summariseProtocols(s: TlsSession): void {
  const { log, report, firstHellos } = s
  report.completed.protocols = true
  report.speaksTls = report.protocols.some((p) => p.accepted)
  for (const p of report.protocols) {
    if (!p.accepted) continue
    log(
      `${p.name}: accepted (${p.ciphers.length} cipher suite${p.ciphers.length === 1 ? '' : 's'}: ${p.ciphers.map((c) => c.name).join(' ')})`,
    )
  }
  for (const [p, h] of firstHellos) {
    if (h.compression === COMPRESSION_DEFLATE) report.compression.push(p)
    if (p !== 'TLSv1.3') report.renegotiation.push({ protocol: p, secure: h.extensions.has(EXT.renegotiationInfo) })
    // SSLv3 hellos carry no extensions, so only TLS 1.0-1.2 answers tell about stapling and SCTs.
    if (p === 'TLSv1.0' || p === 'TLSv1.1' || p === 'TLSv1.2') {
      report.ocspStapling = report.ocspStapling === true || h.extensions.has(EXT.statusRequest)
      if (h.extensions.has(EXT.signedCertificateTimestamp)) report.sctInHandshake = true
    }
  }
}

/** The DH group size behind the server's DHE suites: one hello offering only those, read up to ServerKeyExchange. */
async function dhStep(s: TlsSession): Promise<void> {
  const { net, ep, o, log, report, sniName } = s
  const order: ProtocolName[] = ['TLSv1.2', 'TLSv1.1', 'TLSv1.0', 'SSLv3']
  for (const p of order) {
    const pr = report.protocols.find((x) => x.name === p)!
    const dhe = pr.accepted ? pr.ciphers.map((c) => suiteByCode(parseInt(c.code, 16))).filter((c) => c.kx === 'DH' && c.au !== 'None') : []
    if (!dhe.length) continue
    try {
      const hello = buildClientHello({ protocol: p as Exclude<ProtocolName, 'SSLv2'>, suites: dhe.map((c) => c.code), sni: sniName })
      const r = await sendHello(net, ep, hello, { ...o, untilDone: true })
      const bits = r.kind === 'hello' && r.serverKeyExchange ? dhPrimeBits(r.serverKeyExchange) : null
      if (r.kind === 'hello' && bits) {
        report.dh = { bits, protocol: p, suite: suiteByCode(r.hello.suite).name }
        log(`DHE (${p}, ${report.dh.suite}): ${bits}-bit group`)
      }
    } catch (e) {
      log(`DHE group size: probe failed (${oneLine(e)})`)
    }
    return
  }
}

/** Certificate chain and trust, from the runtime's handshake (the fallback is the hello's Certificate). */
async function certificateStep(s: TlsSession): Promise<void> {
  const { o, log, report, helloCerts, stopped } = s
  const now = Date.now()
  let ders: Buffer[] = []
  let sock: TLSSocket | undefined
  try {
    sock = await runtimeConnect(
      s,
      // Anonymous suites carry no certificate: leave them out of this handshake.
      { minVersion: 'TLSv1', ciphers: 'ALL:!aNULL:@SECLEVEL=0', ...(o.ca ? { ca: o.ca } : {}) },
    )
    ders = chainOf(sock.getPeerCertificate(true))
    const err = sock.authorizationError
      ? String((sock.authorizationError as Error & { code?: string }).code ?? sock.authorizationError)
      : null
    report.trust = { trusted: trustVerdict(err, ders), error: err }
  } catch (e) {
    if (stopped()) return
    log(`certificate: runtime handshake failed (${oneLine(e)}); using the certificates of a raw handshake`)
    ders = helloCerts[0] ?? []
    report.trust = { trusted: null, error: null }
  } finally {
    sock?.destroy()
  }
  report.certificates = analyzeChain(ders, {
    now,
    hostname: report.hostname,
    trusted: report.trust.trusted,
    sctInHandshake: report.sctInHandshake,
  })
  for (const c of report.certificates) {
    log(
      `certificate ${c.position}: ${c.subject} (issuer ${c.issuer}; ${c.valid_from} .. ${c.valid_to}; ` +
        `${c.key_type} ${c.key_size ?? ''}; ${c.signature_algorithm})${c.problems.length ? ' problems: ' + c.problems.join(', ') : ''}`,
    )
  }
  report.completed.certificate = true
}

/** HSTS, when the service speaks HTTP over TLS. */
async function httpStep(s: TlsSession): Promise<void> {
  const { net, o, log, report, stopped, bare, port } = s
  if (!report.protocols.some((p) => p.accepted && (p.name === 'TLSv1.2' || p.name === 'TLSv1.3'))) {
    report.http = { speaksHttp: false, hsts: null, error: 'no TLS 1.2/1.3 for an HTTPS request' }
    report.completed.http = true
    return
  }
  const urlHost = ipVersion(bare) === 6 ? `[${bare}]` : bare
  try {
    const res = await net.http(`https://${urlHost}:${port}/`, {
      signal: o.signal,
      timeoutMs: SIDE_HTTP_TIMEOUT_MS,
      maxBodyBytes: 4096,
      headers: o.sni ? { host: o.sni } : {},
    })
    report.http = { speaksHttp: true, status: res.status, hsts: res.headers['strict-transport-security'] ?? null }
    log(`https://${urlHost}:${port}/: HTTP ${res.status}; Strict-Transport-Security: ${report.http.hsts ?? '(none)'}`)
  } catch (e) {
    if (stopped()) return
    report.http = { speaksHttp: false, hsts: null, error: oneLine(e) }
    log(`https://${urlHost}:${port}/: no HTTP answer (${oneLine(e)}); HSTS not applicable`)
  }
  report.completed.http = true
}

/** Whether the server renegotiates when the client asks, on the runtime's TLS at the highest version that has renegotiation. */
async function renegotiationStep(s: TlsSession): Promise<void> {
  const { o, log, report, stopped } = s
  const v = (['TLSv1.2', 'TLSv1.1', 'TLSv1.0'] as const).find((p) => report.protocols.find((x) => x.name === p)?.accepted)
  if (!v) return
  let sock: TLSSocket | undefined
  try {
    sock = await runtimeConnect(s, { minVersion: NODE_VERSION[v], maxVersion: NODE_VERSION[v], ciphers: 'ALL:@SECLEVEL=0' })
    const t = sock
    report.clientRenegotiation = await new Promise<boolean | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), Math.min(o.timeoutMs ?? CONNECT_TIMEOUT_MS, 3000))
      const done = (v: boolean | null) => {
        clearTimeout(timer)
        resolve(v)
      }
      t.on('error', () => done(false)) // no_renegotiation alert, or the connection closed
      t.once('close', () => done(false))
      if (!t.renegotiate({ rejectUnauthorized: false }, (err) => done(!err))) done(null)
    })
    log(
      `client-initiated renegotiation (${v}): ${report.clientRenegotiation === null ? 'no answer' : report.clientRenegotiation ? 'ACCEPTED' : 'refused'}`,
    )
  } catch (e) {
    if (!stopped()) log(`client-initiated renegotiation: not tested (${oneLine(e)})`)
  } finally {
    sock?.destroy()
  }
}

/** Heartbleed, only where a ServerHello advertised heartbeat. */
async function heartbleedStep(s: TlsSession): Promise<boolean> {
  const { net, ep, o, log, report, firstHellos, sniName, stopped } = s
  const hbProtocol = [...firstHellos].find(([p, h]) => p !== 'TLSv1.3' && h.extensions.has(EXT.heartbeat))?.[0]
  if (!hbProtocol) {
    report.heartbeat = { supported: false, vulnerable: false, note: 'no heartbeat extension in ServerHello' }
  } else {
    const offered = report.protocols
      .find((p) => p.name === hbProtocol)!
      .ciphers.map((c) => parseInt(c.code, 16))
      .filter((c) => !Number.isNaN(c))
    const suites = offered.length ? offered : LEGACY_SUITES.map((s) => s.code)
    try {
      const hello = buildClientHello({ protocol: hbProtocol as Exclude<ProtocolName, 'SSLv2'>, suites, sni: sniName, heartbeat: true })
      const r = await heartbleedProbe(net, ep, hello, o)
      if (stopped()) return false
      report.heartbeat =
        r.kind === 'vulnerable'
          ? { supported: true, vulnerable: true, protocol: hbProtocol }
          : r.kind === 'not-vulnerable'
            ? { supported: true, vulnerable: false, protocol: hbProtocol }
            : r.kind === 'no-heartbeat'
              ? { supported: false, vulnerable: false }
              : { supported: true, vulnerable: null, protocol: hbProtocol, note: r.reason }
      log(`heartbeat (${hbProtocol}): ${r.kind === 'vulnerable' ? 'VULNERABLE to Heartbleed (over-long heartbeat echoed)' : r.kind}`)
    } catch (e) {
      if (stopped()) return false
      report.heartbeat = { supported: true, vulnerable: null, protocol: hbProtocol, note: oneLine(e) }
    }
  }
  report.completed.heartbleed = true
  return true
}

/** Error text on one log line (OpenSSL messages carry newlines and source paths). */
const oneLine = (e: unknown) =>
  String((e as Error)?.message ?? e)
    .replace(/\s+/g, ' ')
    .trim()

function cipherReport(s: Suite, protocol: ProtocolName): CipherReport {
  const classes = protocol === 'SSLv2' ? weakClasses(s, protocol).filter((c) => c !== 'cbc-tls10') : weakClasses(s, protocol)
  return {
    name: s.name,
    iana: s.iana,
    code: s.code.toString(16).padStart(s.sslv2 ? 6 : 4, '0'),
    ...(s.bits || s.enc === 'None' ? { bits: s.bits } : {}),
    weak: classes.length > 0,
    ...(classes.length ? { reason: classes.map((c) => WEAK_CLASS_LABEL[c]).join('; ') } : {}),
    classes,
  }
}

/** DER chain from Node's peer certificate (leaf first; issuers the runtime found in its store included). */
function chainOf(leaf: PeerCertificate | DetailedPeerCertificate): Buffer[] {
  const out: Buffer[] = []
  const seen = new Set<string>()
  let c: DetailedPeerCertificate | undefined = leaf as DetailedPeerCertificate
  while (c?.raw && !seen.has(c.fingerprint256)) {
    seen.add(c.fingerprint256)
    out.push(c.raw)
    c = c.issuerCertificate
  }
  return out
}

/**
 * OpenSSL keeps only the last verification error, so an expired certificate reads CERT_HAS_EXPIRED
 * whether or not its chain is trusted. Then the chain decides: the runtime appends issuers from its
 * trust store, so a chain ending in a self-signed root above the leaf reached a trust anchor.
 * (Blind spot: an expired chain that carries its own untrusted root.)
 */
function trustVerdict(err: string | null, ders: Buffer[]): boolean | null {
  if (!err) return true
  if (CHAIN_ERRORS.has(err)) return false
  if (ders.length < 2) return false
  try {
    return isSelfSigned(new X509Certificate(ders[ders.length - 1]!))
  } catch {
    return null
  }
}
