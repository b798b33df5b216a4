// Single sign-on accounts. A provider account (issuer + subject) is one Ward user, created at its first
// sign-in — never matched to an existing user by name or email, which the provider's users could
// choose. And the memberships the group mapping grants: added, changed or taken away at each sign-in;
// a membership an owner added by hand is never touched, and a workspace always keeps an owner.
import { sql, type Transaction } from 'kysely'
import { inTransaction, type Db } from './db.js'
import type { Database } from './schema.js'
import { insertUser } from './accounts.js'
import { ownersLeft, type Role } from './members.js'
import { nowIso } from './time.js'

type Trx = Transaction<Database>

export interface SsoUser {
  userId: number
  name: string
  created: boolean
}

const linked = (db: Db | Trx, issuer: string, subject: string) =>
  db
    .selectFrom('user_identities')
    .innerJoin('users', 'users.id', 'user_identities.user_id')
    .select(['users.id', 'users.name'])
    .where('user_identities.issuer', '=', issuer)
    .where('user_identities.subject', '=', subject)
    .executeTakeFirst()

/** A name no user has yet (compared case-insensitively): `name`, else `name-2`, `name-3`, ... */
async function freeName(trx: Trx, name: string): Promise<string> {
  const candidates = [name, ...Array.from({ length: 49 }, (_, i) => `${name}-${i + 2}`)]
  const taken = new Set(
    (
      await trx
        .selectFrom('users')
        .select(sql<string>`lower(name)`.as('n'))
        .where(
          sql<string>`lower(name)`,
          'in',
          candidates.map((c) => c.toLowerCase()),
        )
        .execute()
    ).map((r) => r.n),
  )
  return candidates.find((c) => !taken.has(c.toLowerCase())) ?? `${name}-${Date.now().toString(36)}`
}

/** The user of a provider account; created (with a Default workspace, without an API key) at the first sign-in. */
export async function userForIdentity(
  db: Db,
  issuer: string,
  subject: string,
  wanted: { name: string; maxTargets: number },
): Promise<SsoUser> {
  const found = await linked(db, issuer, subject)
  if (found) {
    await db
      .updateTable('user_identities')
      .set({ last_sign_in_at: nowIso() })
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .execute()
    return { userId: found.id, name: found.name, created: false }
  }
  try {
    return await db.transaction().execute(async (trx) => {
      const name = await freeName(trx, wanted.name)
      const u = await insertUser(trx, { name, maxTargets: wanted.maxTargets, apiKey: null })
      const now = nowIso()
      await trx
        .insertInto('user_identities')
        .values({ issuer, subject, user_id: u.userId, created_at: now, last_sign_in_at: now })
        .execute()
      return { userId: u.userId, name, created: true }
    })
  } catch (e) {
    // The same person's first sign-in in two tabs at once: the other one created the user.
    const other = await linked(db, issuer, subject)
    if (other) return { userId: other.id, name: other.name, created: false }
    throw e
  }
}

export interface GroupGrant {
  /** A workspace name, or `*` for every workspace. */
  workspace: string
  role: Role
}

export interface MembershipChange {
  workspaceId: number
  action: 'member.added' | 'member.changed' | 'member.removed'
  role: Role | null
}

const RANK: Record<Role, number> = { viewer: 1, member: 2, owner: 3 }

/** Workspace id → the highest role the grants give there. */
async function wantedRoles(trx: Trx, grants: readonly GroupGrant[]): Promise<Map<number, Role>> {
  const wanted = new Map<number, Role>()
  if (!grants.length) return wanted
  const names = [...new Set(grants.map((g) => g.workspace))]
  let q = trx.selectFrom('workspaces').select(['id', 'name'])
  if (!names.includes('*')) q = q.where('name', 'in', names)
  for (const ws of await q.execute())
    for (const g of grants) {
      if (g.workspace !== '*' && g.workspace !== ws.name) continue
      const had = wanted.get(ws.id)
      if (!had || RANK[g.role] > RANK[had]) wanted.set(ws.id, g.role)
    }
  return wanted
}

/** Locks the workspace's row (as members.ts does), then whether the user is its only owner. */
async function lastOwner(trx: Trx, workspaceId: number, role: string): Promise<boolean> {
  if (role !== 'owner') return false
  await trx.updateTable('workspaces').set({ name: sql`name` }).where('id', '=', workspaceId).execute()
  return (await ownersLeft(trx, workspaceId)) <= 1
}

/**
 * Brings the memberships the mapping manages for a user to what their groups grant now: adds the
 * missing ones, changes the role of those it granted, removes those it granted that no group grants
 * any more. Manual memberships stay as they are; a last owner is neither demoted nor removed.
 */
export function syncGroupMemberships(db: Db, userId: number, grants: readonly GroupGrant[]): Promise<MembershipChange[]> {
  return inTransaction(db, async (trx) => {
    const wanted = await wantedRoles(trx, grants)
    const rows = await trx
      .selectFrom('workspace_members as wm')
      .leftJoin('sso_memberships as s', (j) => j.onRef('s.workspace_id', '=', 'wm.workspace_id').onRef('s.user_id', '=', 'wm.user_id'))
      .select(['wm.workspace_id', 'wm.role', 's.granted_at'])
      .where('wm.user_id', '=', userId)
      .execute()
    const current = new Map(rows.map((r) => [r.workspace_id, { role: r.role, managed: r.granted_at !== null }]))
    const changes: MembershipChange[] = []
    const now = nowIso()
    for (const [workspaceId, role] of wanted) {
      const cur = current.get(workspaceId)
      if (!cur) {
        await trx.insertInto('workspace_members').values({ workspace_id: workspaceId, user_id: userId, role, added_at: now }).execute()
        await trx.insertInto('sso_memberships').values({ workspace_id: workspaceId, user_id: userId, granted_at: now }).execute()
        changes.push({ workspaceId, action: 'member.added', role })
      } else if (cur.managed && cur.role !== role && !(await lastOwner(trx, workspaceId, cur.role))) {
        await trx
          .updateTable('workspace_members')
          .set({ role })
          .where('workspace_id', '=', workspaceId)
          .where('user_id', '=', userId)
          .execute()
        changes.push({ workspaceId, action: 'member.changed', role })
      }
    }
    for (const [workspaceId, cur] of current) {
      if (!cur.managed || wanted.has(workspaceId) || (await lastOwner(trx, workspaceId, cur.role))) continue
      // The sso_memberships row goes with it (foreign key, on delete cascade).
      await trx.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute()
      changes.push({ workspaceId, action: 'member.removed', role: null })
    }
    if (changes.some((c) => c.action === 'member.removed')) await keepActiveWorkspace(trx, userId)
    return changes
  })
}

/** A user whose active workspace is no longer theirs gets the first one they still belong to. */
async function keepActiveWorkspace(trx: Trx, userId: number) {
  const u = await trx.selectFrom('users').select('active_workspace_id').where('id', '=', userId).executeTakeFirst()
  const mine = await trx
    .selectFrom('workspace_members')
    .select('workspace_id')
    .where('user_id', '=', userId)
    .orderBy('workspace_id')
    .execute()
  if (mine.some((m) => m.workspace_id === u?.active_workspace_id)) return
  await trx
    .updateTable('users')
    .set({ active_workspace_id: mine[0]?.workspace_id ?? null })
    .where('id', '=', userId)
    .execute()
}
