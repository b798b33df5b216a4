// VPN profiles: per-user connection settings of a network egress (SOCKS5 or HTTP CONNECT proxy).
// Credentials live in their own columns (never inside `url`), so reads can leave them out by column.
import type { Kysely } from 'kysely'
import type { DbKind } from './columns.js'

export const m003VpnProfiles = (_kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('vpn_profiles')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('username', 'text')
      .addColumn('password', 'text')
      // http_connect: the proxy URL without credentials (http://host:port or https://host:port); null for socks5.
      .addColumn('url', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('vpn_profiles_user_name', ['user_id', 'name'])
      .execute()
    await db.schema.createIndex('scans_vpn_profile').on('scans').columns(['vpn_profile_uuid', 'status']).execute()
    await db.schema.createIndex('workspaces_vpn_profile').on('workspaces').columns(['vpn_profile_uuid']).execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('workspaces_vpn_profile').execute()
    await db.schema.dropIndex('scans_vpn_profile').execute()
    await db.schema.dropTable('vpn_profiles').execute()
  },
})
