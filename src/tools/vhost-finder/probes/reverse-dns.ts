// Reverse DNS of the target's addresses, through the scan's resolver (WARD_DNS_RESOLVER or
// /etc/resolv.conf's first server; never the system resolver API).
import type { Egress } from '../../../toolkit/egress.js'
import { ipVersion, targetHost } from '../../../toolkit/ip.js'
import { createDnsClient } from '../../lib/dns/client.js'
import { lookupAddresses } from '../../lib/dns/lookup.js'
import { chooseResolver } from '../../lib/dns/resolver.js'
import { reverseLookup } from '../../lib/dns/reverse.js'

/** Addresses looked up at most for a hostname target. */
const MAX_ADDRESSES = 4

export interface ReverseDns {
  names: string[]
  /** Which resolver answered, or why none was asked. */
  note: string
}

export async function reverseDnsNames(
  net: Egress,
  targetName: string,
  dnsResolver: string | null,
  signal: AbortSignal,
): Promise<ReverseDns> {
  let resolver: Awaited<ReturnType<typeof chooseResolver>>
  try {
    resolver = await chooseResolver(undefined, { WARD_DNS_RESOLVER: dnsResolver })
  } catch (e) {
    return { names: [], note: (e as Error).message }
  }
  const client = createDnsClient(net, resolver.server, { timeoutMs: 2000, retries: 1 })
  const host = targetHost(targetName)
  const names = new Set<string>()
  try {
    const addresses = ipVersion(host)
      ? [host]
      : (await lookupAddresses(client, host, { signal, aaaa: true })).addresses.slice(0, MAX_ADDRESSES)
    for (const a of addresses) for (const n of await reverseLookup(client, a, { signal })) names.add(n)
  } catch (e) {
    return {
      names: [...names],
      note: `resolver ${resolver.server.host}:${resolver.server.port} (${resolver.source}): ${(e as Error).message}`,
    }
  }
  return { names: [...names], note: `resolver ${resolver.server.host}:${resolver.server.port} (${resolver.source})` }
}
