// One-time invitations to a workspace, and the audit log: who did what, when, from where.
import type { Kysely } from 'kysely'
import { idColumn, type DbKind } from './columns.js'

export const m020InvitationsAudit = (kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await idColumn(kind, db.schema.createTable('workspace_invitations'))
      .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      // SHA-256 of the link's random token: the token itself is shown once and never stored.
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('used_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('revoked_at', 'text')
      .execute()
    await db.schema.createIndex('workspace_invitations_ws').on('workspace_invitations').columns(['workspace_id', 'id']).execute()
    // Append-only: no foreign keys, so an entry outlives the user, key or workspace it names.
    await idColumn(kind, db.schema.createTable('audit_log'))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('workspace_id', 'integer')
      .addColumn('actor_user_id', 'integer')
      // The user's name, "key ward_abc1234" (the key's stored prefix) after it, or "system".
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('client', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('object_type', 'text')
      .addColumn('object_id', 'text')
      // What changed, as JSON: chosen fields only, never a password, key, token or tool parameter.
      .addColumn('details', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('audit_log_ws').on('audit_log').columns(['workspace_id', 'id']).execute()
    await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at']).execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('audit_log').execute()
    await db.schema.dropTable('workspace_invitations').execute()
  },
})
