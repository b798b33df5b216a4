// What a caller's role in a workspace lets them do, in the answers of decisions.md: a workspace the
// caller does not belong to does not exist for them (404, like an unknown id); a viewer may read and
// download, and any change they ask for is refused (403) before anything is written.
import type { Db } from '../store/db.js'
import type { Caller } from '../store/accounts.js'
import { getWorkspace } from '../store/accounts.js'
import { OWNER_ROLES, WRITER_ROLES, type MemberChange, type Role } from '../store/members.js'
import type { UserChange } from '../store/instance-admin.js'
import { audited, type AuditIntent, type AuditOutcome } from '../store/audit.js'
import { conflict, forbidden, notFound, type WardError } from './errors.js'

export const canWrite = (role: Role | null | undefined) => !!role && WRITER_ROLES.includes(role)
export const isOwner = (role: Role | null | undefined) => !!role && OWNER_ROLES.includes(role)

export const viewerRefused = () => forbidden('Your role in this workspace is viewer, which allows reading and downloading only')
export const notOwner = () => forbidden('Only an owner of this workspace can manage its members or delete it')

/** The workspace for a change: 404 unless the caller belongs to it, 403 for a viewer. */
export async function writableWorkspace(db: Db, caller: Pick<Caller, 'userId'>, workspaceId: number) {
  const ws = await getWorkspace(db, caller.userId, workspaceId)
  if (!ws) throw notFound('Workspace')
  if (!canWrite(ws.role)) throw viewerRefused()
  return ws
}

/**
 * Why a change found nothing to change (its query carries the caller's writer roles): the caller can
 * still read the object, so their role refused it (403), or they cannot (404, like an unknown id).
 */
export async function refusal(readable: Promise<unknown>, what: string): Promise<WardError> {
  return (await readable) ? viewerRefused() : notFound(what)
}

/** A store change on item `id` made as `userId` (its query carries the user's writer roles). */
export type ItemChange<T> = (trx: Db, userId: number, id: number) => Promise<T>

/**
 * Runs `change` as `userId` on item `id`, with its audit entry when `outcome` says it was done. When
 * it found nothing to change (it gave `missing` or, without it, was not done) the answer is what
 * `refused` says: the caller's role refused it, or (see refusal) the item is not theirs.
 */
export async function changeAs<T>(
  db: Db,
  audit: AuditIntent | undefined,
  userId: number,
  id: number,
  change: ItemChange<T>,
  outcome: (r: T) => AuditOutcome,
  refused: () => WardError | Promise<WardError>,
  missing?: T,
): Promise<T> {
  const r = await audited(db, audit, (trx) => change(trx, userId, id), outcome)
  if (missing === undefined ? !outcome(r) : r === missing) throw await refused()
  return r
}

/** The answer to a change of membership that did not happen, by outcome (a table: a new outcome fails the typecheck). */
const MEMBER_CHANGE_ERRORS: Record<Exclude<MemberChange, 'done'>, (missingUser: string) => WardError> = {
  missing: () => notFound('Workspace'),
  forbidden: () => notOwner(),
  'no-user': (missingUser) => notFound(missingUser),
  exists: () => conflict('That user is already a member of this workspace'),
  'last-owner': () => conflict('A workspace always keeps an owner: make another member an owner first'),
  running: () => conflict('A scan of this workspace is running: stop it first'),
}

/** The answer to a change of membership that did not happen (null when it did). */
export const memberChangeError = (r: MemberChange, missingUser: string): WardError | null =>
  r === 'done' ? null : MEMBER_CHANGE_ERRORS[r](missingUser)

export const notAdmin = () => forbidden('Only an instance admin can do this')

const USER_CHANGE_ERRORS: Record<Exclude<UserChange, 'done' | 'unchanged'>, () => WardError> = {
  missing: () => notFound('User'),
  self: () => conflict('You cannot disable yourself: another admin, or `ward admin user disable`, can'),
  'last-admin': () => conflict('The instance always keeps an enabled admin: make someone else an admin first'),
}

/** The answer to a change of a user by an admin that did not happen (null when it did, or changed nothing). */
export const userChangeError = (r: UserChange): WardError | null => (r === 'done' || r === 'unchanged' ? null : USER_CHANGE_ERRORS[r]())
