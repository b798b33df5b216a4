// Single sign-on settings (WARD_OIDC_*, WARD_PASSWORD_SIGNIN), checked for form at start; the provider
// itself is checked by discovery when the web interface starts (web/oidc-client.ts).
import { ConfigError } from './config-error.js'

/** A role a group may grant; the same three as workspace members (store/members.ts). */
export type GrantRole = 'owner' | 'member' | 'viewer'
const GRANT_ROLES: readonly GrantRole[] = ['owner', 'member', 'viewer']

/** One entry of WARD_OIDC_GROUP_ROLES: people in `group` get `role` in the workspace named `workspace` (`*`: every workspace). */
export interface GroupRole {
  group: string
  workspace: string
  role: GrantRole
}

export interface OidcSettings {
  issuer: URL
  clientId: string
  clientSecret: string
  scopes: string
  groupsClaim: string
  /** The claim a new user's name is taken from (then email, name, sub when it is missing). */
  nameClaim: string
  /** null: Ward manages no memberships from groups. */
  groupRoles: GroupRole[] | null
  /** Where the provider sends people back: WARD_PUBLIC_URL + /sign-in/oidc/callback. */
  callbackUrl: string
}

type Env = Record<string, string | undefined>

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/

/** An http(s) URL; plain http only for a provider on this machine (a test or a local one). */
function urlOf(name: string, raw: string, httpOk: (u: URL) => boolean): URL {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new ConfigError(`${name}: not a valid URL, got "${raw}"`)
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && httpOk(u)))
    throw new ConfigError(
      `${name}: must be an https:// URL${name === 'WARD_OIDC_ISSUER' ? ' (http:// only on loopback)' : ''}, got "${raw}"`,
    )
  if (u.search || u.hash) throw new ConfigError(`${name}: must have no query or fragment, got "${raw}"`)
  return u
}

/** WARD_OIDC_GROUP_ROLES: `group:workspace:role` entries separated by commas (the group may itself hold colons). */
export function parseGroupRoles(raw: string): GroupRole[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const parts = entry.split(':')
      const role = parts.pop()?.trim() as GrantRole
      const workspace = parts.pop()?.trim() ?? ''
      const group = parts.join(':').trim()
      if (!group || !workspace || !role)
        throw new ConfigError(`WARD_OIDC_GROUP_ROLES: "${entry}" is not group:workspace:role (workspace: a name or *)`)
      if (!GRANT_ROLES.includes(role))
        throw new ConfigError(`WARD_OIDC_GROUP_ROLES: "${entry}": the role must be one of ${GRANT_ROLES.join(', ')}`)
      return { group, workspace, role }
    })
}

const OIDC_VARS = [
  'WARD_OIDC_CLIENT_ID',
  'WARD_OIDC_CLIENT_SECRET',
  'WARD_OIDC_SCOPES',
  'WARD_OIDC_GROUPS_CLAIM',
  'WARD_OIDC_NAME_CLAIM',
  'WARD_OIDC_GROUP_ROLES',
]

/** The single sign-on settings, or null when WARD_OIDC_ISSUER is not set (and no other WARD_OIDC_* is). */
export function oidcOf(env: Env, publicUrl: string | null): OidcSettings | null {
  const get = (name: string) => env[name]?.trim() || ''
  const issuerRaw = get('WARD_OIDC_ISSUER')
  if (!issuerRaw) {
    const stray = OIDC_VARS.find((v) => get(v))
    if (stray) throw new ConfigError(`WARD_OIDC_ISSUER: must be set when ${stray} is (the provider's issuer URL)`)
    return null
  }
  const issuer = urlOf('WARD_OIDC_ISSUER', issuerRaw, (u) => LOOPBACK.test(u.hostname))
  const need = (name: string, what: string) => {
    const v = get(name)
    if (!v) throw new ConfigError(`${name}: must be set for single sign-on (${what})`)
    return v
  }
  const clientId = need('WARD_OIDC_CLIENT_ID', 'the client id Ward is registered with at the provider')
  const clientSecret = need('WARD_OIDC_CLIENT_SECRET', "the client's secret from the provider")
  if (!publicUrl)
    throw new ConfigError(
      'WARD_PUBLIC_URL: must be set for single sign-on (the provider sends people back to WARD_PUBLIC_URL/sign-in/oidc/callback)',
    )
  urlOf('WARD_PUBLIC_URL', publicUrl, () => true)
  const scopes = get('WARD_OIDC_SCOPES') || 'openid profile email'
  if (!scopes.split(/\s+/).includes('openid')) throw new ConfigError(`WARD_OIDC_SCOPES: must include openid, got "${scopes}"`)
  const claim = (name: string, def: string) => {
    const v = get(name) || def
    if (!/^[\w.:/-]{1,100}$/.test(v)) throw new ConfigError(`${name}: must be a claim name (letters, digits, _.:/-), got "${v}"`)
    return v
  }
  const groupRoles = get('WARD_OIDC_GROUP_ROLES')
  return {
    issuer,
    clientId,
    clientSecret,
    scopes,
    groupsClaim: claim('WARD_OIDC_GROUPS_CLAIM', 'groups'),
    nameClaim: claim('WARD_OIDC_NAME_CLAIM', 'preferred_username'),
    groupRoles: groupRoles ? parseGroupRoles(groupRoles) : null,
    callbackUrl: `${publicUrl}/sign-in/oidc/callback`,
  }
}

/** WARD_PASSWORD_SIGNIN: on (default) or off; off needs single sign-on, or nobody could sign in to the web interface. */
export function passwordSignInOf(env: Env, oidc: OidcSettings | null): boolean {
  const raw = env.WARD_PASSWORD_SIGNIN?.trim() || 'on'
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`WARD_PASSWORD_SIGNIN: must be on or off, got "${raw}"`)
  if (raw === 'off' && !oidc)
    throw new ConfigError('WARD_PASSWORD_SIGNIN: off needs single sign-on (WARD_OIDC_ISSUER), or nobody could sign in to the web interface')
  return raw === 'on'
}
