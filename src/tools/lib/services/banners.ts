// The match engine: applies the recognition rules of match-rules.ts (data, after nmap's
// nmap-service-probes) to the bytes a service sent after one of our probes. The first rule that
// matches names service, product and version from its templates. No I/O here.
import { DECODERS, type DecoderName } from './decoders.js'
import { MATCH_RULES, type MatchRule, type ServiceFacts } from './match-rules.js'

export type { ServiceFacts } from './match-rules.js'

export interface Identified {
  service: string
  product: string | null
  version: string | null
  banner: string | null
  facts: ServiceFacts
  /** The rule's own CPE (absent: products.ts's cpeOf gives it from product and version). */
  cpe?: string
  /** Extra detail the rule read (nmap's i/…/). */
  info?: string
  /** A soft match: the service is named, a later probe may still give product and version. */
  soft?: true
}

/** Printable form of some bytes for `banner`: first line(s), control bytes as '.', at most `max` chars. */
export function printable(buf: Buffer | string, max = 200, lines = 1): string {
  const text = typeof buf === 'string' ? buf : buf.toString('latin1')
  const kept = text
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .slice(0, lines)
    .join(' | ')
  const clean = kept
    .replace(/[^\x20-\x7e]/g, '.')
    .replace(/\.{3,}/g, '...')
    .trim()
  return clean.length > max ? clean.slice(0, max - 3) + '...' : clean
}

/** "Apache/2.4.49 (Unix) OpenSSL/1.1.1" -> Apache, 2.4.49; "Microsoft-IIS/10.0" -> Microsoft-IIS, 10.0. */
export function splitProductToken(server: string): { product: string | null; version: string | null } {
  const m = /^\s*([A-Za-z][\w .+-]*?)(?:[/ ]v?(\d[\w.+~-]*))?(?:\s|$|\()/.exec(server)
  if (!m) return { product: server.trim() || null, version: null }
  return { product: m[1].trim(), version: m[2] ?? null }
}

/** A TLS record (handshake or alert) where plain text was expected: the port wants TLS. */
export const looksLikeTls = (b: Buffer) => b.length >= 3 && (b[0] === 0x15 || b[0] === 0x16) && b[1] === 3 && b[2] <= 4

const TOKEN = /\$(?:(\d)|<(\w+)>)/g

/** `template` with $0..$9 and $<name> replaced by what the match captured ('' for groups that did not take part). */
function expand(template: string, m: RegExpExecArray): { text: string; refs: number; empty: number } {
  let refs = 0
  let empty = 0
  const text = template.replace(TOKEN, (_t, n: string | undefined, name: string | undefined) => {
    const v = (n !== undefined ? m[Number(n)] : m.groups?.[name!]) ?? ''
    refs++
    if (!v.trim()) empty++
    return v
  })
  return { text, refs, empty }
}

/** A field template's value: trimmed, null when empty or absent. */
const field = (template: string | undefined, m: RegExpExecArray) =>
  template === undefined ? null : expand(template, m).text.trim() || null

/** The banner: pieces joined, dropping those whose every group stayed empty; default the subject's first line. */
function bannerOf(rule: MatchRule, m: RegExpExecArray, subject: string): string | null {
  if (!rule.banner) return printable(subject) || null
  const kept = rule.banner.map((p) => expand(p, m)).filter((e) => !e.refs || e.empty < e.refs)
  return printable(kept.map((e) => e.text).join('')) || null
}

/** Builds what `rule` says of a reply its regex matched. */
function apply(rule: MatchRule, m: RegExpExecArray, subject: string): Identified {
  const facts: ServiceFacts = { ...rule.facts }
  for (const [k, r] of Object.entries(rule.factsIf ?? {})) if (r.test(subject)) facts[k as keyof ServiceFacts] = true
  const cpe = field(rule.cpe, m)
  const info = field(rule.info, m)
  return {
    service: rule.service,
    product: field(rule.product, m),
    version: field(rule.version, m),
    banner: bannerOf(rule, m, subject),
    facts,
    ...(cpe ? { cpe: cpe.toLowerCase() } : {}),
    ...(info ? { info } : {}),
    ...(rule.soft ? { soft: true as const } : {}),
  }
}

/**
 * Applies the rules to one reply to probe `probeId`: the first hard match, else the first soft one,
 * else null. `rules` defaults to match-rules.ts (tests pass their own).
 */
export function identify(probeId: string, reply: Buffer, rules: readonly MatchRule[] = MATCH_RULES): Identified | null {
  if (!reply.length) return null
  const text = reply.toString('latin1')
  const decoded = new Map<DecoderName, string | null>()
  let soft: Identified | null = null
  for (const rule of rules) {
    if (rule.probes && !rule.probes.includes(probeId)) continue
    if (soft && (rule.soft || rule.service !== soft.service)) continue // after a softmatch, only that service's hard rules
    let subject = text
    if (rule.decoder) {
      if (!decoded.has(rule.decoder)) decoded.set(rule.decoder, safeDecode(rule.decoder, reply))
      const d = decoded.get(rule.decoder)
      if (d == null || (rule.raw && !rule.raw.test(text))) continue
      subject = d
    }
    rule.m.lastIndex = 0
    const m = rule.m.exec(subject)
    if (!m) continue
    if (!rule.soft) return apply(rule, m, subject)
    soft = apply(rule, m, subject)
  }
  return soft
}

/** Probes some hard rule of `service` reads (nmap: after a softmatch, only probes that can say more). */
export function probesFor(service: string, rules: readonly MatchRule[] = MATCH_RULES): { any: boolean; ids: Set<string> } {
  const ids = new Set<string>()
  let any = false
  for (const r of rules) {
    if (r.service !== service || r.soft) continue
    if (!r.probes) any = true
    else for (const p of r.probes) ids.add(p)
  }
  return { any, ids }
}

/** A decoder reads hostile bytes: one that trips over them (a length past the end) means "not this protocol", never a failed scan. */
function safeDecode(name: DecoderName, reply: Buffer): string | null {
  try {
    return DECODERS[name](reply)
  } catch {
    return null
  }
}

/** The protocol a greeting banner shows at a glance (SSH, HTTP, FTP), or null: the sniff every tool shares. */
export function bannerProtocol(banner: string | null): 'ssh' | 'http' | 'ftp' | null {
  if (!banner) return null
  if (banner.startsWith('SSH-')) return 'ssh'
  if (/^HTTP\/\d/.test(banner)) return 'http'
  if (/^220[ -].*ftp/i.test(banner)) return 'ftp'
  return null
}

/** bannerProtocol's answer, else `kind` when the banner matches the tool's own `pattern`, else null. */
export function bannerKind<K extends string>(banner: string | null, pattern: RegExp, kind: K): 'ssh' | 'http' | 'ftp' | K | null {
  const seen = bannerProtocol(banner)
  if (seen || !banner) return seen
  return pattern.test(banner) ? kind : null
}
