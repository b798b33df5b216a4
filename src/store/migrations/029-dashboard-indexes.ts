// The dashboard (and /dashboard/live, polled every 3 s while a scan runs) counted open findings by
// severity and findings per day by reading every finding of the workspace through findings_workspace
// (workspace_id, id) and its table row: 1.1–1.6 s with 72k findings on SQLite. Two indexes answer
// both from the index alone:
// - findings_open: (workspace_id, status, risk_level, id, dedup_key). The open-findings count reads
//   only the workspace's open entries, dedup_key included. `id` before dedup_key, not after: the
//   lists filtered by status and risk (GET /findings, the web list) walk it in id order with no
//   sort, where (…, risk_level, dedup_key) drew them into sorting every match.
// - findings_created: (workspace_id, created_at, risk_level), the chart's range of the last 30 days.
// Counts are read, not kept: no write path changes, nothing to get out of step.
import type { Kysely } from 'kysely'
import { analyzeNewIndexes, type DbKind } from './columns.js'

export const m029DashboardIndexes = (kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('findings_open')
      .on('findings')
      .columns(['workspace_id', 'status', 'risk_level', 'id', 'dedup_key'])
      .execute()
    await db.schema.createIndex('findings_created').on('findings').columns(['workspace_id', 'created_at', 'risk_level']).execute()
    await analyzeNewIndexes(kind, db, ['findings_open', 'findings_created'])
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('findings_created').execute()
    await db.schema.dropIndex('findings_open').execute()
  },
})
