// Rows a workspace owns and members edit in place (schedules, saved scan settings): read by any
// member (or one of `roles`), changed and deleted by writers only. One place states that tenancy
// rule and the created/updated stamps, so each repository only adds what is its own.
import type { Insertable, Selectable, Updateable } from 'kysely'
import { selectPrepared, type Db } from './db.js'
import type { Database } from './schema.js'
import { nowIso } from './time.js'
import { memberOf, memberWorkspaces, writableWorkspaces, type Role } from './members.js'

type Owned = 'schedules' | 'scan_settings'

/** Inserts a row stamped created and updated now; its id. */
export async function insertOwned<T extends Owned>(
  db: Db,
  table: T,
  values: Omit<Insertable<Database[T]>, 'created_at' | 'updated_at'>,
): Promise<number> {
  const now = nowIso()
  const row = await db
    .insertInto(table as Owned)
    .values({ ...values, created_at: now, updated_at: now } as Insertable<Database[Owned]>)
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** A row of a workspace the user belongs to (with one of `roles` when given). */
export const getOwned = <T extends Owned | 'scans' | 'targets'>(db: Db, table: T, userId: number, id: number, roles?: readonly Role[]) =>
  db
    .selectFrom(table as Owned)
    .selectAll()
    .where('id', '=', id)
    .where('workspace_id', 'in', memberWorkspaces(db, userId, roles))
    .executeTakeFirst() as Promise<Selectable<Database[T]> | undefined>

/** Changes a row of a workspace the user may write to, stamping updated_at; false when there is none. */
export async function updateOwned<T extends Owned>(
  db: Db,
  table: T,
  userId: number,
  id: number,
  set: Updateable<Database[T]>,
): Promise<boolean> {
  const r = await db
    .updateTable(table as Owned)
    .set({ ...set, updated_at: nowIso() } as Updateable<Database[Owned]>)
    .where('id', '=', id)
    .where('workspace_id', 'in', writableWorkspaces(db, userId))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Deletes a row of a workspace the user may write to; false when there is none. */
export async function deleteOwned(db: Db, table: Owned, userId: number, id: number): Promise<boolean> {
  const r = await db.deleteFrom(table).where('id', '=', id).where('workspace_id', 'in', writableWorkspaces(db, userId)).executeTakeFirst()
  return Number(r.numDeletedRows) === 1
}

/**
 * A scan or target by id in a workspace the user belongs to (with one of `roles` when given): the
 * hot reads by id, compiled once per table and roles (membership probed per row, see memberOf).
 */
export async function getMemberRow<T extends 'scans' | 'targets'>(
  db: Db,
  table: T,
  userId: number,
  id: number,
  roles?: readonly Role[],
): Promise<Selectable<Database[T]> | undefined> {
  // Kysely types a query by one table name; both tables have id and workspace_id.
  const t = table as 'scans'
  const rows = await selectPrepared(
    db,
    `${table}ById:${roles ?? ''}`,
    (arg) =>
      db
        .selectFrom(t)
        .selectAll()
        .where('id', '=', arg<number>(0))
        .where(memberOf(`${table}.workspace_id`, arg<number>(1), roles)),
    [id, userId],
    { hot: true },
  )
  return rows[0] as Selectable<Database[T]> | undefined
}
