// The body of each report-callback delivery, built once at its first attempt, so every retry sends
// the same bytes (a PDF rebuilt later would differ in its timestamps and object ids).
import type { Kysely } from 'kysely'
import type { DbKind } from './columns.js'

export const m006CallbackBodies = (kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('callback_bodies')
      .addColumn('delivery_id', 'integer', (c) => c.primaryKey().references('callback_deliveries.id').onDelete('cascade'))
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('body', kind === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('callback_bodies').execute()
  },
})
