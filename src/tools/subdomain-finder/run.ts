// Tool 20, Subdomain Finder: DNS records of the domain, SPF/DMARC policy, wildcard detection,
// zone transfer attempts, wordlist brute force, and dangling CNAMEs — all through one resolver.
// The sequence only: queries are in probes/, decisions in detect/, findings built in output.ts.
import { setMaxListeners } from 'node:events'
import { defineTool, type ScanContext } from '../../toolkit/tool.js'
import { TargetUnreachableError, ToolStartError } from '../../toolkit/errors.js'
import { ipVersion, targetHost } from '../../toolkit/ip.js'
import { textEvidence } from '../../toolkit/evidence.js'
import { mapLimit } from '../../toolkit/limit.js'
import { DnsQueryError, type DnsClient } from '../lib/dns/client.js'
import type { AddressLookup } from '../lib/dns/lookup.js'
import { chooseResolver } from '../lib/dns/resolver.js'
import { normalizeName, RCODE, rcodeName, TYPE, typeName, type DnsMessage, type DnsRecord } from '../lib/dns/message.js'
import { subdomainFinderManifest } from './manifest.js'
import { dnsWildcard } from './checks.js'
import type { SubdomainFinderParams } from './params.js'
import { wordsFor } from './data/wordlists.js'
import { linkResolver } from './probes/resolver.js'
import { detectWildcard } from './probes/wildcard.js'
import { lookupTarget, resolveName } from './probes/names.js'
import { dedupRecords, findDmarc, recordsOf } from './probes/records.js'
import { nameServerAddresses, zoneTransfers } from './probes/zone-transfer.js'
import { exists, isSubdomain, matchesWildcard, targetOf, type Wildcard } from './detect/names.js'
import { analyzeDmarc, analyzeSpf } from './detect/email-policy.js'
import { takeoverService } from './detect/takeover.js'
import { runDnsTemplatePhase } from './probes/templates.js'
import {
  danglingFinding,
  describeFound,
  policyTest,
  recordRow,
  subdomainFinding,
  subdomainRow,
  zoneTransferFinding,
  type Found,
  type Source,
} from './output.js'

type Params = SubdomainFinderParams

const TYPES_OF_DOMAIN = [TYPE.A, TYPE.AAAA, TYPE.CNAME, TYPE.MX, TYPE.NS, TYPE.TXT, TYPE.CAA] as const
const EXTRA_TYPES_OF_NAMES = [TYPE.AAAA, TYPE.MX, TYPE.TXT, TYPE.NS] as const

/** What the steps of one scan share: the domain, the resolver link, and what has been found so far. */
interface Run {
  ctx: ScanContext<Params>
  domain: string
  client: DnsClient
  signal: AbortSignal
  /** The SOA answer that proved the domain resolves (the zone apex test reads it). */
  soa: DnsMessage
  found: Map<string, Found>
  allRecords: DnsRecord[]
  /** Progress units done, of 6 fixed steps plus one per candidate name. */
  done: number
  total: number
}

export const subdomainFinder = defineTool(subdomainFinderManifest, async (ctx) => {
  const link = await connectResolver(ctx)
  if (!link) return
  const words = ctx.params.wordlist ?? wordsFor(ctx.params.scan_type)
  const r: Run = { ctx, ...link, signal: ctx.signal, found: new Map(), allRecords: [], done: 0, total: 6 + words.length }
  const own = await domainRecordsStep(r)
  await emailPolicyStep(r, own)
  const wildcard = await wildcardStep(r)
  for (const rec of own) {
    const target = targetOf(rec)
    if (target) addCandidate(r, target, 'domain records')
  }
  await zoneTransferStep(r, own)
  const sorted = await enumerationStep(r, words, wildcard)
  ctx.output('subdomains', sorted.map(subdomainRow))
  ctx.output('records', dedupRecords(r.allRecords).map(recordRow))
  await danglingCnameStep(r, sorted)
  if (!ctx.signal.aborted)
    await runDnsTemplatePhase(
      ctx,
      r.client,
      r.domain,
      sorted.map((f) => f.hostname),
    )
  ctx.progress(r.total, r.total)
})

const step = (r: Run, n = 1) => r.ctx.progress((r.done += n), r.total)

/** The target as a domain, and a working link to the resolver that knows it; null when stopped. */
async function connectResolver(ctx: ScanContext<Params>): Promise<{ domain: string; client: DnsClient; soa: DnsMessage } | null> {
  const domain = normalizeName(targetHost(ctx.target.name))
  if (ipVersion(domain) || !domain.includes('.'))
    throw new ToolStartError(`the Subdomain Finder needs a domain name, not ${JSON.stringify(ctx.target.name)}`)
  let resolver: Awaited<ReturnType<typeof chooseResolver>>
  try {
    resolver = await chooseResolver(ctx.params.resolver, { WARD_DNS_RESOLVER: ctx.settings.dnsResolver })
  } catch (e) {
    throw new ToolStartError((e as Error).message)
  }
  const { signal } = ctx
  setMaxListeners(256, signal) // one abort listener per in-flight query/socket
  const link = await linkResolver(ctx.net, resolver.server, domain, signal).catch((e) => ({ error: (e as Error).message }))
  if ('error' in link) {
    if (signal.aborted) return null
    throw new TargetUnreachableError(`the DNS resolver ${fmtServer(resolver.server)} does not answer: ${link.error}`)
  }
  const { client } = link
  ctx.log(
    `resolver ${fmtServer(resolver.server)} (${resolver.source}) over ${client.transport.toUpperCase()}${link.note ? ` — ${link.note}` : ''}`,
  )
  const rcode = link.soa.flags.rcode
  if (rcode === RCODE.NXDOMAIN) throw new TargetUnreachableError(`${domain} does not exist in DNS (NXDOMAIN)`)
  if (rcode === RCODE.REFUSED || rcode === RCODE.SERVFAIL) {
    throw new TargetUnreachableError(
      `the DNS resolver ${fmtServer(resolver.server)} answers ${rcodeName(rcode)} for ${domain}: it does not resolve it for Ward`,
    )
  }

  return { domain, client, soa: link.soa }
}

/** 1. Records of the domain. */
async function domainRecordsStep(r: Run): Promise<DnsRecord[]> {
  const { ctx, domain, client, signal } = r
  // 1. Records of the domain.
  const recordsTest = await ctx.test('DNS records of the domain', `Queried A, AAAA, CNAME, MX, NS, TXT, CAA and SOA of ${domain}.`)
  const own = await recordsOf(client, domain, TYPES_OF_DOMAIN, signal)
  r.allRecords.push(...r.soa.answers.filter((r) => r.type === TYPE.SOA), ...own)
  for (const r of own) ctx.log(`${r.name} ${typeName(r.type)} ${r.data}`)
  await recordsTest.done()
  step(r)

  return own
}

/** 2-3. Email anti-spoofing policy: for zone apexes and names that receive mail (others send none of their own). */
async function emailPolicyStep(r: Run, own: DnsRecord[]): Promise<void> {
  const { ctx, domain, client, signal } = r
  const apex = r.soa.answers.some((r) => r.type === TYPE.SOA && r.name === domain)
  const hasMx = own.some((r) => r.type === TYPE.MX && r.name === domain)
  if (!apex && !hasMx) {
    for (const name of ['SPF record', 'DMARC record'])
      await (await ctx.test(name, `Email policy of ${domain}.`)).skip(`${domain} is not a zone apex and has no MX record`)
  } else {
    await policyTest(
      ctx,
      'spf',
      'SPF record',
      `Looked for a v=spf1 TXT record on ${domain} and its "all" qualifier.`,
      domain,
      analyzeSpf(own.filter((r) => r.type === TYPE.TXT && r.name === domain).map((r) => r.data)),
    )
    const dmarc = await findDmarc(client, domain, signal)
    r.allRecords.push(...dmarc.records)
    const inherited = dmarc.at && dmarc.at !== `_dmarc.${domain}` ? ` (inherited from ${dmarc.at})` : ''
    await policyTest(
      ctx,
      'dmarc',
      'DMARC record',
      `Looked for a v=DMARC1 TXT record at _dmarc.${domain} (then at its parent domains, as receivers do) and its policy.`,
      domain,
      analyzeDmarc(dmarc.records.map((r) => r.data)),
      inherited,
    )
  }
  step(r, 2)
}

/** 4. Wildcard: random names that resolve mean brute-force answers must be compared with theirs. */
async function wildcardStep(r: Run): Promise<Wildcard | null> {
  const { ctx, domain, client, signal } = r
  // 4. Wildcard.
  const wildTest = await ctx.test('Wildcard DNS', `Resolved random names under ${domain} to detect a wildcard record.`)
  let wildcard: Wildcard | null = null
  try {
    wildcard = await detectWildcard(client, domain, signal)
    if (wildcard) {
      const answer = [...wildcard.targets, ...wildcard.addresses].join(', ')
      ctx.log(`wildcard: random names resolve to ${answer}; matching results are discarded`)
      await wildTest.finding({
        check: dnsWildcard,
        location: `*.${domain}`,
        detail: `Random names such as ${wildcard.samples[0]!.name} resolve to ${answer}.`,
        evidence: textEvidence(`*.${domain} → ${answer}`),
        confirmed: true,
      })
    }
    await wildTest.done()
  } catch (e) {
    await wildTest.error(dnsFailure(e))
  }
  step(r)

  return wildcard
}

/** A name the scan learned of (records, zone transfer, brute force), kept when it is under the domain. */
function addCandidate(r: Run, name: string, source: Source, lookup?: AddressLookup): void {
  const n = normalizeName(name)
  if (!isSubdomain(n, r.domain)) return
  const f = r.found.get(n)
  if (f) {
    f.sources.add(source)
    if (lookup && f.lookup.rcode === -1) f.lookup = lookup
  } else r.found.set(n, { hostname: n, sources: new Set([source]), lookup: lookup ?? emptyLookup(n), records: [] })
}

/**
 * 5. Zone transfer from every name server address. Several NS names often share an address (one
 * server, several names): each address is asked once and gives at most one finding.
 */
async function zoneTransferStep(run: Run, own: DnsRecord[]): Promise<void> {
  const { ctx, domain, client, signal } = run
  const axfrTest = await ctx.test('Zone transfer (AXFR)', `Asked every name server of ${domain} for a full zone transfer over TCP.`)
  const nameServers = [...new Set(own.filter((r) => r.type === TYPE.NS && r.name === domain).map((r) => normalizeName(r.data)))]
  if (nameServers.length === 0) {
    await axfrTest.skip(`${domain} has no NS records of its own (not a zone apex)`)
  } else {
    const byAddress = await nameServerAddresses(client, nameServers, signal, (l) => ctx.log(l))
    let transferred = false
    for await (const { ip, names, result: r } of zoneTransfers(ctx.net, byAddress, domain, signal)) {
      const who = `${names.join(', ')} (${ip})`
      if (!r.ok) {
        ctx.log(`AXFR ${who}: refused — ${r.reason}`)
        continue
      }
      ctx.log(`AXFR ${who}: ALLOWED, ${r.records.length} records${r.truncated ? ' (incomplete)' : ''}`)
      if (!transferred) {
        // The zone is the same from every server: its names are learned once.
        transferred = true
        run.allRecords.push(...r.records)
        for (const rec of r.records) {
          addCandidate(run, rec.name, 'zone transfer')
          const target = targetOf(rec)
          if (target) addCandidate(run, target, 'zone transfer')
        }
      }
      await axfrTest.finding(zoneTransferFinding(ip, who, domain, r.records))
    }
    await (signal.aborted ? axfrTest.error('stopped before every name server was tried') : axfrTest.done())
  }
  step(run)
}

/** 6. Brute force, then resolve what the records and the zone transfer named; the names found, sorted. */
async function enumerationStep(r: Run, words: readonly string[], wildcard: Wildcard | null): Promise<Found[]> {
  const { ctx, domain, client, signal, found } = r
  const enumTest = await ctx.test(
    'Subdomain enumeration',
    `Resolved ${words.length} candidate names (${ctx.params.wordlist ? 'custom wordlist' : `${ctx.params.scan_type} wordlist`}) ` +
      `under ${domain}, plus names from the zone transfer and the domain's records${wildcard ? ', discarding answers equal to the wildcard' : ''}.`,
  )
  const concurrency = client.transport === 'udp' ? 24 : 8
  let failures = 0
  let wildcardHits = 0
  const candidates = [...new Set(words.map((w) => `${w.toLowerCase()}.${domain}`))]
  await mapLimit(candidates, concurrency, signal, async (name) => {
    const l = await resolveName(client, name, signal)
    step(r)
    if (!l) return void (signal.aborted || failures++)
    if (!exists(l)) return
    if (matchesWildcard(l, wildcard)) return void wildcardHits++
    addCandidate(r, name, 'bruteforce', l)
  })
  const unresolved = [...found.values()].filter((f) => f.lookup.rcode === -1)
  await mapLimit(unresolved, concurrency, signal, async (f) => {
    const l = await resolveName(client, f.hostname, signal)
    if (l) f.lookup = l
    else if (!signal.aborted) failures++
  })
  // Records of the names found (A/AAAA/CNAME came with the lookup).
  await mapLimit([...found.values()], concurrency, signal, async (f) => {
    f.records = [...f.lookup.records, ...(await recordsOf(client, f.hostname, EXTRA_TYPES_OF_NAMES, signal))]
  })
  for (const f of found.values()) r.allRecords.push(...f.records)
  if (failures) ctx.log(`${failures} lookups got no usable answer (timeout or server failure)`)
  if (wildcardHits) ctx.log(`${wildcardHits} names matched the wildcard answer and were discarded`)

  const sorted = [...found.values()].sort((a, b) => a.hostname.localeCompare(b.hostname))
  for (const f of sorted) {
    const { how, answer } = describeFound(f)
    ctx.log(`found ${f.hostname} (${how}): ${answer}`)
    await enumTest.finding(subdomainFinding(f))
  }
  if (signal.aborted) await enumTest.error(`stopped after ${r.done - 6} of ${words.length} names`)
  else if (failures > candidates.length / 2)
    await enumTest.error(`${failures} of ${candidates.length} lookups failed: the resolver is unreliable`)
  else await enumTest.done()

  return sorted
}

/** 7. Dangling CNAMEs: a chain that ends in a name that does not exist. */
async function danglingCnameStep(r: Run, sorted: Found[]): Promise<void> {
  const { ctx, domain, client, signal } = r
  const danglingTest = await ctx.test(
    'Dangling CNAME records',
    `Resolved the final target of every CNAME found under ${domain}; NXDOMAIN means the target can be claimed.`,
  )
  const cnamed = sorted.filter((f) => f.lookup.cnames.length && !f.lookup.addresses.length)
  for (const f of cnamed) {
    if (signal.aborted) break
    const target = f.lookup.cnames.at(-1)!
    if (f.lookup.loop) {
      ctx.log(`${f.hostname} → ${f.lookup.cnames.join(' → ')}: the chain loops or is too long, no final target`)
      continue
    }
    const t = await lookupTarget(client, target, signal)
    if (!t || t.rcode !== RCODE.NXDOMAIN) {
      ctx.log(`${f.hostname} → ${target}: ${t ? `${rcodeName(t.rcode)}, not claimable` : 'no answer'}`)
      continue
    }
    await danglingTest.finding(danglingFinding(f, target, takeoverService(target)))
  }
  await (signal.aborted ? danglingTest.error('stopped before every CNAME was checked') : danglingTest.done())
}

const emptyLookup = (name: string): AddressLookup => ({ name, rcode: -1, cnames: [], addresses: [], records: [] })

const fmtServer = (s: { host: string; port: number }) => (s.host.includes(':') ? `[${s.host}]:${s.port}` : `${s.host}:${s.port}`)

const dnsFailure = (e: unknown) => (e instanceof DnsQueryError ? `DNS query failed: ${e.message}` : String(e))
