// Pure decisions about names: which exist, which only repeat the wildcard, which belong to the
// domain, and where a record points.
import type { AddressLookup } from '../../lib/dns/lookup.js'
import { TYPE, type DnsRecord } from '../../lib/dns/message.js'

export interface Wildcard {
  addresses: Set<string>
  /** Final CNAME targets the random names resolved through. */
  targets: Set<string>
  samples: AddressLookup[]
}

/** Whether a lookup only repeats the wildcard's answer. */
export function matchesWildcard(l: AddressLookup, w: Wildcard | null): boolean {
  if (!w) return false
  if (l.cnames.length) return w.targets.has(l.cnames.at(-1)!)
  return l.addresses.length > 0 && l.addresses.every((a) => w.addresses.has(a))
}

/** A name exists when it has addresses or is a CNAME (even one whose target is gone). */
export const exists = (l: AddressLookup) => l.addresses.length > 0 || l.cnames.length > 0

/** The host name a record points to (CNAME, NS, MX exchange, SRV target), if any. */
export function targetOf(rec: DnsRecord): string | null {
  if (rec.type === TYPE.CNAME || rec.type === TYPE.NS) return rec.data
  if (rec.type === TYPE.MX) return rec.data.replace(/^\d+\s+/, '')
  if (rec.type === TYPE.SRV) return rec.data.split(' ')[3] ?? null
  return null
}

/** A name under the domain that a host can have (no _service labels, no wildcard). */
export const isSubdomain = (name: string, domain: string) =>
  name.endsWith(`.${domain}`) && !name.split('.').some((l) => l.startsWith('_') || l === '*')
