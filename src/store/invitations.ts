// One-time invitations to a workspace: a random token in a link, stored as its SHA-256 hash, with
// a role, valid for seven days, revocable by an owner, used at most once.
import { hashKey } from './accounts.js'
import { inTransaction, type Db } from './db.js'
import { memberWorkspaces, OWNER_ROLES, roleIn, type Role } from './members.js'
import { newToken } from './web-sessions.js'
import { isoAfter, nowIso } from './time.js'

export const INVITATION_DAYS = 7

/** A new invitation by an owner of the workspace: its id and the token (shown once); null unless the caller is an owner. */
export async function createInvitation(
  db: Db,
  callerId: number,
  workspaceId: number,
  role: Role,
): Promise<{ id: number; token: string } | null> {
  if ((await roleIn(db, callerId, workspaceId)) !== 'owner') return null
  const token = newToken()
  const row = await db
    .insertInto('workspace_invitations')
    .values({
      workspace_id: workspaceId,
      token_hash: hashKey(token),
      role,
      created_by: callerId,
      created_at: nowIso(),
      expires_at: isoAfter(INVITATION_DAYS * 86400_000),
      used_at: null,
      used_by: null,
      revoked_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, token }
}

/** Invitations still open (not used, revoked or expired) of a workspace the caller owns, newest first. */
export const openInvitations = (db: Db, callerId: number, workspaceId: number) =>
  db
    .selectFrom('workspace_invitations')
    .select(['id', 'role', 'created_at', 'expires_at'])
    .where('workspace_id', '=', workspaceId)
    .where('workspace_id', 'in', memberWorkspaces(db, callerId, OWNER_ROLES))
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', nowIso())
    .orderBy('id', 'desc')
    .execute()

export async function revokeInvitation(db: Db, callerId: number, workspaceId: number, id: number): Promise<boolean> {
  const r = await db
    .updateTable('workspace_invitations')
    .set({ revoked_at: nowIso() })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .where('workspace_id', 'in', memberWorkspaces(db, callerId, OWNER_ROLES))
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}

/** What an open invitation offers (for the page that shows it), or undefined when it cannot be used. */
export const invitationByToken = (db: Db, token: string) =>
  db
    .selectFrom('workspace_invitations')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_invitations.workspace_id')
    .select([
      'workspace_invitations.id',
      'workspace_invitations.workspace_id',
      'workspace_invitations.role',
      'workspaces.name as workspace_name',
    ])
    .where('token_hash', '=', hashKey(token))
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', nowIso())
    .executeTakeFirst()

/**
 * Uses an invitation for a user: one conditional UPDATE marks it used (two people opening the same
 * link cannot both join), then the user joins with its role — or keeps a higher role they already have.
 */
export async function acceptInvitation(
  db: Db,
  token: string,
  userId: number,
): Promise<{ id: number; workspaceId: number; role: Role } | null> {
  return inTransaction(db, async (trx) => {
    const now = nowIso()
    const inv = await trx
      .updateTable('workspace_invitations')
      .set({ used_at: now, used_by: userId })
      .where('token_hash', '=', hashKey(token))
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['id', 'workspace_id', 'role'])
      .executeTakeFirst()
    if (!inv) return null
    if (!(await roleIn(trx, userId, inv.workspace_id)))
      await trx
        .insertInto('workspace_members')
        .values({ workspace_id: inv.workspace_id, user_id: userId, role: inv.role, added_at: now })
        .execute()
    await trx.updateTable('users').set({ active_workspace_id: inv.workspace_id }).where('id', '=', userId).execute()
    return { id: inv.id, workspaceId: inv.workspace_id, role: inv.role as Role }
  })
}
