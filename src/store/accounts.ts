// Users, API keys and workspaces. Keys are stored only as SHA-256 hashes.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Db } from './db.js'
import { nowIso } from './time.js'

export interface Caller {
  userId: number
  keyHash: string
  activeWorkspaceId: number
  maxTargets: number
  licenseExpires: string | null
}

export const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex')
/** 192 random bits, URL-safe. */
export const newApiKey = () => 'ward_' + randomBytes(24).toString('base64url')
export const keyPrefix = (key: string) => key.slice(0, 12)

export async function createUser(db: Db, u: { name: string; maxTargets: number; licenseExpires?: string | null; apiKey?: string }) {
  return db.transaction().execute(async (trx) => {
    const now = nowIso()
    const user = await trx
      .insertInto('users')
      .values({ name: u.name, max_targets: u.maxTargets, license_expires: u.licenseExpires ?? null, active_workspace_id: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    const ws = await trx.insertInto('workspaces').values({ user_id: user.id, name: 'Default', vpn_profile_uuid: null, created_at: now }).returning('id').executeTakeFirstOrThrow()
    await trx.updateTable('users').set({ active_workspace_id: ws.id }).where('id', '=', user.id).execute()
    const key = u.apiKey ?? newApiKey()
    await trx.insertInto('api_keys').values({ user_id: user.id, key_hash: hashKey(key), key_prefix: keyPrefix(key), created_at: now, revoked_at: null }).execute()
    return { userId: user.id, workspaceId: ws.id, apiKey: key }
  })
}

export async function createApiKey(db: Db, userId: number): Promise<string | null> {
  const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()
  if (!user) return null
  const key = newApiKey()
  await db.insertInto('api_keys').values({ user_id: userId, key_hash: hashKey(key), key_prefix: keyPrefix(key), created_at: nowIso(), revoked_at: null }).execute()
  return key
}

export async function revokeKeysByPrefix(db: Db, prefix: string): Promise<number> {
  const r = await db.updateTable('api_keys').set({ revoked_at: nowIso() }).where('key_prefix', '=', prefix).where('revoked_at', 'is', null).executeTakeFirst()
  return Number(r.numUpdatedRows)
}

export const countUsers = async (db: Db) => Number((await db.selectFrom('users').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)

export const callerByKey = (db: Db, key: string) => callerByKeyHash(db, hashKey(key))

export async function callerByKeyHash(db: Db, keyHash: string): Promise<Caller | null> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select(['api_keys.key_hash', 'users.id as user_id', 'users.active_workspace_id', 'users.max_targets', 'users.license_expires'])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst()
  // The lookup is by hash; the constant-time compare keeps the final decision free of timing leaks.
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(keyHash, 'hex'))) return null
  return { userId: row.user_id, keyHash, activeWorkspaceId: row.active_workspace_id ?? 0, maxTargets: row.max_targets, licenseExpires: row.license_expires }
}

export async function createWorkspace(db: Db, userId: number, name: string) {
  const row = await db.insertInto('workspaces').values({ user_id: userId, name, vpn_profile_uuid: null, created_at: nowIso() }).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export const listWorkspaces = (db: Db, userId: number) => db.selectFrom('workspaces').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute()

export const getWorkspace = (db: Db, userId: number, id: number) =>
  db.selectFrom('workspaces').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()

export const userExists = async (db: Db, userId: number) => !!(await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst())

export async function setActiveWorkspace(db: Db, userId: number, workspaceId: number) {
  await db.updateTable('users').set({ active_workspace_id: workspaceId }).where('id', '=', userId).execute()
}
