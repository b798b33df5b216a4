// Zone transfer attempts: the name servers' addresses (each name counts its first two, an address
// shared by several names is asked once), then an AXFR over TCP to each, at most AXFR_MAX_ADDRESSES.
import { DNS_TCP_TIMEOUT_MS } from '../../../toolkit/timeouts.js'
import type { Egress } from '../../../toolkit/egress.js'
import { axfr, type AxfrResult, type DnsClient } from '../../lib/dns/client.js'
import { lookupAddresses } from '../../lib/dns/lookup.js'

/** Addresses of one zone's name servers tried for AXFR at most. */
const AXFR_MAX_ADDRESSES = 16

export interface TransferAttempt {
  ip: string
  /** The name servers at this address. */
  names: string[]
  result: AxfrResult
}

/** Name server address → the NS names it serves; names that do not resolve are logged. */
export async function nameServerAddresses(
  client: DnsClient,
  nameServers: readonly string[],
  signal: AbortSignal,
  log: (l: string) => void,
): Promise<Map<string, string[]>> {
  const byAddress = new Map<string, string[]>()
  for (const ns of nameServers) {
    if (signal.aborted) break
    const addrs = await lookupAddresses(client, ns, { signal, aaaa: true }).then(
      (l) => l.addresses,
      () => [] as string[],
    )
    if (!addrs.length) log(`AXFR ${ns}: the name server's address does not resolve`)
    for (const ip of addrs.slice(0, 2)) byAddress.set(ip, [...(byAddress.get(ip) ?? []), ns])
  }
  return byAddress
}

/** One AXFR per address, yielded as each ends (a refusal or a failure is a result, not an error). */
export async function* zoneTransfers(
  net: Egress,
  byAddress: ReadonlyMap<string, string[]>,
  zone: string,
  signal: AbortSignal,
): AsyncGenerator<TransferAttempt> {
  for (const [ip, names] of [...byAddress].slice(0, AXFR_MAX_ADDRESSES)) {
    if (signal.aborted) return
    const result = await axfr(net, { host: ip, port: 53 }, zone, { signal, timeoutMs: DNS_TCP_TIMEOUT_MS }).catch(
      (e): AxfrResult => ({ ok: false, reason: (e as Error).message }),
    )
    yield { ip, names, result }
  }
}
