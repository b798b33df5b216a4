// The JSON output of a scan (GET /scans/{id}/output and JSON report callbacks share it).
import type { Db } from '../store/db.js'
import type { ScanRow } from '../store/schema.js'
import { scanFindings } from '../store/results.js'
import { findingView } from './finding-view.js'

export async function scanOutputJson(
  db: Db,
  s: ScanRow,
): Promise<{ output_type: 'finding_list'; output_data: Record<string, unknown> & { findings: ReturnType<typeof findingView>[] } }> {
  const findings = (await scanFindings(db, s.id)).map(findingView)
  const extra = s.output_data ? (JSON.parse(s.output_data) as Record<string, unknown>) : {}
  return { output_type: 'finding_list', output_data: { ...extra, findings } }
}
