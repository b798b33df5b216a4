// Secrets a scan found (a password the Password Auditor guessed): kept sealed (store/secret-box.ts),
// never returned by the API nor put in any report; only their masked form is in findings and output.
import type { Kysely } from 'kysely'
import { idColumn, type DbKind } from './columns.js'

export const m018ScanSecrets = (kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await idColumn(kind, db.schema.createTable('scan_secrets'))
      .addColumn('scan_id', 'integer', (c) => c.notNull().references('scans.id').onDelete('cascade'))
      // What the secret opens, without the secret: "ssh 127.0.0.1:22 root".
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('sealed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('scan_secrets_scan').on('scan_secrets').column('scan_id').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('scan_secrets').execute()
  },
})
