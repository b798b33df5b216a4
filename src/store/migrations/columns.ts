// What every migration shares. Kept apart from index.ts, which imports every migration, so no
// migration imports the list it is part of.
import type { CreateTableBuilder } from 'kysely'

export type DbKind = 'sqlite' | 'postgres'

/** An auto-increment integer primary key in either dialect. */
// Migrations are written against no particular schema (a migration must not change meaning when the
// current schema does), hence Kysely's documented `any` for the database type here.
export function idColumn<T extends string>(kind: DbKind, t: CreateTableBuilder<T, any>): CreateTableBuilder<T, any> {
  return kind === 'postgres'
    ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
}
