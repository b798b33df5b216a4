// Target block list (WARD_TARGET_BLOCKLIST): comma-separated CIDRs (IPv4/IPv6) and domain suffixes.
// A domain entry blocks the name itself and every name below it.
import { ipVersion, stripBrackets } from '../toolkit/ip.js'

type CidrRule = { kind: 'cidr'; version: 4 | 6; net: bigint; bits: number; text: string }
type DomainRule = { kind: 'domain'; suffix: string; text: string }
export type BlockRule = CidrRule | DomainRule

export function ipToBigInt(ip: string): { version: 4 | 6; value: bigint } | null {
  const bare = stripBrackets(ip)
  const v = ipVersion(bare)
  if (v === 4) return { version: 4, value: bare.split('.').reduce((a, o) => (a << 8n) | BigInt(Number(o)), 0n) }
  if (v === 6) {
    let s = bare.split('%')[0]
    const v4 = s.match(/(\d+\.\d+\.\d+\.\d+)$/)
    if (v4) {
      const n = ipToBigInt(v4[1])!.value
      s = s.slice(0, -v4[1].length) + ((n >> 16n) & 0xffffn).toString(16) + ':' + (n & 0xffffn).toString(16)
    }
    const [head, tail] = s.split('::')
    const h = head ? head.split(':') : []
    const t = tail !== undefined ? (tail ? tail.split(':') : []) : []
    const groups = tail !== undefined ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h
    return { version: 6, value: groups.reduce((a, g) => (a << 16n) | BigInt(parseInt(g || '0', 16)), 0n) }
  }
  return null
}

export function parseBlocklist(text: string): BlockRule[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry): BlockRule => {
      const [addr, bitsText] = entry.split('/')
      const ip = ipToBigInt(addr)
      if (ip) {
        const max = ip.version === 4 ? 32 : 128
        const bits = bitsText === undefined ? max : Number(bitsText)
        if (!Number.isInteger(bits) || bits < 0 || bits > max || (bitsText !== undefined && !/^\d+$/.test(bitsText)))
          throw new Error(`"${entry}" has an invalid prefix length`)
        const shift = BigInt(max - bits)
        return { kind: 'cidr', version: ip.version, net: (ip.value >> shift) << shift, bits, text: entry }
      }
      const suffix = entry.toLowerCase().replace(/^\*?\./, '').replace(/\.$/, '')
      if (!/^[a-z0-9.-]+$/.test(suffix) || bitsText !== undefined) throw new Error(`"${entry}" is neither a CIDR nor a domain suffix`)
      return { kind: 'domain', suffix, text: entry }
    })
}

/** The rule that blocks `host` (an IP literal or a DNS name), if any. */
export function blockedBy(rules: BlockRule[], host: string): BlockRule | null {
  const ip = ipToBigInt(host)
  const name = host.toLowerCase().replace(/\.$/, '')
  for (const r of rules) {
    if (r.kind === 'cidr') {
      if (!ip || ip.version !== r.version) continue
      const shift = BigInt((r.version === 4 ? 32 : 128) - r.bits)
      if ((ip.value >> shift) << shift === r.net) return r
    } else if (!ip && (name === r.suffix || name.endsWith('.' + r.suffix))) return r
  }
  return null
}
