// Templates in the community's YAML check format (nuclei's): imported by the operator
// (`ward admin templates import`) or shipped with Ward. The YAML text is kept whole (the engine loads
// it in workers); the info fields are columns so the API can filter without parsing YAML.
import type { Kysely } from 'kysely'
import type { DbKind } from './columns.js'

export const m016Templates = (_kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('templates')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('file_path', 'text', (c) => c.notNull())
      .addColumn('content_hash', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('author', 'text', (c) => c.notNull()) // JSON array
      .addColumn('severity', 'text', (c) => c.notNull())
      // ',a,b,' so one tag is found with LIKE '%,a,%' on both databases.
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('reference', 'text', (c) => c.notNull()) // JSON array
      .addColumn('remediation', 'text', (c) => c.notNull())
      .addColumn('classification', 'text', (c) => c.notNull()) // JSON object
      .addColumn('protocol', 'text', (c) => c.notNull())
      .addColumn('yaml', 'text', (c) => c.notNull())
      // Payload files the template names, read from the imported tree: JSON {path: text}.
      .addColumn('files', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull()) // 'shipped' | 'imported'
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('templates_by_severity').on('templates').column('severity').execute()
    await db.schema.createIndex('templates_by_protocol').on('templates').column('protocol').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('templates').execute()
  },
})
