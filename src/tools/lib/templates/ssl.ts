// Runs the ssl blocks of one template against one TLS port: a handshake through the scan's egress
// with the versions and suites the template asks for, and the fields nuclei exposes about it
// (tls_version, cipher, the certificate's names and dates, expired, self_signed, mismatched, ...).
import type { HostLimiters } from '../http/rate-limit.js'
import { createHash, type X509Certificate } from 'node:crypto'
import type { Egress } from '../../../toolkit/egress.js'
import { ipVersion } from '../../../toolkit/ip.js'
import { CONNECT_TIMEOUT_MS } from '../../../toolkit/timeouts.js'
import { isSelfSigned } from '../tls/certs.js'
import type { SslBlock, Template, TlsVersionName } from './model.js'
import type { Value } from './dsl-parse.js'
import type { RegexRunner } from './regex.js'
import { interpolate, RunVars } from './interpolate.js'
import { TemplateScopeError, type TemplateMatch } from './http.js'
import { hostPort, matchProtoResponse, splitHostPort } from './proto-match.js'
import type { ProtoRunStats } from './tcp.js'

export interface TemplateSslEnv {
  net: Egress
  host: string
  port: number
  /** Server name to send and to check the certificate against (default: the host when it is a name). */
  servername?: string
  signal: AbortSignal
  /** The scan's per-host pace (tool_params.rate_limit): each handshake waits for its slot. */
  limiter?: HostLimiters
}

const NODE_VERSION: Record<TlsVersionName, 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'> = {
  tls10: 'TLSv1',
  tls11: 'TLSv1.1',
  tls12: 'TLSv1.2',
  tls13: 'TLSv1.3',
}
const ORDER: TlsVersionName[] = ['tls10', 'tls11', 'tls12', 'tls13']
const FROM_NODE: Record<string, string> = { TLSv1: 'tls10', 'TLSv1.1': 'tls11', 'TLSv1.2': 'tls12', 'TLSv1.3': 'tls13' }
/** Errors that mean the port did not answer (not a refused handshake, which is an answer). */
const NO_ANSWER = /ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|timed? ?out|blocked|scope/i

type Handshake = { ok: true; fields: Record<string, Value> } | { ok: false; answered: boolean; message: string }

export async function runSslTemplate(t: Template, env: TemplateSslEnv, regex: RegexRunner, stats: ProtoRunStats): Promise<TemplateMatch[]> {
  const vars = new RunVars(Object.entries({ Hostname: hostPort(env.host, env.port), Host: env.host, Port: String(env.port) }))
  for (const [k, v] of Object.entries(t.variables)) vars.set(k, interpolate(v, { vars, regex }))
  const matches: TemplateMatch[] = []
  for (const block of t.ssl ?? []) {
    if (env.signal.aborted) break
    const { host, port } = splitHostPort(interpolate(block.address, { vars, regex }))
    if (host.toLowerCase() !== env.host.toLowerCase())
      throw new TemplateScopeError(`connection to ${host.slice(0, 100)} refused: templates only reach the target ${env.host}`)
    if (port !== null && port !== env.port) continue
    stats.requests++
    const h = await handshake(env, block, block.minVersion, block.maxVersion)
    if (!h.ok) {
      if (!h.answered) stats.failures.push(h.message)
      continue
    }
    if (block.versionEnum) h.fields.tls_version_enum = await enumerateVersions(env, block, stats)
    const json = JSON.stringify(asJson(h.fields))
    const m = matchProtoResponse(block, vars, { ...h.fields, body: json, response: json, raw: json, all: json }, regex, {
      requestLine:
        `TLS handshake with ${hostPort(env.host, env.port)} (${block.minVersion ?? 'any'}..${block.maxVersion ?? 'any'}): ` +
        `${h.fields.tls_version} ${h.fields.cipher}`,
      url: `tls://${hostPort(env.host, env.port)}`,
    })
    if (m) {
      matches.push(m)
      if (t.stopAtFirstMatch) break
    }
  }
  return matches
}

async function enumerateVersions(env: TemplateSslEnv, block: SslBlock, stats: ProtoRunStats): Promise<string[]> {
  const from = ORDER.indexOf(block.minVersion ?? 'tls10')
  const to = ORDER.indexOf(block.maxVersion ?? 'tls13')
  const out: string[] = []
  for (const v of ORDER.slice(from, to + 1)) {
    stats.requests++
    if ((await handshake(env, block, v, v)).ok) out.push(v)
  }
  return out
}

async function handshake(env: TemplateSslEnv, block: SslBlock, min?: TlsVersionName, max?: TlsVersionName): Promise<Handshake> {
  const servername = env.servername ?? (ipVersion(env.host) ? undefined : env.host)
  let sock: Awaited<ReturnType<Egress['tlsConnect']>>
  await env.limiter?.take(env.host, env.signal)
  try {
    sock = await env.net.tlsConnect({
      host: env.host,
      port: env.port,
      servername,
      timeoutMs: CONNECT_TIMEOUT_MS,
      signal: env.signal,
      tls: {
        minVersion: NODE_VERSION[min ?? 'tls10'],
        maxVersion: NODE_VERSION[max ?? 'tls13'],
        // Old protocols and suites are what such templates look for: allowed on this one connection.
        ciphers: `${block.ciphers.length ? block.ciphers.join(':') : 'ALL:!aNULL:!eNULL'}:@SECLEVEL=0`,
      },
    })
  } catch (e) {
    if (env.signal.aborted) throw e
    const message = `${hostPort(env.host, env.port)}: ${(e as Error).message}`
    return { ok: false, answered: !NO_ANSWER.test(`${(e as { code?: string }).code ?? ''} ${(e as Error).message}`), message }
  }
  try {
    const cert = sock.getPeerX509Certificate()
    const fields: Record<string, Value> = {
      host: env.host,
      ip: env.host,
      port: String(env.port),
      probe_status: true,
      tls_version: FROM_NODE[sock.getProtocol() ?? ''] ?? String(sock.getProtocol()),
      cipher: sock.getCipher().standardName ?? sock.getCipher().name,
      sni: servername ?? '',
      untrusted: !sock.authorized,
      ...(cert ? certFields(cert, servername ?? env.host) : {}),
    }
    return { ok: true, fields }
  } finally {
    sock.destroy()
  }
}

/** "CN=a\nO=b" → { CN: 'a', O: 'b' } */
const dn = (s: string) => Object.fromEntries(s.split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))

function certFields(c: X509Certificate, name: string): Record<string, Value> {
  const subject = dn(c.subject)
  const issuer = dn(c.issuer)
  const sans = (c.subjectAltName ?? '')
    .split(/,\s*/)
    .map((s) => s.replace(/^(DNS|IP Address):/, ''))
    .filter(Boolean)
  const now = Date.now()
  const matchesName = ipVersion(name) ? Boolean(c.checkIP(name)) : Boolean(c.checkHost(name))
  return {
    not_before: new Date(c.validFrom).toISOString(),
    not_after: new Date(c.validTo).toISOString(),
    subject_dn: c.subject.split('\n').join(', '),
    subject_cn: subject.CN ?? '',
    subject_org: subject.O ?? '',
    subject_an: sans,
    issuer_dn: c.issuer.split('\n').join(', '),
    issuer_cn: issuer.CN ?? '',
    issuer_org: issuer.O ?? '',
    serial: c.serialNumber,
    fingerprint_hash: [
      `md5:${createHash('md5').update(c.raw).digest('hex')}`,
      `sha1:${createHash('sha1').update(c.raw).digest('hex')}`,
      `sha256:${createHash('sha256').update(c.raw).digest('hex')}`,
    ],
    expired: Date.parse(c.validTo) < now,
    self_signed: isSelfSigned(c),
    mismatched: !matchesName,
    // Revocation needs the CA's OCSP responder or CRL, hosts other than the target: not asked.
    revoked: false,
    wildcard_certificate: [subject.CN ?? '', ...sans].some((n) => n.startsWith('*.')),
  }
}

/** The response as nuclei's JSON: fingerprint_hash is an object there. */
function asJson(fields: Record<string, Value>): Record<string, unknown> {
  const fp = fields.fingerprint_hash
  if (!Array.isArray(fp)) return fields
  return { ...fields, fingerprint_hash: Object.fromEntries(fp.map((x) => String(x).split(':') as [string, string])) }
}
