// Reverse DNS: the PTR names of an address, asked of the scan's resolver (never the system's).
import type { DnsClient, QueryOptions } from './client.js'
import { answersOf } from './lookup.js'
import { TYPE } from './message.js'
import { ipVersion, stripBrackets } from '../../../toolkit/ip.js'

/** 4.3.2.1.in-addr.arpa for 1.2.3.4; the nibble form under ip6.arpa for IPv6; null for anything else. */
export function reverseName(address: string): string | null {
  const a = stripBrackets(address).replace(/%.*$/, '')
  const v = ipVersion(a)
  if (v === 4) return `${a.split('.').reverse().join('.')}.in-addr.arpa`
  if (v !== 6) return null
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes its two hex groups first.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a)
  const hex = (x: string, y: string) => ((+x << 8) | +y).toString(16)
  const text = v4 ? `${a.slice(0, v4.index)}${hex(v4[1]!, v4[2]!)}:${hex(v4[3]!, v4[4]!)}` : a
  const [head = '', tail = ''] = text.includes('::') ? text.split('::') : [text, '']
  const h = head ? head.split(':') : []
  const t = tail ? tail.split(':') : []
  const all = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t]
  return `${all
    .map((g) => g.padStart(4, '0'))
    .join('')
    .split('')
    .reverse()
    .join('.')}.ip6.arpa`
}

/** PTR names of `address` (lower case, no trailing dot); empty when it has none. Query errors reject. */
export async function reverseLookup(client: DnsClient, address: string, o: QueryOptions = {}): Promise<string[]> {
  const name = reverseName(address)
  if (!name) return []
  const m = await client.query(name, TYPE.PTR, o)
  return answersOf(m, name, TYPE.PTR).records.map((r) => r.data.replace(/\.$/, '').toLowerCase())
}
