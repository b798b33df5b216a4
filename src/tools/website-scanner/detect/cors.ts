// CORS policy seen when a request carries a foreign Origin.
import { textEvidence } from '../../../toolkit/evidence.js'
import { corsReflected, corsWildcardCredentials } from '../checks.js'
import type { Hit, PageObs } from './types.js'

/** The foreign origin sent by the probe: a reserved name (RFC 2606) no site legitimately trusts. */
export const PROBE_ORIGIN = 'https://ward-cors-probe.example'

const credentials = (p: PageObs) => (p.headers['access-control-allow-credentials'] ?? '').trim().toLowerCase() === 'true'
const evidence = (p: PageObs, origin: string) =>
  textEvidence(
    `GET ${p.url}\nOrigin: ${origin}\n→ ${p.status}\naccess-control-allow-origin: ` +
      `${p.headers['access-control-allow-origin'] ?? '(not sent)'}\naccess-control-allow-credentials: ` +
      `${p.headers['access-control-allow-credentials'] ?? '(not sent)'}`,
  )

export function detectCorsWildcardCredentials(probe: PageObs, origin = PROBE_ORIGIN): Hit[] {
  if ((probe.headers['access-control-allow-origin'] ?? '').trim() !== '*' || !credentials(probe)) return []
  return [{ check: corsWildcardCredentials, evidence: evidence(probe, origin) }]
}

export function detectCorsReflected(probe: PageObs, origin = PROBE_ORIGIN): Hit[] {
  if ((probe.headers['access-control-allow-origin'] ?? '').trim() !== origin) return []
  const creds = credentials(probe)
  return [
    {
      check: corsReflected,
      risk: creds ? 'high' : 'medium',
      confirmed: true,
      detail: creds
        ? 'The foreign origin is trusted with credentials: other sites can read authenticated responses.'
        : 'The foreign origin is trusted (without credentials): other sites can read unauthenticated responses.',
      evidence: evidence(probe, origin),
    },
  ]
}
