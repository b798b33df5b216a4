// GET /scans/{id}/callbacks: the report-callback deliveries of a scan with every attempt and its
// HTTP status (never the secret).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { readItem } from '../item-change.js'
import { Data, Nullable, routeDoc, READ_ERRORS } from '../schemas/common.js'
import { getScan } from '../../store/scans.js'
import { scanDeliveries } from '../../store/callbacks.js'
import { toApiTime } from '../../store/time.js'
import { pick, pickThen } from '../views.js'

const doc = routeDoc('scans')

const Attempt = Type.Object({
  attempt: Type.Integer(),
  started_at: Type.String(),
  status_code: Nullable(Type.Integer({ description: 'HTTP status the receiver answered; null on a network error or timeout' })),
  error: Nullable(Type.String()),
  duration_ms: Type.Integer(),
})

const Delivery = Type.Object({
  id: Type.Integer(),
  scan_id: Type.Integer(),
  event_id: Type.String({ description: 'sent as x-ward-event-id on every attempt' }),
  url: Type.String(),
  format: Type.Union([Type.Literal('json'), Type.Literal('pdf')]),
  signed: Type.Boolean({ description: 'a secret is set: attempts carry x-ward-signature and x-ward-timestamp' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('skipped')], {
    description: 'skipped: only_on_change was asked and nothing changed (last_error says since which scan)',
  }),
  attempt_count: Type.Integer(),
  next_attempt_at: Nullable(Type.String({ description: 'when the next attempt is due (pending deliveries only)' })),
  last_status_code: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  created_at: Type.String(),
  delivered_at: Nullable(Type.String()),
  attempts: Type.Array(Attempt),
})

export const callbackRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward

  app.get('/scans/:id/callbacks', {
    schema: doc.byId('Report-callback deliveries of a scan and their attempts', { 200: Data(Type.Array(Delivery)) }, READ_ERRORS),
    handler: async (req) => {
      const s = await readItem(db, req, { what: 'Scan', read: getScan })
      const rows = await scanDeliveries(db, s.id)
      return {
        data: rows.map((d) =>
          pickThen(d, ['id', 'scan_id', 'event_id', 'url'], {
            format: d.format as 'json' | 'pdf',
            signed: d.secret !== null,
            status: d.status as 'pending' | 'delivered' | 'failed' | 'skipped',
            attempt_count: d.attempts,
            next_attempt_at: d.status === 'pending' ? toApiTime(d.next_attempt_at) : null,
            ...pick(d, ['last_status_code', 'last_error'] as const),
            created_at: toApiTime(d.created_at)!,
            delivered_at: toApiTime(d.delivered_at),
            attempts: d.attempt_list.map((a) => ({
              attempt: a.attempt,
              started_at: toApiTime(a.started_at)!,
              ...pick(a, ['status_code', 'error', 'duration_ms'] as const),
            })),
          }),
        ),
      }
    },
  })
}
