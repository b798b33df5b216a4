// What the Subdomain Finder writes: output_data rows, and the findings of its tests.
import type { FindingInput, ScanContext } from '../../toolkit/tool.js'
import { tableEvidence, textEvidence } from '../../toolkit/evidence.js'
import type { AddressLookup } from '../lib/dns/lookup.js'
import { typeName, type DnsRecord } from '../lib/dns/message.js'
import { dnsAxfrAllowed, dnsDanglingCname, dnsDmarcMissing, dnsDmarcWeak, dnsSpfMissing, dnsSpfWeak, dnsSubdomainFound } from './checks.js'
import type { PolicyVerdict } from './detect/email-policy.js'

export type Source = 'bruteforce' | 'zone transfer' | 'domain records'

export interface Found {
  hostname: string
  sources: Set<Source>
  lookup: AddressLookup
  records: DnsRecord[]
}

const AXFR_SHOWN = 300
const recordRows = (records: readonly DnsRecord[]) => records.map((x) => [x.name, typeName(x.type), x.ttl, x.data])

export const subdomainRow = (f: Found) => ({
  hostname: f.hostname,
  ip_address: f.lookup.addresses[0] ?? null,
  resolved: f.lookup.addresses.length > 0,
})
export const recordRow = (x: DnsRecord) => ({ name: x.name, type: typeName(x.type), ttl: x.ttl, data: x.data })

/** How a name was found and what it resolves to, for the log and the finding. */
export function describeFound(f: Found): { how: string; answer: string } {
  const how = [...f.sources].join(', ')
  const end = f.lookup.loop
    ? ' (the CNAME chain loops or is too long)'
    : f.lookup.addresses.length
      ? ` → ${f.lookup.addresses.join(', ')}`
      : ' (does not resolve)'
  const answer = f.lookup.cnames.length ? `CNAME ${f.lookup.cnames.join(' → ')}${end}` : f.lookup.addresses.join(', ') || 'no address'
  return { how, answer }
}

export function subdomainFinding(f: Found): FindingInput {
  const { how, answer } = describeFound(f)
  return {
    check: dnsSubdomainFound,
    location: f.hostname,
    detail: `${f.hostname} (found by ${how}): ${answer}.`,
    evidence: f.records.length ? tableEvidence(['name', 'type', 'ttl', 'data'], recordRows(f.records)) : undefined,
    confirmed: true,
  }
}

export function zoneTransferFinding(ip: string, who: string, domain: string, records: readonly DnsRecord[]): FindingInput {
  return {
    check: dnsAxfrAllowed,
    location: ip,
    detail: `${who} transferred the zone ${domain}: ${records.length} records${records.length > AXFR_SHOWN ? `, the first ${AXFR_SHOWN} shown` : ''}.`,
    evidence: tableEvidence(['name', 'type', 'ttl', 'data'], recordRows(records.slice(0, AXFR_SHOWN))),
    port: 53,
    protocol: 'tcp',
    service: 'domain',
    confirmed: true,
  }
}

export function danglingFinding(f: Found, target: string, service: string | null | undefined): FindingInput {
  return {
    check: dnsDanglingCname,
    location: f.hostname,
    detail: `${f.hostname} is a CNAME to ${target}, which does not exist (NXDOMAIN)${service ? `; ${service} lets anyone claim that name` : ''}.`,
    evidence: tableEvidence(
      ['name', 'type', 'data'],
      [...f.lookup.cnames.map((c, i) => [i === 0 ? f.hostname : f.lookup.cnames[i - 1]!, 'CNAME', c]), [target, 'A', 'NXDOMAIN']],
    ),
    // Takeover-prone services can be claimed in minutes; other targets need the domain to be registered.
    risk: service ? 'high' : 'medium',
    confirmed: Boolean(service),
  }
}

const POLICY_CHECKS = { spf: [dnsSpfMissing, dnsSpfWeak], dmarc: [dnsDmarcMissing, dnsDmarcWeak] } as const

/** One email-policy test (SPF or DMARC) with its finding, if the policy is missing or weak. */
export async function policyTest(
  ctx: Pick<ScanContext, 'test' | 'log'>,
  kind: 'spf' | 'dmarc',
  name: string,
  description: string,
  domain: string,
  v: PolicyVerdict,
  note = '',
) {
  const [missing, weak] = POLICY_CHECKS[kind]
  const t = await ctx.test(name, description)
  if (v.kind === 'missing') await t.finding({ check: missing, location: domain, detail: `${domain} publishes none.`, confirmed: true })
  if (v.kind === 'weak')
    await t.finding({
      check: weak,
      location: domain,
      detail: `${v.reason}${note}`,
      evidence: textEvidence(v.record),
      risk: v.risk,
      confirmed: true,
    })
  ctx.log(`${name}: ${v.kind}${v.kind !== 'missing' ? ` — ${v.record}${note}` : ''}`)
  await t.done()
}
