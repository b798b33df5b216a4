// Delivers report callbacks from the outbox (store/callbacks.ts). Runs inside every worker: claims
// due deliveries with a lease, POSTs the JSON output or the PDF report, and records each attempt.
// Retries network errors, 5xx and 429 (honouring retry-after) with backoff and jitter until the
// retry window (24 h from the delivery's creation) closes; 2xx delivers; 410 and other codes give up.
// Callback traffic is Ward's own, not a scan's, so it uses undici directly rather than a scan egress,
// through the dispatcher the caller gives: the one that enforces the callback scope at connection time.
import type { Dispatcher } from 'undici'
import type { Logger } from 'pino'
import type { Db } from '../store/db.js'
import type { Config } from '../config/config.js'
import type { CallbackDeliveryRow } from '../store/schema.js'
import { claimDueDelivery, deliveryBody, recordAttempt, releaseDelivery, skipDelivery, type AttemptResult } from '../store/callbacks.js'
import { scanChanges } from './scan-changes.js'
import type { ScanRow } from '../store/schema.js'
import { getScanById } from '../store/scans.js'
import { nowIso } from '../store/time.js'
import { scanOutputJson } from './scan-output.js'
import { scanPdf, type ToolNames } from './scan-report.js'
import { pdfBuilds } from './pdf-builds.js'
import {
  BACKOFF_BASE_MS,
  EVENT_ID_HEADER,
  SCAN_ID_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  backoffDelay,
  callbackTimestamp,
  deliveryOutcome,
  parseRetryAfter,
  signBody,
} from './callback-signing.js'
import { startOutboxLoop } from './outbox-loop.js'

export interface CallbackSender {
  stop(): Promise<void>
}

export interface SenderOptions {
  db: Db
  config: Config
  log: Logger
  /** Lease owner name (the worker id). */
  owner: string
  /** Tool display names for PDF reports (from the tool catalogue, which reports cannot import). */
  toolName?: ToolNames
  concurrency?: number
  /**
   * Connects deliveries: the callback scope's guarded dispatcher (engine/net/scoped-dispatcher.ts), which
   * the CLI builds — on the first delivery, so a Ward that never sends one never loads the HTTP client.
   */
  dispatcher: () => Promise<Dispatcher>
}

/** Time a claimed delivery stays leased: the request timeout plus room to build the body. */
const leaseMsFor = (config: Config) => config.callbackTimeoutMs + 60_000

/** Delay before the next try: the receiver's retry-after wins; otherwise backoff scaled to the configured base. */
export function retryDelay(config: Config, attempt: number, retryAfter: string | null): number {
  if (parseRetryAfter(retryAfter) !== null) return backoffDelay(attempt, retryAfter)
  return Math.max(1, Math.round(backoffDelay(attempt) * (config.callbackBackoffBaseMs / BACKOFF_BASE_MS)))
}

/** Whether the scan asked for its callback only when something changed since its previous scan. */
const onlyOnChange = (scan: Pick<ScanRow, 'report_callback'>) =>
  !!scan.report_callback && (JSON.parse(scan.report_callback) as { only_on_change?: boolean }).only_on_change === true

export async function buildCallbackBody(
  db: Db,
  d: CallbackDeliveryRow,
  toolName?: ToolNames,
): Promise<{ body: Buffer; contentType: string } | null> {
  const scan = await getScanById(db, d.scan_id)
  if (!scan) return null
  if (d.format === 'pdf') return { body: await scanPdf(db, scan, toolName), contentType: 'application/pdf' }
  // A change-only callback carries the changes in its (signed) body, beside the usual output.
  const changes = onlyOnChange(scan) ? { changes: await scanChanges(db, scan) } : {}
  return {
    body: Buffer.from(JSON.stringify({ data: { ...(await scanOutputJson(db, scan)), ...changes } })),
    contentType: 'application/json',
  }
}

/** Why a change-only callback is not sent (nothing changed), or null when it is to be sent. */
async function unchangedReason(db: Db, d: CallbackDeliveryRow): Promise<string | null> {
  const scan = await getScanById(db, d.scan_id)
  if (!scan || !onlyOnChange(scan)) return null
  const c = await scanChanges(db, scan)
  if (c.changed || c.against_scan_id === null) return null
  return `not sent: only_on_change, and nothing changed since scan ${c.against_scan_id}`
}

type Transport = () => Promise<{ request: typeof import('undici').request; dispatcher: Dispatcher }>

/** What one attempt needs besides its delivery: the sender's options, its stop signals and HTTP client. */
interface AttemptDeps extends SenderOptions {
  /** Aborted when the sender begins to stop: a claimed delivery not yet sent is handed back. */
  stopping: AbortSignal
  /** Aborted when a stopping sender's attempts outlast the delivery timeout: cuts the request. */
  cancel: AbortSignal
  transport: Transport
}

/** The headers of a delivery: content type, event and scan ids, and the signature when it has a secret. */
function deliveryHeaders(d: CallbackDeliveryRow, contentType: string, body: Buffer): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': contentType,
    'user-agent': 'Ward-Callback/1',
    [EVENT_ID_HEADER]: d.event_id,
    [SCAN_ID_HEADER]: String(d.scan_id),
  }
  if (d.secret) {
    const ts = callbackTimestamp()
    headers[TIMESTAMP_HEADER] = ts
    headers[SIGNATURE_HEADER] = signBody(d.secret, body, ts)
  }
  return headers
}

interface Sent {
  statusCode: number | null
  retryAfter: string | null
  error: string | null
  /** Outside the callback scope: nothing was sent, and retrying cannot help. */
  blocked: boolean
}

/** One POST of the body; what the receiver answered, or why there was no answer. */
async function post(x: AttemptDeps, d: CallbackDeliveryRow, body: Buffer, headers: Record<string, string>): Promise<Sent> {
  const { config } = x
  const timeout = AbortSignal.timeout(config.callbackTimeoutMs)
  try {
    const { request, dispatcher } = await x.transport()
    const res = await request(d.url, {
      dispatcher,
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.any([timeout, x.cancel]),
      headersTimeout: config.callbackTimeoutMs,
      bodyTimeout: config.callbackTimeoutMs,
    })
    const ra = res.headers['retry-after']
    await res.body.dump().catch(() => {})
    return { statusCode: res.statusCode, retryAfter: Array.isArray(ra) ? (ra[0] ?? null) : (ra ?? null), error: null, blocked: false }
  } catch (e) {
    const error = timeout.aborted
      ? `timed out after ${config.callbackTimeoutMs} ms`
      : x.cancel.aborted
        ? 'Ward shut down during the attempt'
        : describe(e)
    return { statusCode: null, retryAfter: null, error, blocked: (e as { code?: string }).code === 'EBLOCKED' }
  }
}

/** What an attempt's outcome means for the delivery: delivered, failed for good, or retried at a time. */
function attemptResult(
  x: AttemptDeps,
  d: CallbackDeliveryRow,
  a: { attempt: number; startedAt: string; durationMs: number } & Sent,
): AttemptResult {
  const { config } = x
  const { statusCode, error } = a
  const outcome = deliveryOutcome(statusCode ?? 'network-error')
  const r: AttemptResult = {
    attempt: a.attempt,
    startedAt: a.startedAt,
    statusCode,
    error,
    durationMs: a.durationMs,
    next: { status: 'failed' },
  }
  if (a.blocked) r.next = { status: 'failed' }
  else if (outcome === 'delivered') r.next = { status: 'delivered' }
  else if (outcome === 'give-up') r.error = error ?? `the receiver answered HTTP ${statusCode}; not retried`
  else {
    if (r.error === null) r.error = `the receiver answered HTTP ${statusCode}`
    const at = Date.now() + (x.cancel.aborted ? 0 : retryDelay(config, a.attempt, a.retryAfter))
    if (at <= Date.parse(d.created_at) + config.callbackRetryWindowMs) r.next = { status: 'pending', at: new Date(at).toISOString() }
    else r.error = `${r.error}; gave up: the retry window of ${Math.round(config.callbackRetryWindowMs / 60000)} min is over`
  }
  return r
}

/** Builds (once) and sends one delivery; 'done' when it needs no attempt recorded by the caller. */
async function sendDelivery(x: AttemptDeps, d: CallbackDeliveryRow, attempt: number, startedAt: string): Promise<Sent | 'done'> {
  const { db, owner, log } = x
  if (d.attempts === 0) {
    const unchanged = await unchangedReason(db, d)
    if (unchanged && (await skipDelivery(db, owner, d.id, unchanged))) {
      log.info({ delivery: d.id, scan: d.scan_id }, unchanged)
      return 'done'
    }
  }
  // Built once: every retry of this event sends the same bytes (decisions.md).
  const built = await deliveryBody(db, d.id, () => buildCallbackBody(db, d, x.toolName))
  if (!built) {
    await recordAttempt(db, owner, d.id, {
      attempt,
      startedAt,
      statusCode: null,
      error: 'the scan was deleted',
      durationMs: 0,
      next: { status: 'failed' },
    })
    return 'done'
  }
  const headers = deliveryHeaders(d, built.contentType, built.body)
  if (x.stopping.aborted) {
    // Claimed but not sent when the sender began to stop: hand it back untouched.
    await releaseDelivery(db, owner, d.id)
    return 'done'
  }
  return post(x, d, built.body, headers)
}

async function attemptDelivery(x: AttemptDeps, d: CallbackDeliveryRow): Promise<void> {
  const attempt = d.attempts + 1
  const startedAt = nowIso()
  const t0 = Date.now()
  let sent: Sent
  try {
    const s = await sendDelivery(x, d, attempt, startedAt)
    if (s === 'done') return
    sent = s
  } catch (e) {
    // Building the body failed (database trouble): count it as an attempt and retry later.
    sent = { statusCode: null, retryAfter: null, error: `could not build the report: ${describe(e)}`, blocked: false }
  }
  const r = attemptResult(x, d, { attempt, startedAt, durationMs: Date.now() - t0, ...sent })
  const kept = await recordAttempt(x.db, x.owner, d.id, r)
  if (!kept) x.log.warn({ delivery: d.id }, 'report callback lease was lost before the attempt was recorded')
  x.log.info(
    { delivery: d.id, scan: d.scan_id, attempt, status: sent.statusCode, error: r.error, next: r.next.status },
    'report callback attempt',
  )
}

export function startCallbackSender(o: SenderOptions): CallbackSender {
  const { db, config, log, owner } = o
  const concurrency = o.concurrency ?? 4
  // PDF bodies are built in this process's build slots, shared with its API if it has one.
  pdfBuilds.configure(config.pdfBuilds)
  // Stopping ends claiming; an attempt already in flight finishes (its outcome is known to both
  // sides) unless it outlasts the delivery timeout, when `cancel` cuts it.
  const stopping = new AbortController()
  const cancel = new AbortController()
  let transportP: ReturnType<Transport> | null = null
  const transport: Transport = () =>
    (transportP ??= Promise.all([import('undici'), o.dispatcher()]).then(([u, dispatcher]) => ({ request: u.request, dispatcher })))
  const deps: AttemptDeps = { ...o, stopping: stopping.signal, cancel: cancel.signal, transport }

  const loop = startOutboxLoop({
    concurrency,
    pollMs: config.pollMs,
    log,
    stopping,
    claim: () => claimDueDelivery(db, owner, leaseMsFor(config)),
    attempt: (d) => attemptDelivery(deps, d),
    failed: { attempt: 'report callback attempt failed', claim: 'claiming report callbacks failed' },
    grace: { ms: config.callbackTimeoutMs, late: () => cancel.abort() },
  })

  return {
    async stop() {
      if (!(await loop.stop())) return
      if (transportP) await (await transportP).dispatcher.close().catch(() => {})
    },
  }
}

export function describe(e: unknown): string {
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } }
  const code = err?.code ?? err?.cause?.code
  const msg = err?.cause?.message ?? err?.message ?? String(e)
  return code && !msg.includes(code) ? `${code}: ${msg}` : msg
}
