// The vocabulary of integrations shared by every layer: the types, the events, and which members of
// each type's config are secrets (sealed at rest, never shown) — with the helpers that seal, open
// or keep them.
export const INTEGRATION_TYPES = ['slack', 'teams', 'email', 'webhook', 'jira', 'github', 'gitlab', 'defectdojo'] as const
export type IntegrationType = (typeof INTEGRATION_TYPES)[number]

export const INTEGRATION_EVENTS = [
  'finding.new',
  'finding.regression',
  'finding.fixed',
  'scan.finished',
  'scan.failed',
  'schedule.missed',
] as const
export type IntegrationEvent = (typeof INTEGRATION_EVENTS)[number]

/** Shown in place of every stored secret. */
export const SECRET_SHOWN = '(secret: stored encrypted)'

/** Dotted paths of the secret members of each type's config. */
export const SECRET_PATHS: Record<IntegrationType, readonly string[]> = {
  slack: ['url'],
  teams: ['url'],
  webhook: ['secret'],
  email: ['smtp_url'],
  jira: ['auth.api_token', 'auth.bearer'],
  github: ['token'],
  gitlab: ['token'],
  defectdojo: ['api_key'],
}

export type Config = Record<string, unknown>

/** Applies `f` to each secret member present in `c` (a copy; `c` is left as it is). */
export function mapSecrets(type: IntegrationType, c: Config, f: (v: string) => string): Config {
  const out = structuredClone(c)
  for (const p of SECRET_PATHS[type]) {
    const parts = p.split('.')
    let holder: Record<string, unknown> | undefined = out
    for (const k of parts.slice(0, -1))
      holder = holder?.[k] && typeof holder[k] === 'object' ? (holder[k] as Record<string, unknown>) : undefined
    const last = parts[parts.length - 1]!
    if (holder && typeof holder[last] === 'string') holder[last] = f(holder[last] as string)
  }
  return out
}

/**
 * A changed config: `patch` over `stored` (one level deep; `auth` is replaced whole). A secret given
 * as the shown placeholder keeps the stored value, so a form can send back what it was shown.
 */
export function mergeConfig(type: IntegrationType, stored: Config, patch: Config): Config {
  const merged: Config = { ...stored, ...patch }
  const keepShown = (path: string[], into: Record<string, unknown>, from: Record<string, unknown> | undefined) => {
    const [k, ...rest] = path
    if (!k || !from) return
    if (rest.length === 0) {
      if (into[k] === SECRET_SHOWN) into[k] = from[k]
      return
    }
    if (into[k] && typeof into[k] === 'object')
      keepShown(rest, into[k] as Record<string, unknown>, from[k] as Record<string, unknown> | undefined)
  }
  for (const p of SECRET_PATHS[type]) keepShown(p.split('.'), merged, stored)
  return merged
}
