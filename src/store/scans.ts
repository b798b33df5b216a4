// Scans repository: the scans table is also the queue (status, lease_owner, lease_expires_at).
// Status changes always name their source states in the WHERE clause (scan-states.ts), so a
// concurrent change can never be overwritten with an illegal transition.
import { sql, type Transaction } from 'kysely'
import { inTransaction, selectPrepared, type Db } from './db.js'
import type { Database, NewScan, ScanRow, ScanUpdate } from './schema.js'
import { nowIso, isoAfter } from './time.js'
import { sourcesOf, type ScanState, IllegalTransitionError, canTransition } from './scan-states.js'
export { scanIsComplete } from './scan-states.js'
import { endScanWithCallback } from './callbacks.js'
import { claimable, userRunning, workspaceHeads, workspaceRunning, type ClaimSlots } from './queue.js'
import { secretsOf } from './secrets.js'
import { deleteScanResults, endOpenTestsIn, findingsKept, keptWords } from './results.js'
import { ensureSealed } from './secret-box.js'
import { memberOf, memberWorkspaces, WRITER_ROLES, type Role } from './members.js'
import { countRows, newestPage, whereGiven, within } from './paging.js'
import { getMemberRow, getOwned } from './workspace-rows.js'
import { renewLeases as renewOwnedLeases } from './outbox.js'

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
  /** The callback's secret in plain text: stored sealed. */
  reportCallback: { url: string; format: string; secret?: string; only_on_change?: boolean } | null
  /** Credentials in it must already be sealed (the domain knows which members are secrets). */
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
    report_callback: q.reportCallback
      ? JSON.stringify(
          q.reportCallback.secret === undefined
            ? q.reportCallback
            : { ...q.reportCallback, secret: ensureSealed(secretsOf(db), q.reportCallback.secret) },
        )
      : null,
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

/** The columns a scan resource is made of (api/views.ts scanView): not the tool's output, parameters or coverage. */
export const SCAN_VIEW_COLUMNS = [
  'id',
  'tool_id',
  'target_id',
  'workspace_id',
  'status',
  'vpn_scan',
  'progress',
  'count_critical',
  'count_high',
  'count_medium',
  'count_low',
  'count_info',
  'start_time',
  'end_time',
  'num_tests',
  'num_finished_tests',
  'status_message',
  'vpn_profile_uuid',
  'scan_original_url',
  'eta_at',
] as const satisfies ReadonlyArray<keyof ScanRow>
export type ScanViewRow = Pick<ScanRow, (typeof SCAN_VIEW_COLUMNS)[number]>

/** getScan with only SCAN_VIEW_COLUMNS: a scan's output can be large and the resource does not show it. */
export const getScanView = async (db: Db, userId: number, id: number): Promise<ScanViewRow | undefined> =>
  (
    await selectPrepared(
      db,
      'getScanView',
      (arg) =>
        db
          .selectFrom('scans')
          .select(SCAN_VIEW_COLUMNS)
          .where('id', '=', arg<number>(0))
          .where(memberOf('scans.workspace_id', arg<number>(1))),
      [id, userId],
      { hot: true },
    )
  )[0]

/** A scan of a workspace the user belongs to (with one of `roles` when given). */
export const getScan = (db: Db, userId: number, id: number, roles?: readonly Role[]): Promise<ScanRow | undefined> =>
  getMemberRow(db, 'scans', userId, id, roles)

export const getScanById = (db: Db | Transaction<Database>, id: number) =>
  db.selectFrom('scans').selectAll().where('id', '=', id).executeTakeFirst()

export async function listScans(db: Db, userId: number, f: ScanFilter): Promise<ScanRow[]> {
  const q = db
    .selectFrom('scans')
    .selectAll()
    .where('workspace_id', '=', f.workspaceId)
    .where((eb) => eb.exists(memberWorkspaces(db, userId).where('wm.workspace_id', '=', f.workspaceId)))
  const given = whereGiven(q, [
    ['tool_id', '=', f.toolId],
    ['target_id', '=', f.targetId],
    ['status', '=', f.status],
    ...within('start_time', f.startFrom, f.startTo),
  ])
  return newestPage(given, f)
}

/** Moves a scan to `to` if it is in a state that may reach it (and, given `owner`, still holds that lease); returns whether it moved. */
export async function transitionScan(
  db: Db | Transaction<Database>,
  id: number,
  to: ScanState,
  set: ScanUpdate = {},
  from?: ScanState[],
  owner?: string,
): Promise<boolean> {
  const sources = from ?? sourcesOf(to)
  for (const s of sources) if (!canTransition(s, to)) throw new IllegalTransitionError(s, to)
  if (!sources.length) throw new IllegalTransitionError('(any)', to)
  let q = db
    .updateTable('scans')
    .set({ ...set, status: to })
    .where('id', '=', id)
    .where('status', 'in', sources)
  if (owner !== undefined) q = q.where('lease_owner', '=', owner)
  const r = await q.executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/**
 * Claims the next waiting scan in the fair order (queue.ts) that this worker may take: one UPDATE
 * whose WHERE re-checks `status = 'waiting'`, so two workers can never claim the same scan.
 * Claiming clears the waiting scan's status_message.
 */
export async function claimNextScan(
  db: Db,
  kind: 'sqlite' | 'postgres',
  workerId: string,
  leaseMs: number,
  userMaxRunning: number,
  slots?: ClaimSlots,
): Promise<ScanRow | null> {
  const now = nowIso()
  let pick = db
    .selectFrom('scans as s')
    .select('s.id')
    .where('s.status', '=', 'waiting')
    .where('s.stop_requested', '=', 0)
    .where(workspaceHeads)
    .where(claimable(userMaxRunning, slots))
    .orderBy(userRunning)
    .orderBy(workspaceRunning)
    .orderBy('s.id')
    .limit(1)
  if (kind === 'postgres') pick = pick.forUpdate().skipLocked()
  const row = await db
    .updateTable('scans')
    .set({
      status: 'running',
      status_message: null,
      lease_owner: workerId,
      lease_expires_at: isoAfter(leaseMs),
      start_time: sql`coalesce(start_time, ${now})`,
      attempts: sql`attempts + 1`,
    })
    .where('id', '=', (eb) => eb.selectFrom(pick.as('p')).select('p.id'))
    .where('status', '=', 'waiting')
    .returningAll()
    .executeTakeFirst()
  return row ?? null
}

/** Renews the leases this worker holds; returns the ids it still holds. */
export async function renewLeases(db: Db, workerId: string, ids: number[], leaseMs: number): Promise<Set<number>> {
  if (!ids.length) return new Set()
  await renewOwnedLeases(db, 'scans', workerId, ids, 'running', leaseMs)
  const held = await db
    .selectFrom('scans')
    .select('id')
    .where('id', 'in', ids)
    .where('lease_owner', '=', workerId)
    .where('status', '=', 'running')
    .execute()
  return new Set(held.map((r) => r.id))
}

/** Lets the leases of a worker known to be dead (a stuck thread that was ended) expire now, for the reaper; returns how many. */
export async function expireLeasesOf(db: Db, workerId: string): Promise<number> {
  const r = await db
    .updateTable('scans')
    .set({ lease_expires_at: isoAfter(-1000) })
    .where('lease_owner', '=', workerId)
    .where('status', '=', 'running')
    .executeTakeFirst()
  return Number(r.numUpdatedRows)
}

export async function stopRequested(db: Db, ids: number[]): Promise<number[]> {
  if (!ids.length) return []
  return (await db.selectFrom('scans').select('id').where('id', 'in', ids).where('stop_requested', '=', 1).execute()).map((r) => r.id)
}

/** What happens to a scan whose worker died: which tools may start again, and how many times a scan is claimed at most. */
export interface RecoveryPolicy {
  restartable(toolId: number): boolean
  maxAttempts: number
}

const NO_RESTARTS: RecoveryPolicy = { restartable: () => false, maxAttempts: 1 }

/** Ends running scans whose lease expired (their worker died): `aborted`. Returns their ids. */
export async function reapExpiredLeases(db: Db): Promise<number[]> {
  return (await recoverExpiredLeases(db, NO_RESTARTS)).ended
}

/**
 * Scans whose lease expired (their worker died): a restartable scan below its attempt limit goes
 * back to `waiting` (running → waiting, an extension of decisions.md's state table) keeping what it
 * found; a stop request ends it `stopped`; any other ends `aborted`. Every status message says how
 * many findings were kept. Tests the dead worker left running end `error`. `self`: the calling
 * worker, whose own scans are left alone.
 */
export async function recoverExpiredLeases(
  db: Db,
  policy: RecoveryPolicy,
  self?: string,
): Promise<{ requeued: number[]; ended: number[] }> {
  const now = nowIso()
  let q = db
    .selectFrom('scans')
    .select(['id', 'tool_id', 'attempts', 'stop_requested'])
    .where('status', '=', 'running')
    .where('lease_expires_at', '<', now)
  // A worker never reaps its own scans: they are alive (a late heartbeat renews them).
  if (self !== undefined) q = q.where('lease_owner', '!=', self)
  const expired = await q.execute()
  const out = { requeued: [] as number[], ended: [] as number[] }
  for (const s of expired) {
    const again = s.stop_requested === 0 && policy.restartable(s.tool_id) && s.attempts < policy.maxAttempts
    if (again) {
      const ok = await inTransaction(db, async (trx) => {
        const kept = keptWords(await findingsKept(trx, s.id))
        const moved = await requeue(
          trx,
          s.id,
          { lease_expires_at: null },
          `Its worker stopped unexpectedly (its lease expired) on attempt ${s.attempts} of ${policy.maxAttempts}; queued again to restart; ${kept}`,
        )
        if (moved)
          await endOpenTestsIn(trx, s.id, 'error', 'interrupted: the worker running the scan stopped unexpectedly; the scan restarts')
        return moved
      })
      if (ok) out.requeued.push(s.id)
      continue
    }
    const ok = await endScanWithCallback(db, s.id, async (trx) => {
      const kept = keptWords(await findingsKept(trx, s.id))
      const why =
        s.stop_requested === 1
          ? `Stopped; its worker stopped unexpectedly (its lease expired) before ending the scan; ${kept}`
          : policy.restartable(s.tool_id)
            ? `The worker running this scan stopped unexpectedly (its lease expired) on attempt ${s.attempts} ` +
              `of ${policy.maxAttempts}, the last one allowed; ${kept}`
            : `The worker running this scan stopped unexpectedly (its lease expired) and this tool cannot be restarted; ${kept}`
      const moved = await transitionScan(
        trx,
        s.id,
        s.stop_requested === 1 ? 'stopped' : 'aborted',
        { end_time: now, lease_owner: null, status_message: why },
        ['running'],
      )
      if (moved) await endOpenTestsIn(trx, s.id, 'error', 'scan aborted: its worker stopped unexpectedly')
      return moved
    })
    if (ok) out.ended.push(s.id)
  }
  return out
}

/**
 * A running scan this worker holds goes back to the queue (shutdown drain): it restarts on the next
 * worker, and this claim does not count against its attempts. Returns whether it moved.
 */
export async function handBackScan(db: Db | Transaction<Database>, id: number, workerId: string, message: string): Promise<boolean> {
  return requeue(db, id, { lease_expires_at: null, attempts: sql`attempts - 1` as unknown as number }, message, workerId)
}

async function requeue(db: Db | Transaction<Database>, id: number, set: ScanUpdate, message: string, owner?: string): Promise<boolean> {
  if (!canTransition('running', 'waiting')) throw new IllegalTransitionError('running', 'waiting')
  let q = db
    .updateTable('scans')
    .set({ ...set, status: 'waiting', lease_owner: null, status_message: message })
    .where('id', '=', id)
    .where('status', '=', 'running')
  if (owner !== undefined) q = q.where('lease_owner', '=', owner)
  return Number((await q.executeTakeFirst()).numUpdatedRows) === 1
}

/** Stop: a waiting scan ends `stopped` at once; a running one is flagged for its worker. 'missing' unless the user may change its workspace. */
export async function requestStop(db: Db, userId: number, id: number): Promise<'missing' | 'stopped' | 'requested' | 'noop'> {
  const scan = await getScan(db, userId, id, WRITER_ROLES)
  if (!scan) return 'missing'
  if (scan.status === 'waiting') {
    const now = nowIso()
    if (
      await endScanWithCallback(db, id, (trx) =>
        transitionScan(trx, id, 'stopped', { end_time: now, status_message: 'Stopped before it started' }, ['waiting']),
      )
    )
      return 'stopped'
  }
  const r = await db
    .updateTable('scans')
    .set({ stop_requested: 1 })
    .where('id', '=', id)
    .where('status', 'in', ['running', 'waiting'])
    .executeTakeFirst()
  return Number(r.numUpdatedRows) ? 'requested' : 'noop'
}

export async function deleteScan(db: Db, userId: number, id: number): Promise<'deleted' | 'missing' | 'active'> {
  return inTransaction(db, async (trx) => {
    const s = await getOwned(trx, 'scans', userId, id, WRITER_ROLES)
    if (!s) return 'missing'
    if (s.status === 'running' || s.status === 'waiting') return 'active'
    await deleteScanResults(trx, [id])
    const r = await trx.deleteFrom('scans').where('id', '=', id).where('status', 'not in', ['running', 'waiting']).executeTakeFirst()
    return Number(r.numDeletedRows) ? 'deleted' : 'active'
  })
}

/** Scans per state across all users (metrics). */
export const scanCountsByState = (db: Db) =>
  db
    .selectFrom('scans')
    .select(['status', (e) => e.fn.countAll().as('n')])
    .groupBy('status')
    .execute()

/** Waiting scans across all users (metrics). */
export const queueDepth = (db: Db) => countRows(db.selectFrom('scans').where('status', '=', 'waiting'))

/** The latest complete scan of the same target and tool before `scan`. */
export const previousCompleteScan = (db: Db, scan: Pick<ScanRow, 'id' | 'target_id' | 'tool_id'>) =>
  db
    .selectFrom('scans')
    .selectAll()
    .where('target_id', '=', scan.target_id)
    .where('tool_id', '=', scan.tool_id)
    .where('id', '<', scan.id)
    .where('status', '=', 'finished')
    .where((eb) => eb.or([eb('coverage', 'is not', null), eb('status_message', 'is', null)]))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()

/** A scan's findings, most severe first (what changed between two scans compares these). */
export const scanFindingsByRisk = (db: Db, scanId: number) =>
  db.selectFrom('findings').selectAll().where('scan_id', '=', scanId).orderBy('risk_level', 'desc').orderBy('id').execute()
