// Single sign-on: which provider account (issuer + subject) is which Ward user, and which workspace
// memberships the group mapping granted (only those it may later change or take away).
import type { Kysely } from 'kysely'
import type { DbKind } from './columns.js'

export const m025OidcIdentities = (_kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_identities')
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_sign_in_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_identities_pk', ['issuer', 'subject'])
      .execute()
    await db.schema.createIndex('user_identities_user').on('user_identities').column('user_id').execute()
    // Tied to the membership: removed by hand, it is no longer the mapping's to manage.
    await db.schema
      .createTable('sso_memberships')
      .addColumn('workspace_id', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('granted_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('sso_memberships_pk', ['workspace_id', 'user_id'])
      .addForeignKeyConstraint(
        'sso_memberships_member',
        ['workspace_id', 'user_id'],
        'workspace_members',
        ['workspace_id', 'user_id'],
        (f) => f.onDelete('cascade'),
      )
      .execute()
    await db.schema.createIndex('sso_memberships_user').on('sso_memberships').columns(['user_id', 'workspace_id']).execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sso_memberships').execute()
    await db.schema.dropTable('user_identities').execute()
  },
})
