// PATCH /findings/{id} (triage applied to the whole duplicate group) and GET /findings/{id}/history.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { callerOf } from '../context.js'
import { readItem } from '../item-change.js'
import { refusal } from '../../domain/access.js'
import { acceptedUntilOf } from '../../domain/acceptance.js'
import { WRITER_ROLES } from '../../store/members.js'
import { Data, Nullable, routeDoc, READ_ERRORS } from '../schemas/common.js'
import { Finding, FindingStatus } from '../schemas/findings.js'
import { findingView } from '../../reports/finding-view.js'
import { badRequest } from '../../domain/errors.js'
import { getFinding } from '../../store/findings.js'
import { audited } from '../../store/audit.js'
import { groupHistory, updateFindingGroup, type FindingField } from '../../store/finding-history.js'
import { toApiTime } from '../../store/time.js'

const doc = routeDoc('findings')

const PatchBody = Type.Object(
  {
    status: Type.Optional(FindingStatus),
    risk_level: Type.Optional(Type.Integer({ minimum: 0, maximum: 4, description: '0 info, 1 low, 2 medium, 3 high, 4 critical' })),
    verified: Type.Optional(Type.Boolean()),
    reason: Type.Optional(Type.String({ maxLength: 2000, description: 'why; kept in the history' })),
    accepted_until: Type.Optional(
      Type.String({
        pattern: '^\\d{4}-\\d{2}-\\d{2}$',
        description:
          'extension: with status `accepted`, the last day the risk stays accepted (YYYY-MM-DD, today or later); ' +
          'the group re-opens after it, with a history entry',
      }),
    ),
  },
  { additionalProperties: false },
)

const HistoryValue = Nullable(Type.Union([Type.String(), Type.Integer(), Type.Boolean()]))
const HistoryEntry = Type.Object({
  id: Type.Integer(),
  finding_id: Nullable(
    Type.Integer({ description: 'the finding the change was made through (or the one whose arrival re-opened the group)' }),
  ),
  field: Type.Union([Type.Literal('status'), Type.Literal('risk_level'), Type.Literal('verified')]),
  old_value: HistoryValue,
  new_value: HistoryValue,
  reason: Nullable(Type.String()),
  user_id: Nullable(Type.Integer({ description: 'null when Ward made the change (a re-open)' })),
  created_at: Type.String(),
})

const typed = (field: string, v: string | null): string | number | boolean | null =>
  v === null ? null : field === 'risk_level' ? Number(v) : field === 'verified' ? v === 'true' : v

export const findingUpdateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward

  app.patch('/findings/:id', {
    schema: {
      ...doc.byId(
        'Triage a finding and all of its duplicates (status, risk_level, verified)',
        { 200: Data(Finding) },
        [400, 401, 403, 404, 415, 429],
      ),
      body: PatchBody,
    },
    handler: async (req) => {
      const c = callerOf(req)
      const b = req.body
      if (b.status === undefined && b.risk_level === undefined && b.verified === undefined)
        throw badRequest('Invalid parameters: give at least one of status, risk_level, verified')
      const f = await getFinding(db, c.userId, req.params.id, WRITER_ROLES)
      if (!f) throw await refusal(getFinding(db, c.userId, req.params.id), 'Finding')
      const reason = b.reason?.trim() || null
      const until = acceptedUntilOf(b.status, b.accepted_until)
      const changes = { status: b.status, risk_level: b.risk_level, verified: b.verified, accepted_until: until }
      const updated = await audited(
        db,
        req.audit,
        (trx) => updateFindingGroup(trx, f, changes, reason, c.userId),
        () => true,
      )
      return { data: findingView(updated) }
    },
  })

  app.get('/findings/:id/history', {
    schema: doc.byId("Changes to the finding's duplicate group, newest first", { 200: Data(Type.Array(HistoryEntry)) }, READ_ERRORS),
    handler: async (req) => {
      const f = await readItem(db, req, { what: 'Finding', read: getFinding })
      const rows = await groupHistory(db, f)
      return {
        data: rows.map((h) => ({
          id: h.id,
          finding_id: h.finding_id,
          field: h.field as FindingField,
          old_value: typed(h.field, h.old_value),
          new_value: typed(h.field, h.new_value),
          reason: h.reason,
          user_id: h.user_id,
          created_at: toApiTime(h.created_at)!,
        })),
      }
    },
  })
}
