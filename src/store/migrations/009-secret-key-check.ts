// Secrets at rest: one row naming the key that seals this database's secrets, and a value sealed
// with it, so a process started with another key stops with a clear error instead of failing on
// (or, worse, writing beside) values it cannot read. Filled at the first start (store/secrets.ts).
import type { Kysely } from 'kysely'
import type { DbKind } from './columns.js'

export const m009SecretKeyCheck = (_kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('secret_key_check')
      // Always 1: a single row.
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('sealed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('secret_key_check').execute()
  },
})
