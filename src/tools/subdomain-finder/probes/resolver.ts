// The link to the scan's one resolver: UDP when the egress carries it and the server answers over
// UDP, else TCP. No system resolver.
import type { Egress } from '../../../toolkit/egress.js'
import { createDnsClient, type DnsQueryError, type DnsClient, type DnsServer } from '../../lib/dns/client.js'
import { TYPE, type DnsMessage } from '../../lib/dns/message.js'

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
export async function linkResolver(
  net: Egress,
  server: DnsServer,
  domain: string,
  signal: AbortSignal,
): Promise<ResolverLink | { error: string }> {
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
