// What one scan means to one integration: its outcome, and the findings new, back again (regression)
// and fixed since the previous scan — the diff of GET /scans/{id}/changes — filtered by the
// integration's events and min_risk. Built once per delivery and stored, so every retry says the same.
import { createHash } from 'node:crypto'
import type { Db } from '../../store/db.js'
import type { FindingRow, IntegrationRow } from '../../store/schema.js'
import { seenBefore } from '../../store/finding-lifecycle.js'
import { getScanById } from '../../store/scans.js'
import { toApiTime } from '../../store/time.js'
import { scanChanges } from '../scan-changes.js'
import { summaryText, type Counts } from '../risk.js'
import type { ToolNames } from '../scan-report.js'

export const FAILED_STATES = ['connection error', 'auth failed', 'VPN connection error', 'failed to start', 'timed out', 'aborted']

export interface FindingItem {
  id: number
  /** The duplicate group's key: one ticket per group. */
  dedup_key: string
  /** `ward-<12 hex>`: the label that finds the group's ticket again in the receiving system. */
  label: string
  vuln_id: string
  name: string
  risk_level: number
  location: string
  description: string
  recommendation: string
  link: string | null
}

export interface ScanEvent {
  kind: 'scan'
  events: string[]
  scan: {
    id: number
    target: string
    tool: string
    status: string
    status_message: string | null
    end_time: string | null
    link: string | null
    counts: Counts
    summary: string
  }
  against_scan_id: number | null
  new: FindingItem[]
  regression: FindingItem[]
  fixed: FindingItem[]
}

export type Skip = { skip: string }

export const ticketLabel = (dedupKey: string) => `ward-${createHash('sha256').update(dedupKey).digest('hex').slice(0, 12)}`

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

function item(f: FindingRow, publicUrl: string | null): FindingItem {
  const location = f.url ?? f.location ?? (f.port !== null ? `${f.port}/${f.protocol ?? 'tcp'}${f.service ? ` (${f.service})` : ''}` : '')
  return {
    id: f.id,
    dedup_key: f.dedup_key,
    label: ticketLabel(f.dedup_key),
    vuln_id: f.vuln_id,
    name: clip(f.name, 300),
    risk_level: f.risk_level,
    location: clip(location, 500),
    description: clip(f.vuln_description, 4000),
    recommendation: clip(f.recommendation, 2000),
    link: publicUrl ? `${publicUrl}/findings/${f.id}` : null,
  }
}

async function rowsOf(db: Db, ids: number[]): Promise<FindingRow[]> {
  const out: FindingRow[] = []
  for (let i = 0; i < ids.length; i += 500)
    out.push(
      ...(await db
        .selectFrom('findings')
        .selectAll()
        .where('id', 'in', ids.slice(i, i + 500))
        .execute()),
    )
  return out.sort((a, b) => b.risk_level - a.risk_level || a.id - b.id)
}

export interface EventOptions {
  publicUrl: string | null
  toolName?: ToolNames
}

/** The scan's event for this integration, or why nothing is sent. */
export async function scanEvent(db: Db, scanId: number, integ: IntegrationRow, o: EventOptions): Promise<ScanEvent | Skip> {
  const scan = await getScanById(db, scanId)
  if (!scan) return { skip: 'the scan was deleted' }
  const wanted = new Set(JSON.parse(integ.events) as string[])
  const changes = await scanChanges(db, scan)
  if (integ.only_changes === 1 && !changes.changed && changes.against_scan_id !== null)
    return { skip: `not sent: only_changes, and nothing changed since scan ${changes.against_scan_id}` }
  const risky = (f: FindingRow) => f.risk_level >= integ.min_risk
  const appeared = (
    await rowsOf(
      db,
      changes.findings.new.map((f) => f.id),
    )
  ).filter(risky)
  // Groups first seen by an earlier scan came back: a regression.
  const back = await seenBefore(db, scan, appeared)
  const pick = (event: string, rows: FindingRow[]) => (wanted.has(event) ? rows.map((f) => item(f, o.publicUrl)) : [])
  const failed = FAILED_STATES.includes(scan.status)
  const target = await db.selectFrom('targets').select('name').where('id', '=', scan.target_id).executeTakeFirst()
  const counts = {
    critical: scan.count_critical,
    high: scan.count_high,
    medium: scan.count_medium,
    low: scan.count_low,
    info: scan.count_info,
  }
  const ev: ScanEvent = {
    kind: 'scan',
    events: [],
    scan: {
      id: scan.id,
      target: target?.name ?? `target ${scan.target_id}`,
      tool: o.toolName?.(scan.tool_id) ?? `tool ${scan.tool_id}`,
      status: scan.status,
      status_message: scan.status_message,
      end_time: toApiTime(scan.end_time),
      link: o.publicUrl ? `${o.publicUrl}/scans/${scan.id}` : null,
      counts,
      summary: summaryText(counts),
    },
    against_scan_id: changes.against_scan_id,
    new: pick(
      'finding.new',
      appeared.filter((f) => !back.has(f.dedup_key)),
    ),
    regression: pick(
      'finding.regression',
      appeared.filter((f) => back.has(f.dedup_key)),
    ),
    fixed: pick(
      'finding.fixed',
      (
        await rowsOf(
          db,
          changes.findings.gone.map((f) => f.id),
        )
      ).filter(risky),
    ),
  }
  if (failed && wanted.has('scan.failed')) ev.events.push('scan.failed')
  if (!failed && scan.status === 'finished' && wanted.has('scan.finished')) ev.events.push('scan.finished')
  for (const [e, list] of [
    ['finding.new', ev.new],
    ['finding.regression', ev.regression],
    ['finding.fixed', ev.fixed],
  ] as const)
    if (list.length) ev.events.push(e)
  if (!ev.events.length) return { skip: 'nothing to send: no event of this scan is one the integration wants' }
  return ev
}
