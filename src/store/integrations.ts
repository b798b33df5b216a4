// Integrations of a workspace. Tenancy is in every query: a row is reached only through a workspace
// the caller may manage. Config secrets are sealed here, on the way in, and opened only by
// `openIntegration` (the sender); reads for people return them sealed, and the views hide them.
import type { Db } from './db.js'
import type { IntegrationRow } from './schema.js'
import { nowIso } from './time.js'
import { memberWorkspaces, writableWorkspaces, type Role } from './members.js'
import { secretsOf } from './secrets.js'
import { ensureSealed } from './secret-box.js'
import { mapSecrets, type Config, type IntegrationType } from './integration-kinds.js'
import { newestPage } from './paging.js'

export interface IntegrationInput {
  workspace_id: number
  type: IntegrationType
  name: string
  config: Config
  events: readonly string[]
  min_risk: number
  only_changes: boolean
  enabled: boolean
}

/** Workspaces whose integrations the user changes: owners and members; every member reads them (secrets stay hidden). */
const managed = (db: Db, userId: number) => writableWorkspaces(db, userId)

const sealed = (db: Db, type: IntegrationType, c: Config) => JSON.stringify(mapSecrets(type, c, (v) => ensureSealed(secretsOf(db), v)))

export async function insertIntegration(db: Db, userId: number, i: IntegrationInput): Promise<number> {
  const now = nowIso()
  const row = await db
    .insertInto('integrations')
    .values({
      workspace_id: i.workspace_id,
      user_id: userId,
      type: i.type,
      name: i.name,
      config: sealed(db, i.type, i.config),
      events: JSON.stringify(i.events),
      min_risk: i.min_risk,
      only_changes: i.only_changes ? 1 : 0,
      enabled: i.enabled ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** An integration of a workspace the user belongs to (with one of `roles` when given). */
export const getIntegration = (db: Db, userId: number, id: number, roles?: readonly Role[]): Promise<IntegrationRow | undefined> =>
  db
    .selectFrom('integrations')
    .selectAll()
    .where('id', '=', id)
    .where('workspace_id', 'in', memberWorkspaces(db, userId, roles))
    .executeTakeFirst()

export function listIntegrations(
  db: Db,
  userId: number,
  o: { workspaceId?: number; limit: number; page: number },
): Promise<IntegrationRow[]> {
  let q = db.selectFrom('integrations').selectAll().where('workspace_id', 'in', memberWorkspaces(db, userId))
  if (o.workspaceId !== undefined) q = q.where('workspace_id', '=', o.workspaceId)
  return newestPage(q, o)
}

export type IntegrationChanges = Partial<Omit<IntegrationInput, 'workspace_id' | 'type'>>

export async function updateIntegration(
  db: Db,
  userId: number,
  id: number,
  type: IntegrationType,
  c: IntegrationChanges,
): Promise<boolean> {
  const set: Record<string, unknown> = { updated_at: nowIso() }
  if (c.name !== undefined) set.name = c.name
  if (c.config !== undefined) set.config = sealed(db, type, c.config)
  if (c.events !== undefined) set.events = JSON.stringify(c.events)
  if (c.min_risk !== undefined) set.min_risk = c.min_risk
  if (c.only_changes !== undefined) set.only_changes = c.only_changes ? 1 : 0
  if (c.enabled !== undefined) set.enabled = c.enabled ? 1 : 0
  const r = await db
    .updateTable('integrations')
    .set(set)
    .where('id', '=', id)
    .where('workspace_id', 'in', managed(db, userId))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function deleteIntegration(db: Db, userId: number, id: number): Promise<boolean> {
  const r = await db.deleteFrom('integrations').where('id', '=', id).where('workspace_id', 'in', managed(db, userId)).executeTakeFirst()
  return Number(r.numDeletedRows) === 1
}

/** The stored config, sealed (for merging a change into). */
export const storedConfig = (row: IntegrationRow): Config => JSON.parse(row.config) as Config

/** The row with its config opened: for the sender only, never for an answer. */
export function openIntegration(db: Db, row: IntegrationRow): IntegrationRow & { plain: Config } {
  const box = secretsOf(db)
  return { ...row, plain: mapSecrets(row.type as IntegrationType, storedConfig(row), (v) => box.open(v)) }
}

export const integrationById = (db: Db, id: number) => db.selectFrom('integrations').selectAll().where('id', '=', id).executeTakeFirst()
