// A finding's stable fingerprint for exports (SARIF partialFingerprints, CSV). Ward's own dedup key
// (domain/finding-identity.ts) is made of the target, vuln_id, port, protocol and normalised
// location; the API's findings carry neither the key nor the internal location, and a client only knows
// the target by the name it gave. So this is the same recipe over what every v2 server answers:
// target name + vuln_id + port + protocol + normalised URL. Only stable facts: never names,
// descriptions, evidence, ids or times, so a re-run lands every finding on the same fingerprint.
import { createHash } from 'node:crypto'
import type { WireFinding } from './types.js'
import { normaliseLocation } from '../finding-location.js'

const RECIPE = 'ward-export-fingerprint-v1'

export function findingFingerprint(target: string, f: WireFinding): string {
  const facts = [
    RECIPE,
    normaliseTarget(target),
    f.vuln_id,
    f.port ?? null,
    f.protocol ? f.protocol.trim().toLowerCase() : null,
    f.url ? normaliseLocation(f.url) : null,
  ]
  return createHash('sha256').update(JSON.stringify(facts)).digest('hex')
}

/** Targets are unique per workspace case-insensitively for host names; URLs get the URL rules. */
function normaliseTarget(t: string): string {
  const s = t.trim()
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? normaliseLocation(s) : s.toLowerCase()
}
