// Stored rows → the resources of the spec (field names, units and formats of decisions.md).
import type { FindingRow, ScanRow, TestRow } from '../store/schema.js'
import { toApiTime } from '../store/time.js'
import type { ScanState } from '../store/scan-states.js'

import type { Static } from '@sinclair/typebox'
import type { TestRecord } from './schemas/scans.js'

type TestRecordStatus = Static<typeof TestRecord>['status']
type TestRecordResult = Static<typeof TestRecord>['result']
import { summaryText } from '../reports/risk.js'
import type { QueuePlace } from '../store/queue.js'
import { etaSeconds, waitingMessage } from '../domain/queue-message.js'
export { ordinal } from '../domain/queue-message.js'

/** A scan resource; `queue` is where a waiting scan stands (store/queue.ts queuePlaces). */
export function scanView(s: ScanRow, now = Date.now(), queue?: QueuePlace) {
  const counts = { critical: s.count_critical, high: s.count_high, medium: s.count_medium, low: s.count_low, info: s.count_info }
  const start = s.start_time ? Date.parse(s.start_time) : null
  const end = s.end_time ? Date.parse(s.end_time) : null
  const duration = start === null ? 0 : Math.max(0, Math.floor(((end ?? now) - start) / 1000))
  return {
    id: s.id,
    tool_id: s.tool_id,
    target_id: s.target_id,
    workspace_id: s.workspace_id,
    status_name: s.status as ScanState,
    vpn_scan: s.vpn_scan === 1,
    progress: s.progress,
    result_summary: { text: summaryText(counts), ...counts },
    start_time: toApiTime(s.start_time),
    end_time: toApiTime(s.end_time),
    duration,
    num_tests: s.num_tests,
    num_finished_tests: s.num_finished_tests,
    status_message: s.status === 'waiting' && queue ? [waitingMessage(queue), s.status_message].filter(Boolean).join('; ') : (s.status_message ?? ''),
    vpn_profile_uuid: s.vpn_profile_uuid,
    scan_original_url: s.scan_original_url === 1,
    eta_seconds: etaSeconds(s, now),
  }
}

export function testView(t: TestRow & { finding_ids: number[] }) {
  return {
    id: t.id,
    scan_id: t.scan_id,
    name: t.name,
    description: t.description,
    status: t.status as TestRecordStatus,
    result: t.result as TestRecordResult,
    finding_ids: t.finding_ids,
    start_time: toApiTime(t.start_time),
    end_time: toApiTime(t.end_time),
  }
}
