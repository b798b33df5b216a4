// What every migration shares. Kept apart from index.ts, which imports every migration, so no
// migration imports the list it is part of.
import { sql, type CreateTableBuilder, type Kysely } from 'kysely'

export type DbKind = 'sqlite' | 'postgres'

/** An auto-increment integer primary key in either dialect. */
export function idColumn<T extends string, C extends string>(kind: DbKind, t: CreateTableBuilder<T, C>): CreateTableBuilder<T, C | 'id'> {
  return kind === 'postgres'
    ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
}

/**
 * SQLite: gives new indexes statistics when the others have some (an ANALYZEd database), so the
 * planner weighs them fairly; an index without statistics there looks more selective than it is.
 * PostgreSQL keeps its statistics per column, which a new plain index does not change.
 */
export async function analyzeNewIndexes(kind: DbKind, db: Kysely<unknown>, names: readonly string[]): Promise<void> {
  if (kind !== 'sqlite') return
  const stat = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'sqlite_stat1'`.execute(db)
  if (!Number(stat.rows[0]?.n)) return
  for (const name of names) await sql`ANALYZE ${sql.id(name)}`.execute(db)
}
