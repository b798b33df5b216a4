// Finding identity: two findings are duplicates when they share target, vuln_id, port, protocol
// and normalised location. Only stable facts go into the key — never names, descriptions,
// evidence or timestamps — so re-running a scan lands every finding in the group it had before.
import { createHash } from 'node:crypto'
import { normaliseLocation } from '../reports/finding-location.js'

export interface FindingIdentity {
  targetId: number
  vulnId: string
  port: number | null
  protocol: string | null
  url?: string | null
  location?: string | null
}

/** Bumped only if the key's recipe changes; every stored key would then need recomputing. */
const KEY_VERSION = 'ward-finding-v1'

/**
 * sha256 hex of the finding's stable facts. The facts are JSON-encoded as an array, so no value
 * can bleed into its neighbour (`"a|b"` + `"c"` vs `"a"` + `"b|c"`).
 */
export function dedupKey(f: FindingIdentity): string {
  const facts = [
    KEY_VERSION,
    f.targetId,
    f.vulnId,
    f.port ?? null,
    f.protocol ? f.protocol.trim().toLowerCase() : null,
    optionalLocation(f.url),
    optionalLocation(f.location),
  ]
  return createHash('sha256').update(JSON.stringify(facts)).digest('hex')
}

const optionalLocation = (s: string | null | undefined): string | null => {
  if (s == null) return null
  const n = normaliseLocation(s)
  return n === '' ? null : n
}

export { normaliseLocation } from '../reports/finding-location.js'
