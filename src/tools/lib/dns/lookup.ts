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
  /** The CNAME chain loops back on itself or is longer than MAX_CNAME_HOPS. */
  loop?: boolean
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

/** CNAME hops followed at most (resolvers stop near here too: BIND 16, Unbound 11; chains this long are errors). */
export const MAX_CNAME_HOPS = 12

/**
 * `type` records of `name`, following the CNAME chain across queries when an answer stops at a CNAME
 * whose target it does not resolve (authoritative servers and some resolvers answer only what they
 * hold). Loops (the chain then ends with the repeated name) and chains over MAX_CNAME_HOPS end the walk.
 * rcode is that of the last query.
 */
async function follow(
  client: DnsClient,
  name: string,
  type: number,
  o: QueryOptions,
): Promise<{ rcode: number; cnames: string[]; records: DnsRecord[]; answers: DnsRecord[]; loop: boolean }> {
  const cnames: string[] = []
  const answers: DnsRecord[] = []
  const seen = new Set([normalizeName(name)])
  let owner = normalizeName(name)
  for (;;) {
    const m = await client.query(owner, type, o)
    const got = answersOf(m, owner, type)
    answers.push(...m.answers.filter((r) => r.type === TYPE.CNAME || r.type === type))
    let loop = false
    for (const c of got.cnames) {
      if (seen.has(c)) {
        cnames.push(c) // shown: the name that closes the loop
        loop = true
        break
      }
      seen.add(c)
      cnames.push(c)
    }
    const last = cnames.at(-1)
    const done = got.records.length > 0 || !got.cnames.length || m.flags.rcode !== RCODE.NOERROR
    if (loop || done || cnames.length >= MAX_CNAME_HOPS || last === undefined) {
      return { rcode: m.flags.rcode, cnames, records: got.records, answers, loop: loop || (!done && cnames.length >= MAX_CNAME_HOPS) }
    }
    owner = last
  }
}

/** A, then AAAA when `aaaa` is set; the CNAME chain comes from the A answers (followed across queries). */
export async function lookupAddresses(client: DnsClient, name: string, o: QueryOptions & { aaaa?: boolean } = {}): Promise<AddressLookup> {
  const a = await follow(client, name, TYPE.A, o)
  const records = [...a.answers]
  const addresses = a.records.map((r) => r.data)
  if (o.aaaa && a.rcode === RCODE.NOERROR && !a.loop) {
    // The chain is known: ask the final name directly.
    const q = await follow(client, a.cnames.at(-1) ?? name, TYPE.AAAA, o)
    addresses.push(...q.records.map((r) => r.data))
    records.push(...q.records)
  }
  return { name: normalizeName(name), rcode: a.rcode, cnames: a.cnames, addresses, records, ...(a.loop ? { loop: true } : {}) }
}
