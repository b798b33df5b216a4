// Workspaces shared between people: who belongs to a workspace and with which role. Every existing
// workspace keeps its creator as its owner, so nobody loses access when this runs.
import { sql, type Kysely } from 'kysely'
import type { DbKind } from './columns.js'

export const m019WorkspaceMembers = (_kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('workspace_members')
      .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // 'owner' | 'member' | 'viewer'
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('added_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'user_id'])
      .execute()
    // Tenancy probes go from the caller to their workspaces: (user_id, workspace_id) answers them from the index alone.
    await db.schema.createIndex('workspace_members_user').on('workspace_members').columns(['user_id', 'workspace_id', 'role']).execute()
    await sql`insert into workspace_members (workspace_id, user_id, role, added_at) select id, user_id, 'owner', created_at from workspaces`.execute(
      db,
    )
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('workspace_members').execute()
  },
})
