// Name resolution on top of the client: follows what a recursive resolver returns for A/AAAA.
import type { DnsClient, QueryOptions } from './client.js'
import { normalizeName, RCODE, TYPE, type DnsMessage, type DnsRecord } from './message.js'

export interface AddressLookup {
  name: string
  /** rcode of the A query (NXDOMAIN: the name does not exist). */
  rcode: number
  /** CNAME chain from `name`, in order (empty when the name has no CNAME). */
  cnames: string[]
  addresses: string[]
  /** Every record of the answers (CNAMEs, A, AAAA). */
  records: DnsRecord[]
}

/** The records of `type` owned by `name` or reached through the answer's CNAME chain. */
export function answersOf(m: DnsMessage, name: string, type: number): { cnames: string[]; records: DnsRecord[] } {
  const cnames: string[] = []
  let owner = normalizeName(name)
  const seen = new Set<string>()
  for (;;) {
    const next = type === TYPE.CNAME ? undefined : m.answers.find((r) => r.type === TYPE.CNAME && r.name === owner)
    if (!next || seen.has(next.data)) break
    seen.add(next.data)
    cnames.push(next.data)
    owner = next.data
  }
  return { cnames, records: m.answers.filter((r) => r.type === type && r.name === owner) }
}

/** A, then AAAA when `aaaa` is set; the CNAME chain comes from the A answer. */
export async function lookupAddresses(client: DnsClient, name: string, o: QueryOptions & { aaaa?: boolean } = {}): Promise<AddressLookup> {
  const a = await client.query(name, TYPE.A, o)
  const fromA = answersOf(a, name, TYPE.A)
  const records = [...a.answers.filter((r) => r.type === TYPE.CNAME || r.type === TYPE.A)]
  const addresses = fromA.records.map((r) => r.data)
  if (o.aaaa && a.flags.rcode === RCODE.NOERROR) {
    const q = await client.query(name, TYPE.AAAA, o)
    const fromAaaa = answersOf(q, name, TYPE.AAAA)
    addresses.push(...fromAaaa.records.map((r) => r.data))
    records.push(...fromAaaa.records)
  }
  return { name: normalizeName(name), rcode: a.flags.rcode, cnames: fromA.cnames, addresses, records }
}
