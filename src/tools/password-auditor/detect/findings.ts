// What an audited login comes to: the hits of its audit result (credentials accepted, no password
// needed, lockout signs), and the summary of the logins that accepted nothing. Pure.
import { tableEvidence } from '../../../toolkit/evidence.js'
import type { Hit } from '../../../toolkit/hit.js'
import type { Check } from '../../../toolkit/check.js'
import { postgresNoPassword, redisUnauthenticated } from '../../lib/services/checks.js'
import { defaultCredentials, lockoutDetected, loginServices, noAuthentication } from '../checks.js'
import type { AuditResult } from '../probes/audit.js'
import { maskPassword } from './mask.js'

/** The login a hit is about (a service on a port, or one web login at a URL). */
export interface LoginRef {
  service: string
  port: number
  product: string | null
  url: string | null
  /** The shipped credential list it used. */
  listId: string
}

/**
 * A login without a password is, on Redis and PostgreSQL, the same fact the port and network scanners
 * report: the shared check, so the findings have one vuln_id and one identity.
 */
const NO_AUTH_FACTS: Readonly<Record<string, Check>> = { redis: redisUnauthenticated, postgresql: postgresNoPassword }

export const loginLabel = (l: LoginRef) =>
  `${l.service}${l.product ? ` (${l.product})` : ''} on ${l.port}/tcp${l.url ? ` at ${l.url}` : ''}`

export function auditHits(l: LoginRef, r: AuditResult): Hit[] {
  const where = loginLabel(l)
  const at = { port: l.port, protocol: 'tcp' as const, service: l.service, url: l.url }
  const hits: Hit[] = r.found.map((c) => {
    const masked = maskPassword(c.password)
    return {
      check: defaultCredentials,
      ...at,
      location: `${l.service} user ${c.username}`,
      confirmed: true,
      detail:
        `${where} accepted the user "${c.username}" with the password ${masked}, from the shipped or ` +
        `given credentials of ${l.listId}. The password is kept sealed and shown nowhere.`,
      evidence: tableEvidence(
        ['Service', 'Port', 'Product', 'User name', 'Password (masked)'],
        [[l.service, String(l.port), l.product ?? '', c.username, masked]],
      ),
    }
  })
  if (r.noAuth)
    hits.push({
      check: NO_AUTH_FACTS[l.service] ?? noAuthentication,
      ...at,
      confirmed: true,
      detail: `${where}: ${r.stopped}.`,
      evidence: tableEvidence(['Service', 'Port', 'What the service said'], [[l.service, String(l.port), r.stopped ?? '']]),
    })
  if (r.lockout)
    hits.push({
      check: lockoutDetected,
      ...at,
      detail: `${where}: ${r.lockout}; the audit of this login stopped after ${r.attempts} attempts.`,
      evidence: tableEvidence(['Service', 'Port', 'Attempts', 'Sign'], [[l.service, String(l.port), String(r.attempts), r.lockout]]),
    })
  return hits
}

/** The audit ended early with no verdict: neither a finding nor the whole plan tried. */
export const auditIncomplete = (r: AuditResult, planned: number) =>
  !!r.stopped && !r.lockout && !r.noAuth && !r.found.length && r.attempts < planned

/** The logins that accepted none of the credentials tried, as one informational hit (none when every login gave way). */
export function cleanLoginsHits(
  audited: ReadonlyArray<Omit<LoginRef, 'listId'> & { attempts: number; found: number; stopped: string | null }>,
): Hit[] {
  const clean = audited.filter((a) => !a.found)
  if (!clean.length) return []
  return [
    {
      check: loginServices,
      detail: `${clean.length} login${clean.length === 1 ? '' : 's'} accepted none of the credentials tried.`,
      evidence: tableEvidence(
        ['Service', 'Port', 'Product', 'URL', 'Attempts', 'Stopped'],
        clean.map((a) => [a.service, String(a.port), a.product ?? '', a.url ?? '', String(a.attempts), a.stopped ?? '']),
      ),
    },
  ]
}
