// Indexes for the list routes measured by bench/api-load.ts (query plans checked with EXPLAIN QUERY
// PLAN / EXPLAIN on the 1M-finding seed): GET /scans/{id}/output and the PDF report read a scan's
// findings by risk (desc) then id, which this index serves without a sort. Duplicate grouping needs
// no new index: it probes findings_dedup (dedup_key, id) of 001, covering.
// Fewer is better here: on SQLite an index without statistics in an ANALYZEd database looks more
// selective than it is, and (workspace_id, risk_level, id) drew the workspace lists into a sort.
import { sql, type Kysely } from 'kysely'
import type { DbKind } from './columns.js'

export const m004PerfIndexes = (kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('findings_scan_risk').on('findings').columns(['scan_id', 'risk_level', 'id']).execute()
    if (kind === 'sqlite') {
      // Give the new index statistics when the others have some, so the planner weighs it fairly.
      const stat = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'sqlite_stat1'`.execute(db)
      if (Number(stat.rows[0]?.n)) await sql`ANALYZE findings_scan_risk`.execute(db)
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('findings_scan_risk').execute()
  },
})
