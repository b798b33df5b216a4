// `ward admin user|key|workspace ...`: users, their keys and workspaces.
import { auditSince, SYSTEM_ACTOR } from '../store/audit.js'
import { setUserAdmin, setUserDisabled } from '../store/instance-admin.js'
import { publish } from '../store/notify.js'
import {
  activeKeysMatching,
  keyPrefix,
  createApiKey,
  createUser,
  createWorkspace,
  getKey,
  listKeys,
  listUsers,
  revokeKey,
  setUserLimits,
  userByName,
  userExists,
} from '../store/accounts.js'
import { createPasswordLink, setPasswordHash } from '../store/web-sessions.js'
import { isUniqueViolation } from '../domain/targets.js'
import { hashPassword } from '../domain/passwords.js'
import type { Config } from '../config/config.js'
import { UsageError, calendarDate, changedByAdmin, positiveInt, table, type AdminContext } from './admin-values.js'

/** How long a set-password link works. */
export const PASSWORD_LINK_MS = 24 * 3600000

/** The web address a set-password link starts with. */
export const webBase = (cfg: Pick<Config, 'host' | 'port'>) =>
  `http://${cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host === '0.0.0.0' ? '127.0.0.1' : cfg.host}:${cfg.port}`

const requiredName = (v: string | undefined) => {
  const name = v?.trim()
  if (!name) throw new UsageError('--name is required')
  return name
}

export async function userCreate(
  { h, cfg, out, readPassword }: AdminContext,
  o: { name?: string; maxTargets?: string; licenseExpires?: string; passwordStdin?: boolean },
) {
  const name = requiredName(o.name)
  const maxTargets = o.maxTargets !== undefined ? positiveInt(o.maxTargets, 'max-targets') : cfg.maxTargetsDefault
  const lic = o.licenseExpires === undefined ? undefined : calendarDate(o.licenseExpires, 'license-expires')
  const same = await userByName(h.db, name)
  if (same) throw new UsageError(`a user named "${same.name}" already exists (id ${same.id})`)
  const password = o.passwordStdin ? await readPassword() : null
  const u = await createUser(h.db, { name, maxTargets, licenseExpires: lic ?? null })
  if (password !== null) await setPasswordHash(h.db, u.userId, await hashPassword(password))
  out(`user id: ${u.userId}\nworkspace id: ${u.workspaceId}\napi key: ${u.apiKey}${password !== null ? '\nweb sign-in: password set' : ''}`)
}

export async function userSetPassword(
  { h, cfg, out, readPassword }: AdminContext,
  o: { user?: string; link?: boolean; passwordStdin?: boolean },
) {
  const userId = positiveInt(o.user, 'user')
  const link = !!o.link
  if (link === !!o.passwordStdin) throw new UsageError('ward admin user set-password needs exactly one of --password-stdin and --link')
  if (!(await userExists(h.db, userId))) throw new UsageError(`user ${userId} does not exist`)
  if (link) {
    const token = await createPasswordLink(h.db, userId, PASSWORD_LINK_MS)
    out(`set-password link for user ${userId} (one use, valid 24 hours):\n${webBase(cfg)}/set-password/${token}`)
    return
  }
  await setPasswordHash(h.db, userId, await hashPassword(await readPassword()))
  out(`user ${userId}: password set; the user's web sessions were ended`)
}

export async function userList({ h, out }: AdminContext) {
  const users = await listUsers(h.db)
  out(
    table(
      ['id', 'name', 'max_targets', 'license_expires', 'active_keys', 'created_at', 'admin', 'state'],
      users.map((u) => [
        u.id,
        u.name,
        u.max_targets,
        u.license_expires,
        u.active_keys,
        u.created_at.slice(0, 19) + 'Z',
        u.is_admin ? 'admin' : null,
        u.disabled_at ? `disabled ${u.disabled_at.slice(0, 19)}Z` : 'enabled',
      ]),
    ),
  )
}

/** A user given by id or by name (names are unique, case-insensitive). */
async function userArg(c: AdminContext, v: string | undefined): Promise<number> {
  if (v !== undefined && !/^\d+$/.test(v)) {
    const u = await userByName(c.h.db, v.trim())
    if (!u) throw new UsageError(`no user is named "${v}"`)
    return u.id
  }
  const userId = positiveInt(v, 'user')
  if (!(await userExists(c.h.db, userId))) throw new UsageError(`user ${userId} does not exist`)
  return userId
}

export async function userSet(c: AdminContext, o: { user?: string; maxTargets?: string; licenseExpires?: string; admin?: boolean }) {
  const userId = await userArg(c, o.user)
  const maxTargets = o.maxTargets !== undefined ? positiveInt(o.maxTargets, 'max-targets') : undefined
  const lic =
    o.licenseExpires === undefined ? undefined : o.licenseExpires === 'none' ? null : calendarDate(o.licenseExpires, 'license-expires')
  if (maxTargets === undefined && lic === undefined && o.admin === undefined)
    throw new UsageError('ward admin user set needs --max-targets, --license-expires, --admin or --no-admin')
  if (!(await setUserLimits(c.h.db, userId, { maxTargets, licenseExpires: lic }))) throw new UsageError(`user ${userId} does not exist`)
  if (o.admin !== undefined) await setUserAdmin(c.h.db, userId, o.admin, { by: null, actor: SYSTEM_ACTOR })
  c.out(
    `user ${userId}:${[
      maxTargets !== undefined ? ` max targets ${maxTargets}` : '',
      lic !== undefined ? ` licence expires ${lic ?? 'never'}` : '',
      o.admin !== undefined ? (o.admin ? ' instance admin' : ' not an instance admin') : '',
    ].join('')}`,
  )
}

/** `ward admin user disable|enable`: the way in when nobody can sign in; a disabled user's keys and sessions stop. */
export async function userDisable(c: AdminContext, o: { user?: string }, disabled: boolean) {
  const userId = await userArg(c, o.user)
  const r = await setUserDisabled(c.h.db, userId, disabled, { by: null, actor: SYSTEM_ACTOR })
  publish({ type: 'user-changed', userId })
  c.out(
    r === 'unchanged'
      ? `user ${userId} was already ${disabled ? 'disabled' : 'enabled'}`
      : disabled
        ? `user ${userId} disabled: web sessions ended; API processes refuse the user's keys within WARD_AUTH_CACHE_MS`
        : `user ${userId} enabled`,
  )
}

export async function keyCreate({ h, out }: AdminContext, o: { user?: string }) {
  const userId = positiveInt(o.user, 'user')
  const key = await changedByAdmin(
    h,
    (trx) => createApiKey(trx, userId),
    (key) =>
      key
        ? {
            workspaceId: null,
            action: 'key.created',
            objectType: 'api_key',
            objectId: null,
            details: { user_id: userId, key_prefix: keyPrefix(key) },
          }
        : null,
  )
  if (!key) throw new UsageError(`user ${userId} does not exist`)
  out(`api key: ${key}`)
}

export async function keyList({ h, out }: AdminContext, o: { user?: string }) {
  const keys = await listKeys(h.db, o.user !== undefined ? positiveInt(o.user, 'user') : undefined)
  out(
    table(
      ['id', 'user', 'name', 'prefix', 'created_at', 'revoked_at'],
      keys.map((k) => [
        k.id,
        k.user_id,
        k.user_name,
        k.key_prefix,
        k.created_at.slice(0, 19) + 'Z',
        k.revoked_at ? k.revoked_at.slice(0, 19) + 'Z' : null,
      ]),
    ),
  )
}

/** The one active key named by its id or by a prefix (8+ characters) that no other active key shares. */
async function keyToRevoke({ h }: AdminContext, id: string | undefined, p: string | undefined) {
  if ((id === undefined) === (p === undefined))
    throw new UsageError('ward admin key revoke needs exactly one of --key-id ID and --key-prefix P')
  if (id !== undefined) {
    const target = await getKey(h.db, positiveInt(id, 'key-id'))
    if (!target) throw new UsageError(`key ${id} does not exist`)
    if (target.revoked_at) throw new UsageError(`key ${id} (${target.key_prefix}…) was already revoked at ${target.revoked_at}`)
    return target
  }
  if (p!.length < 8) throw new UsageError('--key-prefix needs at least the first 8 characters of the key')
  const matches = await activeKeysMatching(h.db, p!)
  if (!matches.length) throw new UsageError(`no active key starts with ${p!.slice(0, 12)}`)
  if (matches.length > 1)
    throw new UsageError(
      `${p} matches ${matches.length} active keys: ${matches
        .map((k) => `id ${k.id} (${k.key_prefix}…, user ${k.user_id} ${k.user_name})`)
        .join(', ')}; give more characters or --key-id`,
    )
  return matches[0]!
}

export async function keyRevoke(c: AdminContext, o: { keyId?: string; keyPrefix?: string }) {
  const target = await keyToRevoke(c, o.keyId, o.keyPrefix)
  await changedByAdmin(
    c.h,
    (trx) => revokeKey(trx, target.id),
    (revoked) =>
      !revoked
        ? null
        : {
            workspaceId: null,
            action: 'key.revoked',
            objectType: 'api_key',
            objectId: target.id,
            details: { user_id: target.user_id, key_prefix: target.key_prefix },
          },
  )
  c.out(
    `revoked 1 key: id ${target.id} (${target.key_prefix}…) of user ${target.user_id} ${target.user_name}; ` +
      'API processes stop accepting it within WARD_AUTH_CACHE_MS',
  )
}

export async function workspaceCreate({ h, out }: AdminContext, o: { user?: string; name?: string }) {
  const userId = positiveInt(o.user, 'user')
  const name = requiredName(o.name)
  if (!(await userExists(h.db, userId))) throw new UsageError(`user ${userId} does not exist`)
  try {
    const id = await changedByAdmin(
      h,
      (trx) => createWorkspace(trx, userId, name),
      (id) => ({ workspaceId: id, action: 'workspace.created', objectType: 'workspace', objectId: id, details: { name, user_id: userId } }),
    )
    out(`workspace id: ${id}`)
  } catch (e) {
    if (isUniqueViolation(e)) throw new UsageError(`user ${userId} already has a workspace named "${name}"`)
    throw e
  }
}

export async function auditExport({ h, out }: AdminContext, o: { since?: string }) {
  const since = o.since
  if (!since || !/^\d{4}-\d{2}-\d{2}/.test(since) || Number.isNaN(Date.parse(since)))
    throw new UsageError('--since must be an ISO 8601 time such as 2026-11-01T00:00:00Z')
  for (const e of await auditSince(h.db, new Date(since).toISOString()))
    out(JSON.stringify({ ...e, at: e.at.slice(0, 19) + 'Z', details: JSON.parse(e.details) }))
}
