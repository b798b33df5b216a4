// Multi-row INSERTs sized from their column count: a statement binds rows × columns parameters, and
// each engine caps the parameters of one statement (SQLite 32,766 since 3.32; PostgreSQL 65,535,
// the wire protocol's 16-bit count). A fixed "1,000 rows per statement" breaks as soon as a table
// has more than 32 columns (findings have 33).
import { PostgresAdapter, type Insertable, type InsertQueryBuilder, type InsertResult, type Kysely, type Transaction } from 'kysely'
import type { Database } from './schema.js'

export const SQLITE_MAX_VARIABLES = 32_766
export const PG_MAX_PARAMETERS = 65_535

/** The parameter limit of the engine behind `db`. */
export function maxParameters(db: Kysely<Database> | Transaction<Database>): number {
  return db.getExecutor().adapter instanceof PostgresAdapter ? PG_MAX_PARAMETERS : SQLITE_MAX_VARIABLES
}

/** Splits rows into chunks of at most floor(limit / columnsPerRow) rows (SQLite's limit by default: safe on both). */
export function chunkRows<T>(rows: readonly T[], columnsPerRow: number, limit = SQLITE_MAX_VARIABLES): T[][] {
  if (!Number.isInteger(columnsPerRow) || columnsPerRow < 1)
    throw new RangeError(`columnsPerRow must be a positive integer, got ${columnsPerRow}`)
  const per = Math.floor(limit / columnsPerRow)
  if (per < 1) throw new RangeError(`a row of ${columnsPerRow} columns exceeds the limit of ${limit} parameters`)
  const out: T[][] = []
  for (let i = 0; i < rows.length; i += per) out.push(rows.slice(i, i + per))
  return out
}

/** Columns a multi-row INSERT of `rows` names: Kysely takes the union of the rows' keys. */
export function columnCount(rows: ReadonlyArray<object>): number {
  const cols = new Set<string>()
  for (const r of rows) for (const k of Object.keys(r)) cols.add(k)
  return Math.max(cols.size, 1)
}

type Table = keyof Database & string

/**
 * Inserts `rows` with as few statements as the engine's parameter limit allows. `each` finishes
 * every statement (e.g. an ON CONFLICT clause).
 */
export async function insertRows<T extends Table>(
  db: Kysely<Database> | Transaction<Database>,
  table: T,
  rows: ReadonlyArray<Insertable<Database[T]>>,
  each: (q: InsertQueryBuilder<Database, T, InsertResult>) => InsertQueryBuilder<Database, T, InsertResult> = (q) => q,
): Promise<void> {
  if (!rows.length) return
  for (const part of chunkRows(rows, columnCount(rows as ReadonlyArray<object>), maxParameters(db))) {
    await each(db.insertInto(table).values(part as Insertable<Database[T]>[])).execute()
  }
}
