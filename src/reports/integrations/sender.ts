// Delivers the integrations' outbox (store/integration-outbox.ts) beside the report callbacks, in
// every worker: claims due deliveries with a lease, builds each event's content once (stored, so a
// retry says the same), sends it through its channel, and records the attempt. Network errors, 429
// and 5xx are retried with the callbacks' backoff inside their retry window; 401/403/404 stop at
// once as `refused` — the receiver will not change its mind by itself.
import type { Logger } from 'pino'
import type { Db } from '../../store/db.js'
import type { Config as WardConfig } from '../../config/config.js'
import type { IntegrationDeliveryRow } from '../../store/schema.js'
import type { IntegrationType } from '../../store/integration-kinds.js'
import { integrationById, openIntegration } from '../../store/integrations.js'
import {
  claimIntegrationDelivery,
  deliveryPayload,
  recordIntegrationAttempt,
  releaseIntegrationDelivery,
  renewIntegrationLease,
  type IntegrationAttempt,
} from '../../store/integration-outbox.js'
import { nowIso } from '../../store/time.js'
import { describe, retryDelay } from '../callback-sender.js'
import type { ToolNames } from '../scan-report.js'
import { scanEvent, type Skip } from './scan-event.js'
import { MESSAGE_CHANNELS } from './channels.js'
import type { Channel, ChannelContext, Payload } from './context.js'
import { ticketChannel } from './tickets.js'
import { jiraSystem } from './jira.js'
import { githubSystem, gitlabSystem } from './git-issues.js'
import { defectDojo } from './defectdojo.js'
import { ReceiverError, type IntegrationTransport, type Outcome } from './http.js'
import { startOutboxLoop } from '../outbox-loop.js'

export interface IntegrationSenderOptions {
  db: Db
  config: WardConfig
  log: Logger
  owner: string
  transport: IntegrationTransport
  toolName?: ToolNames
  concurrency?: number
}

const CHANNELS: Record<IntegrationType, Channel> = {
  ...MESSAGE_CHANNELS,
  jira: ticketChannel(jiraSystem),
  github: ticketChannel(githubSystem),
  gitlab: ticketChannel(gitlabSystem),
  defectdojo: defectDojo,
}

/** Ticket work can take many requests: the lease covers several timeouts and is renewed as it goes. */
const leaseMsFor = (c: WardConfig) => c.callbackTimeoutMs * 3 + 60_000

async function buildPayload(
  o: IntegrationSenderOptions,
  d: IntegrationDeliveryRow,
  integ: NonNullable<Awaited<ReturnType<typeof integrationById>>>,
): Promise<Payload | Skip> {
  const publicUrl = o.config.publicUrl
  switch (d.kind) {
    case 'scan':
      return scanEvent(o.db, d.scan_id!, integ, { publicUrl, toolName: o.toolName })
    case 'schedule': {
      const r = JSON.parse(d.ref ?? '{}') as { schedule_id: number; name: string; slot_at: string; message: string | null }
      return {
        kind: 'notice',
        title: `Ward: schedule "${r.name || r.schedule_id}" missed its slot`,
        text: `The slot of ${r.slot_at} queued no scan: ${r.message ?? 'no reason recorded'}.`,
        link: publicUrl ? `${publicUrl}/scans` : null,
      }
    }
    case 'triage':
      return { kind: 'triage', ...(JSON.parse(d.ref ?? '{}') as { dedup_key: string; reason: string | null }) }
    default:
      return {
        kind: 'test',
        title: `Ward: test message for "${integ.name}"`,
        text: 'This is a test from Ward. When you can read it, the integration works.',
        link: publicUrl,
      }
  }
}

function nextStep(
  o: IntegrationSenderOptions,
  d: IntegrationDeliveryRow,
  out: Outcome,
  n: number,
): IntegrationAttempt['next'] & { error?: string } {
  if (out.verdict === 'delivered' || out.verdict === 'refused' || out.verdict === 'failed') return { status: out.verdict }
  const at = Date.now() + retryDelay(o.config, n, out.retryAfter ?? null)
  if (at <= Date.parse(d.created_at) + o.config.callbackRetryWindowMs) return { status: 'pending', at: new Date(at).toISOString() }
  return { status: 'failed', error: `; gave up: the retry window of ${Math.round(o.config.callbackRetryWindowMs / 60000)} min is over` }
}

async function attempt(o: IntegrationSenderOptions, d: IntegrationDeliveryRow, stopping: AbortSignal): Promise<void> {
  const { db, owner, log } = o
  const n = d.attempts + 1
  const startedAt = nowIso()
  const t0 = Date.now()
  const record = (out: Outcome, next: IntegrationAttempt['next']) =>
    recordIntegrationAttempt(db, owner, d.id, {
      attempt: n,
      startedAt,
      statusCode: out.statusCode,
      answer: out.answer,
      error: out.error,
      durationMs: Date.now() - t0,
      next,
    })
  const row = await integrationById(db, d.integration_id)
  if (!row)
    return void (await record(
      { verdict: 'failed', statusCode: null, answer: null, error: 'the integration was deleted' },
      { status: 'failed' },
    ))
  if (row.enabled !== 1 && d.kind !== 'test')
    return void (await record(
      { verdict: 'failed', statusCode: null, answer: null, error: 'not sent: the integration is disabled' },
      { status: 'skipped' },
    ))
  let out: Outcome
  try {
    const payload = await deliveryPayload(db, d.id, () => buildPayload(o, d, row))
    if ('skip' in payload)
      return void (await record({ verdict: 'delivered', statusCode: null, answer: null, error: payload.skip }, { status: 'skipped' }))
    if (stopping.aborted) return void (await releaseIntegrationDelivery(db, owner, d.id))
    const ctx: ChannelContext = {
      db,
      integ: openIntegration(db, row),
      delivery: d,
      transport: o.transport,
      timeoutMs: o.config.callbackTimeoutMs,
      publicUrl: o.config.publicUrl,
      log,
      renew: async () => void (await renewIntegrationLease(db, owner, d.id, leaseMsFor(o.config))),
    }
    out = await CHANNELS[row.type as IntegrationType](ctx, payload)
  } catch (e) {
    out = e instanceof ReceiverError ? e.outcome : { verdict: 'retry', statusCode: null, answer: null, error: describe(e) }
  }
  const next = nextStep(o, d, out, n)
  if ('error' in next && next.error) out.error = `${out.error ?? ''}${next.error}`
  const kept = await record(out, next.status === 'pending' ? { status: 'pending', at: next.at } : { status: next.status })
  if (!kept) log.warn({ delivery: d.id }, 'integration delivery lease was lost before the attempt was recorded')
  log.info(
    { delivery: d.id, integration: d.integration_id, attempt: n, status: out.statusCode, next: next.status },
    'integration delivery attempt',
  )
}

export interface IntegrationSender {
  stop(): Promise<void>
}

export function startIntegrationSender(o: IntegrationSenderOptions): IntegrationSender {
  const concurrency = o.concurrency ?? 2
  const stopping = new AbortController()
  const loop = startOutboxLoop({
    concurrency,
    pollMs: o.config.pollMs,
    log: o.log,
    stopping,
    claim: () => claimIntegrationDelivery(o.db, o.owner, leaseMsFor(o.config)),
    attempt: (d) => attempt(o, d, stopping.signal),
    failed: { attempt: 'integration delivery attempt failed', claim: 'claiming integration deliveries failed' },
  })
  return {
    async stop() {
      if (await loop.stop()) await o.transport.close?.()
    },
  }
}
