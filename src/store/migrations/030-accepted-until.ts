// An accepted risk can carry an expiry date (`accepted_until`, YYYY-MM-DD): the day after it, the
// worker re-opens the group (store/finding-history.ts). A partial index keeps that daily look small:
// only findings accepted with a date are in it.
import { sql, type Kysely } from 'kysely'

export const m030AcceptedUntil = () => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('findings').addColumn('accepted_until', 'text').execute()
    await db.schema
      .createIndex('findings_accepted_until')
      .on('findings')
      .column('accepted_until')
      .where(sql.ref('accepted_until'), 'is not', null)
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('findings_accepted_until').execute()
    await db.schema.alterTable('findings').dropColumn('accepted_until').execute()
  },
})
