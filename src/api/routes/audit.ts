// GET /audit: the audit log of the workspaces the caller owns, and the caller's own entries that
// belong to no workspace (sign-ins, keys). Newest first, with filters and paging.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { callerOf } from '../context.js'
import { Id, Nullable, Pagination, routeDoc } from '../schemas/common.js'
import { listAudit, type AuditRow } from '../../store/audit.js'
import { toApiTime } from '../../store/time.js'
import { isoRange, workspacePage } from '../list-query.js'
import { pick } from '../views.js'

const doc = routeDoc('audit')

const AuditEntry = Type.Object({
  id: Type.Integer(),
  at: Type.String({ description: 'ISO 8601 UTC' }),
  workspace_id: Nullable(Type.Integer()),
  actor: Type.String({ description: 'the user, with "(key <prefix>)" when an API key acted, or "system"' }),
  actor_user_id: Nullable(Type.Integer()),
  client: Nullable(Type.String({ description: 'the client address' })),
  action: Type.String({ description: 'e.g. scan.started, finding.triaged, member.removed, sign_in.failed' }),
  object_type: Nullable(Type.String()),
  object_id: Nullable(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown(), { description: 'what changed (never a secret)' }),
})

const AuditQuery = Type.Object(
  {
    workspace_id: Type.Optional(Id),
    actor: Type.Optional(Type.String({ maxLength: 300 })),
    action: Type.Optional(Type.String({ maxLength: 100 })),
    from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 time, inclusive' })),
    to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 time, inclusive' })),
    ...Pagination,
  },
  { additionalProperties: false },
)

const auditView = (r: AuditRow) => ({
  id: r.id,
  at: toApiTime(r.at)!,
  ...pick(r, ['workspace_id', 'actor', 'actor_user_id', 'client', 'action', 'object_type', 'object_id']),
  details: JSON.parse(r.details) as Record<string, unknown>,
})

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward
  app.get('/audit', {
    schema: doc.list(
      'The audit log of the workspaces the caller owns (and their own sign-ins and keys), newest first',
      AuditEntry,
      AuditQuery,
    ),
    handler: async (req) => {
      const q = req.query
      const filter = { actor: q.actor, action: q.action, ...workspacePage(q), ...isoRange(['from', 'to'], q.from, q.to) }
      return { data: (await listAudit(db, callerOf(req).userId, filter)).map(auditView) }
    },
  })
}
