// Instance administration: an admin flag and a disabled mark on users (the first user becomes the
// admin, as a new installation's first user does), and the reason a schedule was paused by Ward
// itself rather than by a person (its creator can no longer start scans in the workspace).
import { sql, type Kysely } from 'kysely'
import type { DbKind } from './columns.js'

export const m026InstanceAdmins = (_kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    // Set when an admin disables the user: their keys and sessions stop working; null when enabled.
    await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute()
    await sql`UPDATE users SET is_admin = 1 WHERE id = (SELECT MIN(id) FROM users)`.execute(db)
    await db.schema.alterTable('schedules').addColumn('paused_reason', 'text').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('schedules').dropColumn('paused_reason').execute()
    await db.schema.alterTable('users').dropColumn('disabled_at').execute()
    await db.schema.alterTable('users').dropColumn('is_admin').execute()
  },
})
