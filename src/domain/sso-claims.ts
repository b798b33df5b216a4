// What Ward takes from a signed-in person's claims (already verified by openid-client): a user name
// for a new account, their groups, and the workspace roles WARD_OIDC_GROUP_ROLES gives those groups.
import type { GroupRole } from '../config/oidc.js'

export type Claims = Record<string, unknown>

/** A claim by name, or by a dotted path into nested objects (Keycloak's `realm_access.roles`). */
export function claimOf(claims: Claims, name: string): unknown {
  if (name in claims) return claims[name]
  let v: unknown = claims
  for (const part of name.split('.')) v = v && typeof v === 'object' ? (v as Claims)[part] : undefined
  return v
}

/** The longest user name taken from a claim: room is left for a "-2" that makes it unique. */
export const NAME_MAX = 90

/** A new user's name: the configured claim, else email, name or the subject; one clean line. */
export function userNameOf(claims: Claims, nameClaim: string): string {
  for (const c of [nameClaim, 'email', 'name', 'sub']) {
    const v = claimOf(claims, c)
    if (typeof v !== 'string') continue
    const clean = v.replace(/[\u0000-\u001f\u007f]/g, '').trim()
    if (clean) return clean.slice(0, NAME_MAX)
  }
  return 'sso-user'
}

/** The person's groups: a list of strings, or one string; absent is no groups. */
export function groupsOf(claims: Claims, groupsClaim: string): string[] {
  const v = claimOf(claims, groupsClaim)
  if (typeof v === 'string') return [v]
  return Array.isArray(v) ? v.filter((g): g is string => typeof g === 'string') : []
}

/** The mapping's entries that the person's groups meet. */
export const grantsFor = (groups: readonly string[], mapping: readonly GroupRole[]) => mapping.filter((m) => groups.includes(m.group))
