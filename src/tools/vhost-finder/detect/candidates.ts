// The names to try as Host, from every source, and the base domains the prefixes go before. Pure.
import { ipVersion } from '../../../toolkit/ip.js'
import { registrableDomain } from '../../lib/http/redirect-policy.js'

export type CandidateSource = 'certificate' | 'reverse-dns' | 'workspace' | 'wordlist' | 'tool_params'

export interface Candidate {
  name: string
  sources: CandidateSource[]
}

/** Base domains at most: every prefix is tried under each, so they multiply the requests. */
export const MAX_DOMAINS = 10

/** A host name as it may go in a Host header: lower case, no trailing dot, no wildcard, not an address. */
export function hostName(raw: string): string | null {
  const n = raw.trim().toLowerCase().replace(/\.$/, '')
  if (!n || n.length > 253 || ipVersion(n) || !/^[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?$/.test(n) || n.includes('..')) return null
  return n
}

/**
 * Base domains for the prefixes, from the target's own names (its hostname, certificate names and
 * reverse DNS): a wildcard's domain (*.shop.example → shop.example), each name's parent and its
 * registrable domain. `extra` (tool_params.domains) first; at most MAX_DOMAINS.
 */
export function baseDomains(ownNames: readonly string[], extra: readonly string[] = []): string[] {
  const out = new Set<string>()
  const add = (d: string | null) => {
    if (d?.includes('.') && out.size < MAX_DOMAINS) out.add(d)
  }
  for (const e of extra) add(hostName(e))
  for (const raw of ownNames) {
    const wildcard = raw.trim().startsWith('*.')
    const n = hostName(wildcard ? raw.trim().slice(2) : raw)
    if (!n) continue
    if (wildcard) add(n)
    else if (n.split('.').length > 2) add(n.slice(n.indexOf('.') + 1))
    add(registrableDomain(n))
  }
  return [...out]
}

export interface CandidateInput {
  /** The target's own host name (null for an address): the default answer, never a candidate. */
  targetName: string | null
  certificate: readonly string[]
  reverseDns: readonly string[]
  workspace: readonly string[]
  /** Prefixes (shipped and tool_params.wordlist); a dotted entry is a whole name. */
  words: readonly string[]
  /** Entries of tool_params.wordlist (marked as such in the sources). */
  extraWords: readonly string[]
  domains: readonly string[]
}

/** Every candidate once, in source order (direct names first, then prefixes by domain); bare prefixes when no domain is known. */
export function buildCandidates(i: CandidateInput): Candidate[] {
  const byName = new Map<string, Candidate>()
  const add = (raw: string, source: CandidateSource) => {
    const n = hostName(raw)
    if (!n || n === i.targetName) return
    const c = byName.get(n)
    if (!c) byName.set(n, { name: n, sources: [source] })
    else if (!c.sources.includes(source)) c.sources.push(source)
  }
  for (const n of i.certificate) if (!n.trim().startsWith('*.')) add(n, 'certificate')
  for (const n of i.reverseDns) add(n, 'reverse-dns')
  for (const n of i.workspace) add(n, 'workspace')
  const extra = new Set(i.extraWords.map((w) => w.toLowerCase()))
  for (const w of i.words) {
    const source: CandidateSource = extra.has(w.toLowerCase()) ? 'tool_params' : 'wordlist'
    if (w.includes('.')) add(w, source)
    else if (i.domains.length === 0) add(w, source)
    else for (const d of i.domains) add(`${w}.${d}`, source)
  }
  return [...byName.values()]
}
