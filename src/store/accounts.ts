// Users, API keys and workspaces. Keys are stored only as SHA-256 hashes.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto'
import { sql, type Transaction } from 'kysely'
import { inTransaction, selectPrepared, type Db } from './db.js'
import type { Database } from './schema.js'
import { nowIso } from './time.js'
import { addOwner, type Role } from './members.js'
import { countRows } from './paging.js'

export interface Caller {
  userId: number
  keyHash: string
  activeWorkspaceId: number
  maxTargets: number
  licenseExpires: string | null
}

// One-shot hash: no Hash object per request (a third of the cost on every API call).
export const hashKey = (key: string) => hash('sha256', key, 'hex')
/** 192 random bits, URL-safe. */
export const newApiKey = () => 'ward_' + randomBytes(24).toString('base64url')
export const keyPrefix = (key: string) => key.slice(0, 12)

export interface NewUser {
  name: string
  maxTargets: number
  licenseExpires?: string | null
  /** The first API key; a random one when not given, none with null (a user who signs in through SSO). */
  apiKey?: string | null
}

export async function createUser(db: Db, u: NewUser & { apiKey?: string }) {
  const r = await inTransaction(db, (trx) => insertUser(trx, u))
  return { ...r, apiKey: r.apiKey as string }
}

/** A user with a Default workspace they own (and an API key), inside the caller's transaction. */
export async function insertUser(trx: Transaction<Database>, u: NewUser) {
  const now = nowIso()
  const user = await trx
    .insertInto('users')
    .values({
      name: u.name,
      max_targets: u.maxTargets,
      license_expires: u.licenseExpires ?? null,
      active_workspace_id: null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  // The first user of an installation is its instance admin (`ward admin user set --admin` names others).
  await trx
    .updateTable('users')
    .set({ is_admin: 1 })
    .where('id', '=', user.id)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('users as u').select('u.id').where('u.id', '<', user.id))))
    .execute()
  const ws = await trx
    .insertInto('workspaces')
    .values({ user_id: user.id, name: 'Default', vpn_profile_uuid: null, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  await addOwner(trx, ws.id, user.id, now)
  await trx.updateTable('users').set({ active_workspace_id: ws.id }).where('id', '=', user.id).execute()
  const key = u.apiKey === undefined ? newApiKey() : u.apiKey
  if (key !== null)
    await trx
      .insertInto('api_keys')
      .values({ user_id: user.id, key_hash: hashKey(key), key_prefix: keyPrefix(key), created_at: now, revoked_at: null })
      .execute()
  return { userId: user.id, workspaceId: ws.id, apiKey: key }
}

export async function createApiKey(db: Db, userId: number): Promise<string | null> {
  const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()
  if (!user) return null
  const key = newApiKey()
  await db
    .insertInto('api_keys')
    .values({ user_id: userId, key_hash: hashKey(key), key_prefix: keyPrefix(key), created_at: nowIso(), revoked_at: null })
    .execute()
  return key
}

export interface KeyInfo {
  id: number
  user_id: number
  user_name: string
  key_prefix: string
  created_at: string
  revoked_at: string | null
}

const keyInfo = (db: Db) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.user_id',
      'users.name as user_name',
      'api_keys.key_prefix',
      'api_keys.created_at',
      'api_keys.revoked_at',
    ])

/** Every key (never its secret part), oldest first; one user's with `userId`. */
export async function listKeys(db: Db, userId?: number): Promise<KeyInfo[]> {
  let q = keyInfo(db).orderBy('api_keys.id')
  if (userId !== undefined) q = q.where('api_keys.user_id', '=', userId)
  return q.execute()
}

/**
 * Active keys a revocation given as text could mean: the whole key (matched by its hash), or the
 * start of one. Only the first 12 characters are stored in clear, so a longer partial key is
 * matched on those 12 — the caller insists on a unique match.
 */
export async function activeKeysMatching(db: Db, given: string): Promise<KeyInfo[]> {
  const byHash = await keyInfo(db).where('api_keys.key_hash', '=', hashKey(given)).where('api_keys.revoked_at', 'is', null).execute()
  if (byHash.length) return byHash
  const start = given.slice(0, 12)
  const rows = await keyInfo(db)
    .where('api_keys.revoked_at', 'is', null)
    .where('api_keys.key_prefix', '>=', start)
    .orderBy('api_keys.key_prefix')
    .limit(50)
    .execute()
  // A range scan then a startsWith: LIKE would treat "_" (frequent in base64url keys) as a wildcard.
  return rows.filter((r) => r.key_prefix.startsWith(start))
}

export async function getKey(db: Db, id: number): Promise<KeyInfo | undefined> {
  return keyInfo(db).where('api_keys.id', '=', id).executeTakeFirst()
}

/** Revokes the still active keys matching `column`; how many. */
async function revokeActiveKeys(db: Db, column: 'id' | 'key_prefix', value: number | string): Promise<number> {
  const r = await db
    .updateTable('api_keys')
    .set({ revoked_at: nowIso() })
    .where(column, '=', value)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows)
}

export const revokeKey = async (db: Db, id: number): Promise<boolean> => (await revokeActiveKeys(db, 'id', id)) > 0

export interface UserInfo {
  id: number
  name: string
  max_targets: number
  license_expires: string | null
  created_at: string
  active_keys: number
  is_admin: number
  disabled_at: string | null
}

// Selected and grouped by alike (PostgreSQL groups by every plain column it selects).
const USER_COLUMNS = [
  'users.id',
  'users.name',
  'users.max_targets',
  'users.license_expires',
  'users.created_at',
  'users.is_admin',
  'users.disabled_at',
] as const

export async function listUsers(db: Db): Promise<UserInfo[]> {
  const rows = await db
    .selectFrom('users')
    .leftJoin('api_keys', (j) => j.onRef('api_keys.user_id', '=', 'users.id').on('api_keys.revoked_at', 'is', null))
    .select([...USER_COLUMNS, (e) => e.fn.count('api_keys.id').as('active_keys')])
    .groupBy([...USER_COLUMNS])
    .orderBy('users.id')
    .execute()
  return rows.map((r) => ({ ...r, active_keys: Number(r.active_keys) }))
}

/** A user with this name, compared case-insensitively (names identify people to admins). */
export async function userByName(db: Db, name: string): Promise<{ id: number; name: string } | undefined> {
  return db.selectFrom('users').select(['id', 'name']).where(sql<string>`lower(name)`, '=', name.toLowerCase()).executeTakeFirst()
}

export async function setUserLimits(
  db: Db,
  userId: number,
  set: { maxTargets?: number; licenseExpires?: string | null },
): Promise<boolean> {
  const values = {
    ...(set.maxTargets !== undefined ? { max_targets: set.maxTargets } : {}),
    ...(set.licenseExpires !== undefined ? { license_expires: set.licenseExpires } : {}),
  }
  if (!Object.keys(values).length) return userExists(db, userId)
  const r = await db.updateTable('users').set(values).where('id', '=', userId).executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}

export const countUsers = (db: Db) => countRows(db.selectFrom('users'))

export const callerByKey = (db: Db, key: string) => callerByKeyHash(db, hashKey(key))

export async function callerByKeyHash(db: Db, keyHash: string): Promise<Caller | null> {
  const [row] = await selectPrepared(
    db,
    'callerByKeyHash',
    (arg) =>
      db
        .selectFrom('api_keys')
        .innerJoin('users', 'users.id', 'api_keys.user_id')
        .select(['api_keys.key_hash', 'users.id as user_id', 'users.active_workspace_id', 'users.max_targets', 'users.license_expires'])
        .where('api_keys.key_hash', '=', arg<string>(0))
        .where('api_keys.revoked_at', 'is', null)
        // A disabled user's keys are refused like revoked ones.
        .where('users.disabled_at', 'is', null),
    [keyHash],
  )
  // The lookup is by hash; the constant-time compare keeps the final decision free of timing leaks.
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(keyHash, 'hex'))) return null
  return {
    userId: row.user_id,
    keyHash,
    activeWorkspaceId: row.active_workspace_id ?? 0,
    maxTargets: row.max_targets,
    licenseExpires: row.license_expires,
  }
}

/** A new workspace, owned by the user who creates it. */
export async function createWorkspace(db: Db, userId: number, name: string) {
  return inTransaction(db, async (trx) => {
    const now = nowIso()
    const row = await trx
      .insertInto('workspaces')
      .values({ user_id: userId, name, vpn_profile_uuid: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    await addOwner(trx, row.id, userId, now)
    return row.id
  })
}

const withRole = (db: Db, userId: number) =>
  db
    .selectFrom('workspaces')
    .innerJoin('workspace_members as wm', (j) => j.onRef('wm.workspace_id', '=', 'workspaces.id').on('wm.user_id', '=', userId))
    .selectAll('workspaces')
    .select(sql<Role>`wm.role`.as('role'))

/** Every workspace the user belongs to, with the user's role in it, newest first. */
export const listWorkspaces = (db: Db, userId: number) => withRole(db, userId).orderBy('workspaces.id', 'desc').execute()

/** A workspace the user belongs to, with the user's role; undefined for any other. */
export const getWorkspace = (db: Db, userId: number, id: number) => withRole(db, userId).where('workspaces.id', '=', id).executeTakeFirst()

export const userExists = async (db: Db, userId: number) =>
  !!(await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst())

export async function setActiveWorkspace(db: Db, userId: number, workspaceId: number) {
  await db.updateTable('users').set({ active_workspace_id: workspaceId }).where('id', '=', userId).execute()
}

/** Revokes the active keys whose stored 12-character prefix is exactly `prefix`. */
export const revokeKeysByPrefix = (db: Db, prefix: string): Promise<number> => revokeActiveKeys(db, 'key_prefix', prefix)

/** Every workspace of the instance with its owners' names and its number of members (instance admins). */
export async function listAllWorkspaces(
  db: Db,
): Promise<Array<{ id: number; name: string; created_at: string; owners: string[]; members: number }>> {
  const [rows, members] = await Promise.all([
    db.selectFrom('workspaces').select(['id', 'name', 'created_at']).orderBy('id').execute(),
    db
      .selectFrom('workspace_members as wm')
      .innerJoin('users', 'users.id', 'wm.user_id')
      .select(['wm.workspace_id', 'wm.role', 'users.name'])
      .orderBy('users.name')
      .execute(),
  ])
  return rows.map((w) => {
    const mine = members.filter((m) => m.workspace_id === w.id)
    return { ...w, owners: mine.filter((m) => m.role === 'owner').map((m) => m.name), members: mine.length }
  })
}
