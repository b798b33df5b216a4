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

/** Why a waiting scan waits, and its place in the queue. */
export function waitingMessage(q: QueuePlace): string {
  if (q.place === null) return `waiting: your ${q.userRunning} running scan${q.userRunning === 1 ? ' is' : 's are'} the per-user limit`
  return `waiting for a worker slot: ${ordinal(q.place)} in queue`
}

export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'
  return `${n}${suffix}`
}

/** Seconds until the worker expects the scan to end; null while waiting or without an estimate (or past it), 0 once ended. */
function etaSeconds(s: ScanRow, now: number): number | null {
  if (s.status === 'waiting') return null
  if (s.status !== 'running') return 0
  if (!s.eta_at) return null
  const left = Math.ceil((Date.parse(s.eta_at) - now) / 1000)
  return left >= 0 ? left : null
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
