// The fair queue (store/queue.ts) counts running scans per workspace and takes the oldest waiting
// scan of each workspace: one index answers both without reading a workspace's history. And the worker's estimate of when a running scan
// will end (`eta_at`), from which the API shows `eta_seconds`.
import type { Kysely } from 'kysely'

export const m008QueueEta = () => ({
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('scans_workspace_status').on('scans').columns(['status', 'workspace_id', 'id']).execute()
    await db.schema.alterTable('scans').addColumn('eta_at', 'text').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('scans').dropColumn('eta_at').execute()
    await db.schema.dropIndex('scans_workspace_status').execute()
  },
})
