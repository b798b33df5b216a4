// Wildcard detection: random labels that nobody registers; if they resolve, the zone has a wildcard.
import { randomBytes } from 'node:crypto'
import type { DnsClient } from '../../lib/dns/client.js'
import { lookupAddresses, type AddressLookup } from '../../lib/dns/lookup.js'
import type { Wildcard } from '../detect/names.js'

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
