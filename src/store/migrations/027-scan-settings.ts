// Saved scan settings: a named set of one tool's parameters in a workspace ("Weekly deep scan,
// authenticated"), from which scans and schedules start. Credentials among the parameters are
// stored sealed, as in scans.tool_params.
import type { Kysely } from 'kysely'
import { idColumn, type DbKind } from './columns.js'

export const m027ScanSettings = (kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await idColumn(kind, db.schema.createTable('scan_settings'))
      .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('tool_id', 'integer', (c) => c.notNull())
      .addColumn('tool_params', 'text', (c) => c.notNull())
      .addColumn('max_scan_time', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('scan_settings_workspace').on('scan_settings').columns(['workspace_id', 'id']).execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('scan_settings').execute()
  },
})
