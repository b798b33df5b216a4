// Continuous monitoring: schedules and their runs (one row per fired or skipped slot), the schedule
// that queued a scan, and the life cycle of each duplicate group of findings.
import type { Kysely } from 'kysely'
import { idColumn, type DbKind } from './columns.js'

export const m011Monitoring = (kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await idColumn(kind, db.schema.createTable('schedules'))
      .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      // Exactly one of target_id (one target) and target_type (every target of that type in the workspace).
      .addColumn('target_id', 'integer', (c) => c.references('targets.id').onDelete('cascade'))
      .addColumn('target_type', 'text')
      .addColumn('tool_id', 'integer', (c) => c.notNull())
      .addColumn('tool_params', 'text', (c) => c.notNull())
      .addColumn('max_scan_time', 'integer', (c) => c.notNull())
      .addColumn('vpn_profile_uuid', 'text')
      .addColumn('report_callback', 'text')
      .addColumn('cron', 'text')
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('interval_minutes', 'integer')
      .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_run_at', 'text', (c) => c.notNull())
      .addColumn('last_run_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('schedules_due').on('schedules').columns(['paused', 'next_run_at']).execute()
    await db.schema.createIndex('schedules_user').on('schedules').columns(['user_id', 'workspace_id', 'id']).execute()

    // The unique slot makes a second firing of the same slot impossible, whatever the claim did.
    await idColumn(kind, db.schema.createTable('schedule_runs'))
      .addColumn('schedule_id', 'integer', (c) => c.notNull().references('schedules.id').onDelete('cascade'))
      .addColumn('slot_at', 'text', (c) => c.notNull())
      .addColumn('fired_at', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('scan_ids', 'text', (c) => c.notNull())
      .addColumn('message', 'text')
      .addColumn('worker_id', 'text')
      .addUniqueConstraint('schedule_runs_slot', ['schedule_id', 'slot_at'])
      .execute()

    await db.schema.alterTable('scans').addColumn('schedule_id', 'integer').execute()
    await db.schema.createIndex('scans_schedule').on('scans').columns(['schedule_id', 'id']).execute()
    await db.schema.createIndex('scans_target_tool').on('scans').columns(['target_id', 'tool_id', 'id']).execute()

    // One row per duplicate group (workspace, dedup_key): when it was first and last seen, and
    // whether a later complete scan of the same target and tool found it gone.
    await idColumn(kind, db.schema.createTable('finding_groups'))
      .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('dedup_key', 'text', (c) => c.notNull())
      .addColumn('target_id', 'integer', (c) => c.notNull())
      .addColumn('tool_id', 'integer', (c) => c.notNull())
      .addColumn('first_seen', 'text', (c) => c.notNull())
      .addColumn('last_seen', 'text', (c) => c.notNull())
      .addColumn('first_scan_id', 'integer', (c) => c.notNull())
      .addColumn('last_scan_id', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('regression', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('fixed_at', 'text')
      .addColumn('fixed_scan_id', 'integer')
      .addUniqueConstraint('finding_groups_key', ['workspace_id', 'dedup_key'])
      .execute()
    await db.schema.createIndex('finding_groups_target').on('finding_groups').columns(['target_id', 'tool_id', 'state']).execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('finding_groups').execute()
    await db.schema.dropIndex('scans_target_tool').execute()
    await db.schema.dropIndex('scans_schedule').execute()
    await db.schema.alterTable('scans').dropColumn('schedule_id').execute()
    await db.schema.dropTable('schedule_runs').execute()
    await db.schema.dropTable('schedules').execute()
  },
})
