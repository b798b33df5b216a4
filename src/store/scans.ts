// Scans repository: the scans table is also the queue (status, lease_owner, lease_expires_at).
// Status changes always name their source states in the WHERE clause (scan-states.ts), so a
// concurrent change can never be overwritten with an illegal transition.
import { sql, type Transaction } from 'kysely'
import type { Db } from './db.js'
import type { Database, NewScan, ScanRow, ScanUpdate } from './schema.js'
import { nowIso, isoAfter } from './time.js'
import { sourcesOf, type ScanState, IllegalTransitionError, canTransition } from './scan-states.js'
export { scanIsComplete } from './scan-states.js'
import { endScanWithCallback } from './callbacks.js'

export interface ScanFilter {
  workspaceId: number
  toolId?: number
  targetId?: number
  status?: string
  startFrom?: string
  startTo?: string
  limit: number
  page: number
}

export async function insertScan(db: Db | Transaction<Database>, s: NewScan): Promise<number> {
  const row = await db.insertInto('scans').values(s).returning('id').executeTakeFirstOrThrow()
  return row.id
}

/** A scan as a caller queues it; the store fills in the queue's starting values and encodes the row. */
export interface QueuedScan {
  workspaceId: number
  targetId: number
  userId: number
  toolId: number
  vpnProfileUuid: string | null
  maxScanTime: number
  scanOriginalUrl: boolean
  redirectLevel: string
  reportCallback: { url: string; format: string; secret?: string; only_on_change?: boolean } | null
  toolParams: unknown
  /** The schedule that queues it, if any. */
  scheduleId?: number | null
}

export function queueScan(db: Db | Transaction<Database>, q: QueuedScan): Promise<number> {
  return insertScan(db, {
    workspace_id: q.workspaceId,
    target_id: q.targetId,
    user_id: q.userId,
    tool_id: q.toolId,
    status: 'waiting',
    status_message: null,
    vpn_profile_uuid: q.vpnProfileUuid,
    vpn_scan: q.vpnProfileUuid ? 1 : 0,
    progress: 0,
    num_tests: 0,
    num_finished_tests: 0,
    max_scan_time: q.maxScanTime,
    scan_original_url: q.scanOriginalUrl ? 1 : 0,
    redirect_level: q.redirectLevel,
    report_callback: q.reportCallback ? JSON.stringify(q.reportCallback) : null,
    tool_params: JSON.stringify(q.toolParams),
    output_data: null,
    count_critical: 0,
    count_high: 0,
    count_medium: 0,
    count_low: 0,
    count_info: 0,
    created_at: nowIso(),
    start_time: null,
    end_time: null,
    lease_owner: null,
    lease_expires_at: null,
    stop_requested: 0,
    attempts: 0,
    schedule_id: q.scheduleId ?? null,
  })
}

/** The tool_params a scan was queued with. */
export const toolParamsOf = (s: Pick<ScanRow, 'tool_params'>): unknown => JSON.parse(s.tool_params)

export const getScan = (db: Db, userId: number, id: number) =>
  db.selectFrom('scans').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()

export const getScanById = (db: Db | Transaction<Database>, id: number) => db.selectFrom('scans').selectAll().where('id', '=', id).executeTakeFirst()

export async function listScans(db: Db, userId: number, f: ScanFilter): Promise<ScanRow[]> {
  let q = db.selectFrom('scans').selectAll().where('user_id', '=', userId).where('workspace_id', '=', f.workspaceId)
  if (f.toolId !== undefined) q = q.where('tool_id', '=', f.toolId)
  if (f.targetId !== undefined) q = q.where('target_id', '=', f.targetId)
  if (f.status !== undefined) q = q.where('status', '=', f.status)
  if (f.startFrom !== undefined) q = q.where('start_time', '>=', f.startFrom)
  if (f.startTo !== undefined) q = q.where('start_time', '<=', f.startTo)
  return q.orderBy('id', 'desc').limit(f.limit).offset((f.page - 1) * f.limit).execute()
}

/** Moves a scan to `to` if it is in a state that may reach it; returns whether it moved. */
export async function transitionScan(db: Db | Transaction<Database>, id: number, to: ScanState, set: ScanUpdate = {}, from?: ScanState[]): Promise<boolean> {
  const sources = from ?? sourcesOf(to)
  for (const s of sources) if (!canTransition(s, to)) throw new IllegalTransitionError(s, to)
  if (!sources.length) throw new IllegalTransitionError('(any)', to)
  const r = await db.updateTable('scans').set({ ...set, status: to }).where('id', '=', id).where('status', 'in', sources).executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/**
 * Claims the oldest waiting scan whose user is below the running-scan limit: one UPDATE whose
 * WHERE re-checks `status = 'waiting'`, so two workers can never claim the same scan.
 */
export async function claimNextScan(db: Db, kind: 'sqlite' | 'postgres', workerId: string, leaseMs: number, userMaxRunning: number): Promise<ScanRow | null> {
  const now = nowIso()
  let pick = db
    .selectFrom('scans as s')
    .select('s.id')
    .where('s.status', '=', 'waiting')
    .where('s.stop_requested', '=', 0)
    .where((eb) =>
      eb(
        eb.selectFrom('scans as r').select((e) => e.fn.countAll().as('n')).where('r.user_id', '=', eb.ref('s.user_id')).where('r.status', '=', 'running'),
        '<',
        userMaxRunning,
      ),
    )
    .orderBy('s.id')
    .limit(1)
  if (kind === 'postgres') pick = pick.forUpdate().skipLocked()
  const row = await db
    .updateTable('scans')
    .set({ status: 'running', lease_owner: workerId, lease_expires_at: isoAfter(leaseMs), start_time: now, attempts: sql`attempts + 1` })
    .where('id', '=', (eb) => eb.selectFrom(pick.as('p')).select('p.id'))
    .where('status', '=', 'waiting')
    .returningAll()
    .executeTakeFirst()
  return row ?? null
}

/** Renews the leases this worker holds; returns the ids it still holds. */
export async function renewLeases(db: Db, workerId: string, ids: number[], leaseMs: number): Promise<Set<number>> {
  if (!ids.length) return new Set()
  await db.updateTable('scans').set({ lease_expires_at: isoAfter(leaseMs) }).where('id', 'in', ids).where('lease_owner', '=', workerId).where('status', '=', 'running').execute()
  const held = await db.selectFrom('scans').select('id').where('id', 'in', ids).where('lease_owner', '=', workerId).where('status', '=', 'running').execute()
  return new Set(held.map((r) => r.id))
}

export async function stopRequested(db: Db, ids: number[]): Promise<number[]> {
  if (!ids.length) return []
  return (await db.selectFrom('scans').select('id').where('id', 'in', ids).where('stop_requested', '=', 1).execute()).map((r) => r.id)
}

/** Ends running scans whose lease expired (their worker died): `aborted`. Returns their ids. */
export async function reapExpiredLeases(db: Db): Promise<number[]> {
  const now = nowIso()
  const expired = await db.selectFrom('scans').select('id').where('status', '=', 'running').where('lease_expires_at', '<', now).execute()
  const reaped: number[] = []
  for (const { id } of expired) {
    const ok = await endScanWithCallback(db, id, (trx) => transitionScan(trx, id, 'aborted', {
      end_time: now,
      lease_owner: null,
      status_message: 'The worker running this scan stopped unexpectedly (its lease expired); results gathered until then are kept',
    }, ['running']))
    if (ok) await db.updateTable('tests').set({ status: 'error', result: 'error', message: 'scan aborted', end_time: now }).where('scan_id', '=', id).where('status', '=', 'running').execute()
    if (ok) reaped.push(id)
  }
  return reaped
}

/** Stop: a waiting scan ends `stopped` at once; a running one is flagged for its worker. */
export async function requestStop(db: Db, userId: number, id: number): Promise<'missing' | 'stopped' | 'requested' | 'noop'> {
  const scan = await getScan(db, userId, id)
  if (!scan) return 'missing'
  if (scan.status === 'waiting') {
    const now = nowIso()
    if (await endScanWithCallback(db, id, (trx) => transitionScan(trx, id, 'stopped', { end_time: now, status_message: 'Stopped before it started' }, ['waiting']))) return 'stopped'
  }
  const r = await db.updateTable('scans').set({ stop_requested: 1 }).where('id', '=', id).where('status', 'in', ['running', 'waiting']).executeTakeFirst()
  return Number(r.numUpdatedRows) ? 'requested' : 'noop'
}

export async function deleteScan(db: Db, userId: number, id: number): Promise<'deleted' | 'missing' | 'active'> {
  return db.transaction().execute(async (trx) => {
    const s = await trx.selectFrom('scans').select(['id', 'status']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
    if (!s) return 'missing'
    if (s.status === 'running' || s.status === 'waiting') return 'active'
    await trx.deleteFrom('findings').where('scan_id', '=', id).execute()
    await trx.deleteFrom('tests').where('scan_id', '=', id).execute()
    await trx.deleteFrom('scan_logs').where('scan_id', '=', id).execute()
    const r = await trx.deleteFrom('scans').where('id', '=', id).where('status', 'not in', ['running', 'waiting']).executeTakeFirst()
    return Number(r.numDeletedRows) ? 'deleted' : 'active'
  })
}

/** Scans per state across all users (metrics). */
export const scanCountsByState = (db: Db) => db.selectFrom('scans').select(['status', (e) => e.fn.countAll().as('n')]).groupBy('status').execute()

/** Waiting scans across all users (metrics). */
export const queueDepth = async (db: Db) => Number((await db.selectFrom('scans').select((e) => e.fn.countAll().as('n')).where('status', '=', 'waiting').executeTakeFirstOrThrow()).n)

