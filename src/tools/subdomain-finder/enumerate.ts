// DNS network phases of the subdomain finder: resolver check, wildcard detection, per-name lookups.
// Each function asks the one configured resolver through the DNS client; no system resolver.
import { randomBytes } from 'node:crypto'
import type { Egress } from '../../toolkit/egress.js'
import { createDnsClient, DnsQueryError, type DnsClient, type DnsServer } from '../lib/dns/client.js'
import { lookupAddresses, type AddressLookup } from '../lib/dns/lookup.js'
import { RCODE, TYPE, type DnsMessage } from '../lib/dns/message.js'

export interface ResolverLink {
  client: DnsClient
  /** The SOA answer for the domain (rcode tells whether it exists). */
  soa: DnsMessage
  note?: string
}

/**
 * A client that gets answers from `server`: UDP when the egress carries it and the server answers
 * over UDP, else TCP for everything. null when neither works.
 */
export async function linkResolver(net: Egress, server: DnsServer, domain: string, signal: AbortSignal): Promise<ResolverLink | { error: string }> {
  const tries: Array<'udp' | 'tcp'> = net.carriesUdp ? ['udp', 'tcp'] : ['tcp']
  const errors: string[] = []
  for (const transport of tries) {
    const client = createDnsClient(net, server, { transport, timeoutMs: 2000, retries: 1 })
    try {
      const soa = await client.query(domain, TYPE.SOA, { signal })
      return { client, soa, note: errors.length ? `UDP failed (${errors.join('; ')}), using TCP` : undefined }
    } catch (e) {
      if ((e as DnsQueryError).code === 'aborted') throw e
      errors.push(`${transport}: ${(e as Error).message}`)
    }
  }
  return { error: errors.join('; ') }
}

export interface Wildcard {
  addresses: Set<string>
  /** Final CNAME targets the random names resolved through. */
  targets: Set<string>
  samples: AddressLookup[]
}

/** Random labels that nobody registers: if they resolve, the zone has a wildcard. */
export async function detectWildcard(client: DnsClient, domain: string, signal: AbortSignal): Promise<Wildcard | null> {
  const samples: AddressLookup[] = []
  for (let i = 0; i < 3; i++) {
    const name = `ward-${randomBytes(6).toString('hex')}.${domain}`
    const l = await lookupAddresses(client, name, { signal })
    if (l.addresses.length || l.cnames.length) samples.push(l)
  }
  if (!samples.length) return null
  return {
    addresses: new Set(samples.flatMap((s) => s.addresses)),
    targets: new Set(samples.flatMap((s) => (s.cnames.length ? [s.cnames.at(-1)!] : []))),
    samples,
  }
}

/** Whether a lookup only repeats the wildcard's answer. */
export function matchesWildcard(l: AddressLookup, w: Wildcard | null): boolean {
  if (!w) return false
  if (l.cnames.length) return w.targets.has(l.cnames.at(-1)!)
  return l.addresses.length > 0 && l.addresses.every((a) => w.addresses.has(a))
}

/** A name exists when it has addresses or is a CNAME (even one whose target is gone). */
export const exists = (l: AddressLookup) => l.addresses.length > 0 || l.cnames.length > 0

/** A, AAAA when A has none; DNS errors become null (counted by the caller). */
export async function resolveName(client: DnsClient, name: string, signal: AbortSignal): Promise<AddressLookup | null> {
  try {
    const l = await lookupAddresses(client, name, { signal })
    if (l.rcode === RCODE.NOERROR && !exists(l)) {
      const six = await lookupAddresses(client, name, { signal, aaaa: true })
      return six
    }
    return l
  } catch (e) {
    if ((e as DnsQueryError).code === 'aborted') return null
    if (e instanceof DnsQueryError) return null
    throw e
  }
}

