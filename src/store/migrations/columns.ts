// What every migration shares. Kept apart from index.ts, which imports every migration, so no
// migration imports the list it is part of.
import type { CreateTableBuilder } from 'kysely'

export type DbKind = 'sqlite' | 'postgres'

/** An auto-increment integer primary key in either dialect. */
export function idColumn<T extends string, C extends string>(kind: DbKind, t: CreateTableBuilder<T, C>): CreateTableBuilder<T, C | 'id'> {
  return kind === 'postgres'
    ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
}
