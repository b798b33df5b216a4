// Integrations (messages and tickets in the tools people work in) and their outbox: one delivery per
// event and integration, made unique by (integration_id, event_key) so a retry, a restart or a second
// worker can never enqueue or send an event twice; attempts are the delivery log; tickets remember
// which issue in the receiving system belongs to which duplicate group.
import type { Kysely } from 'kysely'
import { idColumn, type DbKind } from './columns.js'

export const m021Integrations = (kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await idColumn(kind, db.schema.createTable('integrations'))
      .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      // JSON; every secret member is sealed in place (store/secret-box.ts).
      .addColumn('config', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('min_risk', 'integer', (c) => c.notNull())
      .addColumn('only_changes', 'integer', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('integrations_workspace').on('integrations').columns(['workspace_id', 'enabled']).execute()

    await idColumn(kind, db.schema.createTable('integration_deliveries'))
      .addColumn('integration_id', 'integer', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
      // 'scan:<id>', 'schedule:<id>:<slot>', 'triage:<dedup key>:<time>', 'test:<uuid>'.
      .addColumn('event_key', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('scan_id', 'integer')
      .addColumn('ref', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('last_status_code', 'integer')
      .addColumn('last_error', 'text')
      // What the event says, built once at its first attempt: every retry sends the same content.
      .addColumn('payload', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('delivered_at', 'text')
      .addUniqueConstraint('integration_deliveries_event', ['integration_id', 'event_key'])
      .execute()
    await db.schema.createIndex('integration_deliveries_due').on('integration_deliveries').columns(['status', 'next_attempt_at']).execute()

    await idColumn(kind, db.schema.createTable('integration_attempts'))
      .addColumn('delivery_id', 'integer', (c) => c.notNull().references('integration_deliveries.id').onDelete('cascade'))
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('answer', 'text')
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('integration_attempts_delivery').on('integration_attempts').columns(['delivery_id', 'attempt']).execute()

    // One issue per (integration, duplicate group): the receiving system's id and key once known.
    await idColumn(kind, db.schema.createTable('integration_tickets'))
      .addColumn('integration_id', 'integer', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
      .addColumn('dedup_key', 'text', (c) => c.notNull())
      .addColumn('external_id', 'text', (c) => c.notNull())
      .addColumn('external_url', 'text')
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('integration_tickets_group', ['integration_id', 'dedup_key'])
      .execute()
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['integration_tickets', 'integration_attempts', 'integration_deliveries', 'integrations'])
      await db.schema.dropTable(t).execute()
  },
})
