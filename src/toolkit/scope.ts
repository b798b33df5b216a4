// The scope guard: which addresses Ward may connect to, for each kind of traffic (scan targets,
// report callbacks, VPN proxy hosts). One normaliser turns every spelling of an address into one
// value (IPv4 in any form inet_aton accepts: 0x7f.1, 2130706433, 0177.0.0.1, 127.1; IPv6 with or
// without brackets and zone; IPv4 inside IPv6: mapped, compatible, SIIT, NAT64, 6to4), and an
// address is checked in every form it reaches: 0.0.0.0/8 and :: reach this host, so they are also
// checked as loopback, and `localhost` names are loopback whatever DNS says. Names are checked
// against name rules, then resolved, and every address of the answer is checked; the egress then
// connects to exactly those checked addresses (no second resolution, no DNS rebinding window).
import { lookup as systemLookup, type LookupAddress } from 'node:dns'
import { ConfigError, type Config } from '../config/config.js'
import { stripBrackets } from './ip.js'

export interface Address {
  version: 4 | 6
  value: bigint
}

type CidrRule = { kind: 'cidr'; version: 4 | 6; net: bigint; bits: number; text: string }
type DomainRule = { kind: 'domain'; suffix: string; text: string }
export type ScopeRule = CidrRule | DomainRule

/** What one kind of traffic may reach: blocked when a block rule matches and no allow rule does. */
export interface Scope {
  /** Names the setting in messages, e.g. WARD_CALLBACK_BLOCKLIST. */
  readonly setting: string
  readonly block: readonly ScopeRule[]
  readonly allow: readonly ScopeRule[]
}

/** Link-local and cloud metadata endpoints: blocked for targets, callbacks and VPN hosts unless allowed. */
export const METADATA_ENTRIES = [
  '169.254.0.0/16', // link-local: AWS, GCP, Azure, Oracle, DigitalOcean metadata at 169.254.169.254
  'fe80::/10',
  'fd00:ec2::254', // AWS IMDS over IPv6
  '100.100.100.200', // Alibaba Cloud metadata
  'metadata.google.internal',
  'metadata.goog',
  'metadata', // the short name GCE's resolver answers
  'instance-data', // AWS's legacy name (instance-data.ec2.internal)
  'instance-data.ec2.internal',
] as const

/** The error code of a blocked connection attempt (tools and callers read it as "not attempted"). */
export const BLOCKED_CODE = 'EBLOCKED'

/** One message for every blocked attempt: the same whatever the port, since nothing was sent. */
export class ScopeError extends Error {
  override name = 'ScopeError'
  readonly code = BLOCKED_CODE
  constructor(host: string, setting: string) {
    super(`connection to ${host.slice(0, 255)} blocked: outside the allowed scope (${setting}); nothing was sent`)
  }
}

const V4_PART = /^(?:0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*)$/i

/** IPv4 in any spelling inet_aton (and the WHATWG URL parser) accepts, as a 32-bit value; else null. */
export function parseIPv4(s: string): bigint | null {
  const parts = (s.endsWith('.') ? s.slice(0, -1) : s).split('.')
  if (parts.length > 4 || !parts.every((p) => V4_PART.test(p))) return null
  const nums = parts.map((p) =>
    /^0x/i.test(p) ? BigInt(p.length === 2 ? 0 : p) : p.length > 1 && p[0] === '0' ? BigInt(`0o${p.slice(1)}`) : BigInt(p),
  )
  const last = nums.pop()!
  if (nums.some((n) => n > 255n) || last >= 1n << (8n * BigInt(4 - nums.length))) return null
  return nums.reduce((a, n, i) => a | (n << (8n * BigInt(3 - i))), 0n) | last
}

/** IPv6 (brackets and a zone id allowed, embedded dotted IPv4 too) as a 128-bit value; else null. */
export function parseIPv6(s: string): bigint | null {
  const bare = stripBrackets(s).split('%')[0]!
  if (!bare.includes(':')) return null
  let host: string
  try {
    host = new URL(`http://[${bare}]/`).hostname.slice(1, -1) // canonical: hex groups and at most one ::
  } catch {
    return null
  }
  const [head, tail] = host.split('::') as [string, string | undefined]
  const h = head ? head.split(':') : []
  const t = tail ? tail.split(':') : []
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t]
  return groups.reduce((a, g) => (a << 16n) | BigInt(`0x${g}`), 0n)
}

/** An IP literal in any spelling, or null for a name. */
export function parseAddress(s: string): Address | null {
  const bare = stripBrackets(s.trim())
  if (bare.includes(':')) {
    const v = parseIPv6(bare)
    return v === null ? null : { version: 6, value: v }
  }
  const v = parseIPv4(bare)
  return v === null ? null : { version: 4, value: v }
}

/** The canonical text of an address: dotted quad, or compressed lower-case IPv6. */
export function formatAddress(a: Address): string {
  if (a.version === 4) return [24n, 16n, 8n, 0n].map((s) => String((a.value >> s) & 255n)).join('.')
  const groups = Array.from({ length: 8 }, (_, i) => ((a.value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16))
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1)
}

const v4 = (value: bigint): Address => ({ version: 4, value })
const LOOPBACK4 = v4(0x7f000001n)
const LOOPBACK6: Address = { version: 6, value: 1n }

/** Every address `a` reaches: itself, the IPv4 address carried inside an IPv6 one, and loopback for "this host". */
export function addressViews(a: Address): Address[] {
  const views = [a]
  if (a.version === 6) {
    const high = a.value >> 32n
    const low = a.value & 0xffffffffn
    // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (SIIT), 64:ff9b::a.b.c.d (NAT64), ::a.b.c.d (compatible)
    if (high === 0xffffn || high === 0xffff0000n || high === 0x64ff9b0000000000000000n || (high === 0n && low > 1n)) views.push(v4(low))
    if (a.value >> 112n === 0x2002n) views.push(v4((a.value >> 80n) & 0xffffffffn)) // 6to4
    if (a.value === 0n) views.push(LOOPBACK6)
  }
  for (const v of [...views]) if (v.version === 4 && v.value >> 24n === 0n) views.push(LOOPBACK4) // 0.0.0.0/8: this host
  return views
}

const normaliseName = (name: string) => stripBrackets(name.trim()).toLowerCase().replace(/\.+$/, '')
const isLocalhostName = (name: string) => name === 'localhost' || name.endsWith('.localhost')

/** Parses a comma-separated list of CIDRs, IP addresses, domain suffixes and the word `metadata`. */
export function parseScopeList(text: string): ScopeRule[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((entry) =>
      entry.toLowerCase() === 'metadata' ? METADATA_ENTRIES.map((e) => parseEntry(e, `${e} (metadata)`)) : [parseEntry(entry, entry)],
    )
}

function parseEntry(entry: string, text: string): ScopeRule {
  const slash = entry.lastIndexOf('/')
  const addrText = slash < 0 ? entry : entry.slice(0, slash)
  const bitsText = slash < 0 ? undefined : entry.slice(slash + 1)
  const ip = parseAddress(addrText)
  if (ip) {
    const max = ip.version === 4 ? 32 : 128
    if (bitsText !== undefined && !/^\d{1,3}$/.test(bitsText)) throw new Error(`"${entry}" has an invalid prefix length`)
    const bits = bitsText === undefined ? max : Number(bitsText)
    if (bits > max) throw new Error(`"${entry}" has an invalid prefix length`)
    const shift = BigInt(max - bits)
    return { kind: 'cidr', version: ip.version, net: (ip.value >> shift) << shift, bits, text }
  }
  const suffix = entry
    .toLowerCase()
    .replace(/^\*?\./, '')
    .replace(/\.$/, '')
  if (!/^[a-z0-9_.-]+$/.test(suffix) || bitsText !== undefined) throw new Error(`"${entry}" is neither a CIDR nor a domain suffix`)
  return { kind: 'domain', suffix, text }
}

export function parseScope(setting: string, block: string, allow = ''): Scope {
  return { setting, block: parseScopeList(block), allow: parseScopeList(allow) }
}

const cidrMatch = (rules: readonly ScopeRule[], a: Address) =>
  rules.find(
    (r) =>
      r.kind === 'cidr' &&
      r.version === a.version &&
      (a.value >> BigInt((a.version === 4 ? 32 : 128) - r.bits)) << BigInt((a.version === 4 ? 32 : 128) - r.bits) === r.net,
  ) ?? null
const domainMatch = (rules: readonly ScopeRule[], name: string) =>
  rules.find((r) => r.kind === 'domain' && (name === r.suffix || name.endsWith(`.${r.suffix}`))) ?? null

/** The rule that blocks address `a` (in any of its views), or null. */
export function addressBlockedBy(scope: Scope, a: Address): ScopeRule | null {
  const views = addressViews(a)
  if (views.some((v) => cidrMatch(scope.allow, v))) return null
  for (const v of views) {
    const rule = cidrMatch(scope.block, v)
    if (rule) return rule
  }
  return null
}

/**
 * The rule that blocks `host` as written (an IP literal in any spelling, or a name), or null. Names
 * are only checked against name rules and localhost here: their addresses are checked when they
 * are resolved, at connection time (`resolveInScope`).
 */
export function hostBlockedBy(scope: Scope, host: string): ScopeRule | null {
  const addr = parseAddress(host)
  if (addr) return addressBlockedBy(scope, addr)
  const name = normaliseName(host)
  if (!domainMatch(scope.allow, name)) {
    const rule = domainMatch(scope.block, name)
    if (rule) return rule
  }
  if (isLocalhostName(name)) return addressBlockedBy(scope, LOOPBACK4) ?? addressBlockedBy(scope, LOOPBACK6)
  return null
}

/** Throws the ScopeError when `host` as written is blocked. */
export function assertHostInScope(scope: Scope, host: string): void {
  if (hostBlockedBy(scope, host)) throw new ScopeError(host, scope.setting)
}

export type ResolvedAddress = { address: string; family: 4 | 6 }
export type Resolve = (name: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>

const systemResolve: Resolve = (name, family) =>
  new Promise((resolve, reject) =>
    systemLookup(name, { all: true, family, verbatim: true }, (err, list) => (err ? reject(err) : resolve(list))),
  )

/**
 * The addresses to connect to for `host`: a literal is checked and returned in canonical form; a
 * name is checked, resolved once, and every address of the answer checked (one blocked address
 * blocks the name: an answer that mixes in a blocked address is how rebinding attacks start).
 */
export async function resolveInScope(
  scope: Scope,
  host: string,
  family: 0 | 4 | 6 = 0,
  resolve: Resolve = systemResolve,
): Promise<ResolvedAddress[]> {
  const addr = parseAddress(host)
  if (addr) {
    if (addressBlockedBy(scope, addr)) throw new ScopeError(host, scope.setting)
    return [{ address: formatAddress(addr), family: addr.version }]
  }
  assertHostInScope(scope, host)
  const answers = await resolve(normaliseName(host), family)
  const parsed = answers.map((a) => parseAddress(a.address))
  if (parsed.some((a) => a === null || addressBlockedBy(scope, a))) throw new ScopeError(host, scope.setting)
  return parsed.map((a) => ({ address: formatAddress(a!), family: a!.version }))
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `lookup` for net.connect / dgram.createSocket that answers only with checked addresses: the
 * socket then connects to the very address that was checked.
 */
export function scopedLookup(scope: Scope, resolve: Resolve = systemResolve) {
  return (hostname: string, options: number | { family?: number | string; all?: boolean } | undefined, cb: LookupCallback): void => {
    const o = typeof options === 'number' ? { family: options } : (options ?? {})
    const family = o.family === 4 || o.family === 'IPv4' ? 4 : o.family === 6 || o.family === 'IPv6' ? 6 : 0
    resolveInScope(scope, hostname, family, resolve).then(
      (list) => (o.all ? cb(null, list) : cb(null, list[0]!.address, list[0]!.family)),
      (err: NodeJS.ErrnoException) => cb(err, o.all ? [] : ''),
    )
  }
}

export interface Scopes {
  target: Scope
  callback: Scope
  vpnHost: Scope
}

const fromConfig = new WeakMap<object, Scopes>()

/** The three scopes of a configuration (parsed once per config); a bad entry is a ConfigError naming the variable. */
export type ScopeSettings = Pick<
  Config,
  'targetBlocklist' | 'targetAllowlist' | 'callbackBlocklist' | 'callbackAllowlist' | 'vpnHostBlocklist' | 'vpnHostAllowlist'
>

export function scopesOf(s: ScopeSettings): Scopes {
  const cached = fromConfig.get(s)
  if (cached) return cached
  const parse = (setting: string, block: string, allowSetting: string, allow: string, defaults: string) => {
    let rules: ScopeRule[]
    try {
      rules = parseScopeList([defaults, block].filter(Boolean).join(','))
    } catch (e) {
      throw new ConfigError(`${setting}: ${(e as Error).message}`)
    }
    try {
      return { setting, block: rules, allow: parseScopeList(allow) }
    } catch (e) {
      throw new ConfigError(`${allowSetting}: ${(e as Error).message}`)
    }
  }
  const scopes: Scopes = {
    // Metadata endpoints hand out cloud credentials: no kind of traffic reaches them unless allowed.
    target: parse('WARD_TARGET_BLOCKLIST', s.targetBlocklist, 'WARD_TARGET_ALLOWLIST', s.targetAllowlist, 'metadata'),
    callback: parse('WARD_CALLBACK_BLOCKLIST', s.callbackBlocklist, 'WARD_CALLBACK_ALLOWLIST', s.callbackAllowlist, 'metadata'),
    vpnHost: parse('WARD_VPN_HOST_BLOCKLIST', s.vpnHostBlocklist, 'WARD_VPN_HOST_ALLOWLIST', s.vpnHostAllowlist, 'metadata'),
  }
  fromConfig.set(s, scopes)
  return scopes
}
