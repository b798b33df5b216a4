// Indexes for the list routes measured by bench/api-load.ts (query plans checked with EXPLAIN QUERY
// PLAN / EXPLAIN on the 1M-finding seed): GET /scans/{id}/output and the PDF report read a scan's
// findings by risk (desc) then id, which this index serves without a sort. Duplicate grouping needs
// no new index: it probes findings_dedup (dedup_key, id) of 001, covering.
// Fewer is better here: on SQLite an index without statistics in an ANALYZEd database looks more
// selective than it is, and (workspace_id, risk_level, id) drew the workspace lists into a sort.
import type { Kysely } from 'kysely'
import { analyzeNewIndexes, type DbKind } from './columns.js'

export const m004PerfIndexes = (kind: DbKind) => ({
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('findings_scan_risk').on('findings').columns(['scan_id', 'risk_level', 'id']).execute()
    await analyzeNewIndexes(kind, db, ['findings_scan_risk'])
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('findings_scan_risk').execute()
  },
})
