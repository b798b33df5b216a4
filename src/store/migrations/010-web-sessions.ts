// The web interface: a password per user (scrypt, see domain/passwords.ts), a one-time set-password
// link, and sessions. Session ids and link tokens are stored only as SHA-256 hashes.
import type { Kysely } from 'kysely'
import type { DbKind } from './columns.js'

export const m010WebSessions = (_kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('password_hash', 'text').execute()
    await db.schema.alterTable('users').addColumn('password_link_hash', 'text').execute()
    await db.schema.alterTable('users').addColumn('password_link_expires', 'text').execute()
    await db.schema
      .createTable('web_sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('csrf', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('web_sessions_user').on('web_sessions').column('user_id').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('web_sessions').execute()
    for (const c of ['password_link_expires', 'password_link_hash', 'password_hash'])
      await db.schema.alterTable('users').dropColumn(c).execute()
  },
})
