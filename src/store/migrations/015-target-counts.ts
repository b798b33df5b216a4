// Writes that stay flat as the tables grow: POST /targets checked the user's target limit
// with COUNT(*) over the user's targets, a scan of up to 100k index entries per request. The count is
// now kept on the user's row, changed in the transaction that inserts or deletes a target.
import { sql, type Kysely } from 'kysely'
import type { DbKind } from './columns.js'

export const m015TargetCounts = (_kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('target_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await sql`UPDATE users SET target_count = (SELECT COUNT(*) FROM targets WHERE targets.user_id = users.id)`.execute(db)
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').dropColumn('target_count').execute()
  },
})
