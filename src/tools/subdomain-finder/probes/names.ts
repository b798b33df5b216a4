// One candidate name's lookup through the scan's resolver.
import { DnsQueryError, type DnsClient } from '../../lib/dns/client.js'
import { lookupAddresses, type AddressLookup } from '../../lib/dns/lookup.js'
import { RCODE } from '../../lib/dns/message.js'
import { exists } from '../detect/names.js'

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

/** The addresses of a CNAME chain's final target; null when the resolver gave no answer. */
export const lookupTarget = (client: DnsClient, name: string, signal: AbortSignal): Promise<AddressLookup | null> =>
  lookupAddresses(client, name, { signal }).catch(() => null)
