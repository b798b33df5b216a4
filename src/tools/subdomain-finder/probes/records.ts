// Records of names through the scan's resolver: several types per name, and the DMARC policy that
// applies to a domain. Failed queries add nothing.
import { DnsQueryError, type DnsClient } from '../../lib/dns/client.js'
import { TYPE, type DnsRecord } from '../../lib/dns/message.js'

export /** The answers of several queries for one name; failed queries add nothing. */
async function recordsOf(client: DnsClient, name: string, types: readonly number[], signal: AbortSignal): Promise<DnsRecord[]> {
  const out: DnsRecord[] = []
  for (const type of types) {
    if (signal.aborted) break
    try {
      const m = await client.query(name, type, { signal })
      out.push(...m.answers.filter((r) => r.type === type || r.type === TYPE.CNAME))
    } catch (e) {
      if (!(e instanceof DnsQueryError)) throw e
    }
  }
  return dedupRecords(out)
}

export function dedupRecords(records: DnsRecord[]): DnsRecord[] {
  const seen = new Set<string>()
  return records.filter((r) => {
    const k = `${r.name}|${r.type}|${r.data}`
    return seen.has(k) ? false : (seen.add(k), true)
  })
}

/**
 * The DMARC TXT records that apply to `domain`: its own, else the closest parent's (an approximation of
 * RFC 7489's organizational domain without the Public Suffix List; stops at two labels).
 */
export async function findDmarc(client: DnsClient, domain: string, signal: AbortSignal): Promise<{ at?: string; records: DnsRecord[] }> {
  const labels = domain.split('.')
  for (let i = 0; i <= labels.length - 2; i++) {
    const at = `_dmarc.${labels.slice(i).join('.')}`
    const records = (await recordsOf(client, at, [TYPE.TXT], signal)).filter((r) => r.name === at && r.type === TYPE.TXT)
    if (records.some((r) => /^v=DMARC1\s*(;|$)/i.test(r.data.trim()))) return { at, records }
  }
  return { records: [] }
}
