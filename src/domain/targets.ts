// Target rules: type, block list, licence, per-user maximum, uniqueness (decisions.md).
import type { Db } from '../store/db.js'
import type { Caller } from '../store/accounts.js'
import { writableWorkspace } from './access.js'
import { countUserTargets, findTargetByKey, insertTargetWithinLimit } from '../store/targets.js'
import { classifyTarget } from './target-type.js'
import { hostBlockedBy, type Scope } from '../toolkit/scope.js'
import { badRequest, conflict, forbidden } from './errors.js'

export const MAX_DESCRIPTION = 4096

export function licenceValid(caller: Pick<Caller, 'licenseExpires'>, now = new Date()): boolean {
  if (!caller.licenseExpires) return true
  return now.toISOString().slice(0, 10) <= caller.licenseExpires
}

/** The workspace a target is created in, by id or the active one: 404 unless the caller belongs to it, 403 for a viewer. */
export async function resolveWorkspace(db: Db, caller: Caller, workspaceId: number | null | undefined): Promise<number> {
  return (await writableWorkspace(db, caller, workspaceId ?? caller.activeWorkspaceId)).id
}

export function checkDescription(description: unknown): string {
  if (description === undefined || description === null) return ''
  if (typeof description !== 'string') throw badRequest('description must be a string')
  if (description.length > MAX_DESCRIPTION) throw badRequest(`description must be at most ${MAX_DESCRIPTION} characters`)
  if (description.includes('\u0000')) throw badRequest('description must not contain NUL characters')
  return description
}

export interface TargetInput {
  name: unknown
  description?: unknown
  workspaceId?: number | null
}

/** 403 when the target's host (any spelling of an address, or a name) is outside the target scope. */
export function assertTargetInScope(scope: Scope, host: string): void {
  const rule = hostBlockedBy(scope, host)
  if (rule) throw forbidden(`Target is blacklisted: "${host.slice(0, 200)}" matches the block list entry "${rule.text}"`)
}

export async function createTarget(db: Db, caller: Caller, scope: Scope, input: TargetInput): Promise<{ id: number; created: true }> {
  const c = classifyTarget(input.name)
  if (!c.ok) throw badRequest(c.message)
  const description = checkDescription(input.description)
  const workspaceId = await resolveWorkspace(db, caller, input.workspaceId)
  if (!licenceValid(caller)) throw forbidden(`Your licence is invalid: it expired on ${caller.licenseExpires}`)
  assertTargetInScope(scope, c.host)
  const tooMany = () => forbidden(`Too many targets: the user's maximum of ${caller.maxTargets} targets is reached`)
  if ((await countUserTargets(db, caller.userId)) >= caller.maxTargets) throw tooMany()
  if (await findTargetByKey(db, workspaceId, c.nameKey)) throw conflict(`Target "${c.name.slice(0, 200)}" already exists in this workspace`)
  try {
    // The limit is checked again with the insert: concurrent creates cannot pass it together.
    const id = await insertTargetWithinLimit(
      db,
      { workspaceId, userId: caller.userId, name: c.name, nameKey: c.nameKey, type: c.type, description },
      caller.maxTargets,
    )
    if (id === null) throw tooMany()
    return { id, created: true }
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(`Target "${c.name.slice(0, 200)}" already exists in this workspace`)
    throw e
  }
}

/** The existing target of this name in the workspace, or a new one (POST /scans with target_name). */
export async function findOrCreateTarget(
  db: Db,
  caller: Caller,
  scope: Scope,
  name: unknown,
  workspaceId: number | null | undefined,
): Promise<number> {
  const c = classifyTarget(name)
  if (!c.ok) throw badRequest(c.message)
  const ws = await resolveWorkspace(db, caller, workspaceId)
  const existing = await findTargetByKey(db, ws, c.nameKey)
  if (existing) {
    // A target created before its range was blocked is not scanned either.
    assertTargetInScope(scope, c.host)
    return existing.id
  }
  try {
    return (await createTarget(db, caller, scope, { name, workspaceId: ws })).id
  } catch (e) {
    // Two scans naming the same new target at once: the one that lost the race to create it scans the winner's.
    const created = await findTargetByKey(db, ws, c.nameKey)
    if (created) return created.id
    throw e
  }
}

export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string }
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(err?.message ?? '')
}
