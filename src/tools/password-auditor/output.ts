// output_data members of the Password Auditor: `credentials` (found, password masked) and `logins` (what was audited).
import type { ScanContext } from '../../toolkit/tool.js'
import { maskPassword } from './detect/mask.js'
import type { LoginRef } from './detect/findings.js'
import type { AuditResult } from './probes/audit.js'

export interface FoundCredential {
  service: string
  port: number
  username: string
  password_masked: string
  product: string | null
}

export interface AuditedLogin {
  service: string
  port: number
  product: string | null
  url: string | null
  attempts: number
  found: number
  stopped: string | null
}

export const credentialEntry = (
  service: string,
  port: number,
  username: string,
  password: string,
  product: string | null,
): FoundCredential => ({
  service,
  port,
  username,
  password_masked: maskPassword(password),
  product,
})

export const auditedEntry = (l: LoginRef, r: AuditResult): AuditedLogin => ({
  service: l.service,
  port: l.port,
  product: l.product,
  url: l.url,
  attempts: r.attempts,
  found: r.found.length,
  stopped: r.stopped,
})

const sortedCredentials = (list: readonly FoundCredential[]) =>
  [...list].sort((a, b) => a.port - b.port || a.service.localeCompare(b.service) || a.username.localeCompare(b.username))

/** output_data.credentials (as found so far), and output_data.logins once the audit is over. */
export function outputAudit(
  ctx: Pick<ScanContext, 'output'>,
  found: readonly FoundCredential[],
  audited: readonly AuditedLogin[] | null,
): void {
  ctx.output('credentials', sortedCredentials(found))
  if (audited) ctx.output('logins', audited)
}
