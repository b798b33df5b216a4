// Report-callback outbox (deliveries + their attempts), finding history per duplicate group, and the
// CVE ids imported from the official CISA KEV feed.
import type { Kysely } from 'kysely'
import { idColumn, type DbKind } from './columns.js'

export const m002CallbacksHistory = (kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await idColumn(kind, db.schema.createTable('callback_deliveries'))
      // One delivery per scan: the unique key makes a second terminal insert impossible.
      .addColumn('scan_id', 'integer', (c) => c.notNull().unique().references('scans.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull().unique())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) => c.notNull())
      .addColumn('secret', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('last_status_code', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('delivered_at', 'text')
      .execute()
    await db.schema.createIndex('callback_deliveries_due').on('callback_deliveries').columns(['status', 'next_attempt_at']).execute()

    await idColumn(kind, db.schema.createTable('callback_attempts'))
      .addColumn('delivery_id', 'integer', (c) => c.notNull().references('callback_deliveries.id').onDelete('cascade'))
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('callback_attempts_delivery').on('callback_attempts').columns(['delivery_id', 'attempt']).execute()

    // A duplicate group is (workspace_id, dedup_key); its history outlives any single finding.
    await idColumn(kind, db.schema.createTable('finding_history'))
      .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('dedup_key', 'text', (c) => c.notNull())
      .addColumn('finding_id', 'integer')
      .addColumn('field', 'text', (c) => c.notNull())
      .addColumn('old_value', 'text')
      .addColumn('new_value', 'text')
      .addColumn('reason', 'text')
      .addColumn('user_id', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('finding_history_group').on('finding_history').columns(['workspace_id', 'dedup_key', 'id']).execute()

    await db.schema
      .createTable('kev_cves')
      .addColumn('cve', 'text', (c) => c.primaryKey())
      .addColumn('imported_at', 'text', (c) => c.notNull())
      .execute()
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['kev_cves', 'finding_history', 'callback_attempts', 'callback_deliveries']) await db.schema.dropTable(t).execute()
  },
})
