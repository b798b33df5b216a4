// Web interface accounts: password hashes, one-time set-password links and sessions. Session ids
// and link tokens are random, handed to the browser once, and stored only as SHA-256 hashes.
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { Db } from './db.js'
import { hashKey, type Caller } from './accounts.js'
import { isoAfter, nowIso } from './time.js'
import { memberWorkspaces, OWNER_ROLES } from './members.js'

export const newToken = () => randomBytes(32).toString('base64url')

export interface WebUser extends Caller {
  name: string
  csrf: string
  sessionHash: string
  /** An instance admin (read with the session, per request): the Users page is in the navigation. */
  isAdmin: boolean
}

/** An enabled user by name (case-insensitive) with the password hash, for sign-in. */
export const userForSignIn = (db: Db, name: string) =>
  db
    .selectFrom('users')
    .select(['id', 'name', 'password_hash'])
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .where('disabled_at', 'is', null)
    .executeTakeFirst()

export async function setPasswordHash(db: Db, userId: number, hash: string): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ password_hash: hash, password_link_hash: null, password_link_expires: null })
    .where('id', '=', userId)
    .executeTakeFirst()
  // A new password ends every session of the user.
  await db.deleteFrom('web_sessions').where('user_id', '=', userId).execute()
  return Number(r.numUpdatedRows) > 0
}

/** A one-time link token for setting the password (valid `ms`); replaces any earlier one. */
export async function createPasswordLink(db: Db, userId: number, ms: number): Promise<string> {
  const token = newToken()
  await db
    .updateTable('users')
    .set({ password_link_hash: hashKey(token), password_link_expires: isoAfter(ms) })
    .where('id', '=', userId)
    .execute()
  return token
}

export const userByPasswordLink = (db: Db, token: string) =>
  db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('password_link_hash', '=', hashKey(token))
    .where('password_link_expires', '>', nowIso())
    .executeTakeFirst()

export async function createSession(db: Db, userId: number, ms: number): Promise<{ id: string; csrf: string }> {
  const id = newToken()
  const csrf = newToken()
  await db
    .insertInto('web_sessions')
    .values({ id_hash: hashKey(id), user_id: userId, csrf, created_at: nowIso(), expires_at: isoAfter(ms) })
    .execute()
  return { id, csrf }
}

/** The signed-in user of a session cookie value, as a caller of the domain rules, or null. */
export async function sessionUser(db: Db, id: string): Promise<WebUser | null> {
  const h = hashKey(id)
  const row = await db
    .selectFrom('web_sessions')
    .innerJoin('users', 'users.id', 'web_sessions.user_id')
    .select([
      'users.id',
      'users.name',
      'users.active_workspace_id',
      'users.max_targets',
      'users.license_expires',
      'users.is_admin',
      'web_sessions.csrf',
    ])
    .where('web_sessions.id_hash', '=', h)
    .where('web_sessions.expires_at', '>', nowIso())
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst()
  if (!row) return null
  return {
    userId: row.id,
    name: row.name,
    keyHash: '',
    activeWorkspaceId: row.active_workspace_id ?? 0,
    maxTargets: row.max_targets,
    licenseExpires: row.license_expires,
    csrf: row.csrf,
    sessionHash: h,
    isAdmin: row.is_admin === 1,
  }
}

export async function deleteSession(db: Db, id: string) {
  await db.deleteFrom('web_sessions').where('id_hash', '=', hashKey(id)).execute()
}

export async function deleteExpiredSessions(db: Db) {
  await db.deleteFrom('web_sessions').where('expires_at', '<=', nowIso()).execute()
}

/** A user's API keys (never their secret part), newest first. */
export const userKeys = (db: Db, userId: number) =>
  db
    .selectFrom('api_keys')
    .select(['id', 'key_prefix', 'created_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute()

/** Revokes one of the user's own keys; false when it is not theirs or already revoked. */
export async function revokeOwnKey(db: Db, userId: number, keyId: number): Promise<boolean> {
  const r = await db
    .updateTable('api_keys')
    .set({ revoked_at: nowIso() })
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}

/** Renames a workspace of which the user is an owner; false otherwise. */
export async function renameWorkspace(db: Db, userId: number, id: number, name: string): Promise<boolean> {
  const r = await db
    .updateTable('workspaces')
    .set({ name })
    .where('id', '=', id)
    .where('id', 'in', memberWorkspaces(db, userId, OWNER_ROLES))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}

/** The first user, while no user has a web password yet (then nobody can sign in); otherwise null. */
export async function firstUserWhenNoneCanSignIn(db: Db): Promise<{ id: number; name: string } | null> {
  if (await db.selectFrom('users').select('id').where('password_hash', 'is not', null).executeTakeFirst()) return null
  return (await db.selectFrom('users').select(['id', 'name']).orderBy('id').executeTakeFirst()) ?? null
}
