// Facts read from the tools' output members (docs/outputs.md): ports and services with versions
// (70, 80, 350), subdomains (20), the server certificate and TLS protocols (450), URLs (90, 170) and
// technologies (310, 170). Outputs are JSON the tools wrote: each field is checked before use.
import type { ScanRow } from '../store/schema.js'

export interface PortFacts {
  port: number
  protocol: string
  service: string | null
  product: string | null
  version: string | null
}
export interface CertFacts {
  subject: string
  issuer: string
  valid_to: string
  fingerprint_sha256: string
}

export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)
// Output entries are JSON objects of the tool's schema; read field by field, each checked before use.
export type Entry = Readonly<Record<string, unknown>>
export const arr = (v: unknown): Entry[] => (Array.isArray(v) ? v.filter((x): x is Entry => typeof x === 'object' && x !== null) : [])
export const outputOf = (s: Pick<ScanRow, 'output_data'>): Record<string, unknown> =>
  s.output_data ? (JSON.parse(s.output_data) as Record<string, unknown>) : {}

export function ports(out: Record<string, unknown>): Map<string, PortFacts> {
  const m = new Map<string, PortFacts>()
  for (const p of [...arr(out.ports), ...arr(out.services)]) {
    if (typeof p?.port !== 'number') continue
    if (p.state !== undefined && p.state !== 'open' && p.state !== 'open|filtered') continue
    const protocol = str(p.protocol) ?? 'tcp'
    const facts = { port: p.port, protocol, service: str(p.service), product: str(p.product), version: str(p.version) }
    const key = `${protocol}/${p.port}`
    // netvuln's services know more than a port list: keep the richer entry.
    const had = m.get(key)
    if (!had || (!had.product && facts.product)) m.set(key, facts)
  }
  return m
}

export function subdomains(out: Record<string, unknown>): Map<string, string | null> {
  return new Map(
    arr(out.subdomains)
      .filter((d) => typeof d?.hostname === 'string')
      .map((d) => [d.hostname as string, str(d.ip_address)]),
  )
}

export function serverCert(out: Record<string, unknown>): CertFacts | null {
  const c = arr(out.certificates).find((x) => x?.position === 0) ?? arr(out.certificates)[0]
  if (!c || typeof c.fingerprint_sha256 !== 'string') return null
  return {
    subject: String(c.subject ?? ''),
    issuer: String(c.issuer ?? ''),
    valid_to: String(c.valid_to ?? ''),
    fingerprint_sha256: c.fingerprint_sha256,
  }
}

export function tlsSets(out: Record<string, unknown>): { protocols: Set<string>; ciphers: Set<string> } {
  const accepted = arr(out.protocols).filter((p) => typeof p?.name === 'string' && p.accepted)
  return {
    protocols: new Set(accepted.map((p) => p.name as string)),
    ciphers: new Set(accepted.flatMap((p) => arr(p.ciphers).map((c) => `${p.name} ${c?.name}`))),
  }
}

export function urls(out: Record<string, unknown>): Set<string> {
  return new Set([...arr(out.urls), ...arr(out.pages)].map((u) => u?.url).filter((u): u is string => typeof u === 'string'))
}

export interface TechFacts {
  name: string
  version: string | null
}

/** Technologies Website Recon named (`technologies`) and components the Website Scanner saw (`components`). */
export function technologies(out: Record<string, unknown>): TechFacts[] {
  const seen = new Map<string, TechFacts>()
  for (const t of [...arr(out.technologies), ...arr(out.components)]) {
    const name = str(t.name) ?? str(t.product)
    if (!name) continue
    const version = str(t.version)
    const key = name.toLowerCase()
    if (!seen.has(key) || (!seen.get(key)!.version && version)) seen.set(key, { name, version })
  }
  return [...seen.values()]
}
