// What each complete scan covered (toolkit/coverage.ts, JSON): a finding is closed only by a later
// complete scan that covered its location. Null for scans that ended short and for scans written
// before this migration (those count as complete when their status_message is empty, as before).
import type { Kysely } from 'kysely'
import type { DbKind } from './columns.js'

export const m013ScanCoverage = (_kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('scans').addColumn('coverage', 'text').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('scans').dropColumn('coverage').execute()
  },
})
