// Shared API rate-limit counters for scaled-out deployments (used on PostgreSQL; harmless on SQLite).
import type { Kysely } from 'kysely'
import type { DbKind } from './columns.js'

export const m005RateLimits = (_kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      // Epoch milliseconds when the window ends (bigint: past 2^31).
      .addColumn('reset_at', 'bigint', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('rate_limits_reset').on('rate_limits').column('reset_at').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rate_limits').execute()
  },
})
