import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callerOf } from '../context.js'
import { deleteItem, readItem } from '../item-change.js'
import { workspacePage } from '../list-query.js'
import { Created, Data, NoContent, routeDoc, CONFLICT_ERRORS, READ_ERRORS } from '../schemas/common.js'
import { CreateTargetBody, Target, TargetsQuery } from '../schemas/targets.js'
import { createTarget } from '../../domain/targets.js'
import { deleteTarget, getTarget, listTargets } from '../../store/targets.js'
import { audited } from '../../store/audit.js'
import type { TargetRow } from '../../store/schema.js'

const doc = routeDoc('targets')
const TARGET = { what: 'Target', read: getTarget }

export const targetView = (t: TargetRow) => ({
  id: t.id,
  name: t.name,
  type: t.type as 'hostname' | 'ip_address' | 'url',
  description: t.description,
  workspace_id: t.workspace_id,
})

export const targetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward

  app.get('/targets', {
    schema: doc.list("List targets (all of the caller's workspaces unless workspace_id)", Target, TargetsQuery),
    handler: async (req) => {
      const q = req.query
      const rows = await listTargets(db, callerOf(req).userId, { type: q.type, ...workspacePage(q) })
      return { data: rows.map(targetView) }
    },
  })

  app.post('/targets', {
    schema: {
      ...doc(
        'Create a target (form-urlencoded or JSON); the type is inferred from the name',
        { 201: Created },
        [400, 401, 403, 404, 409, 413, 415, 429],
      ),
      body: CreateTargetBody,
      consumes: ['application/x-www-form-urlencoded', 'application/json'],
    },
    handler: async (req, reply) => {
      const b = req.body
      const r = await audited(
        db,
        req.audit,
        (trx) =>
          createTarget(trx, callerOf(req), app.ward.blocklist, { name: b.name, description: b.description, workspaceId: b.workspace_id }),
        (r) => ({ objectId: r.id }),
      )
      return reply.status(201).send({ data: { created_id: r.id } })
    },
  })

  app.get('/targets/:id', {
    schema: doc.byId('Read a target', { 200: Data(Target) }, READ_ERRORS),
    handler: async (req) => {
      const t = await readItem(db, req, TARGET)
      return { data: targetView(t) }
    },
  })

  app.delete('/targets/:id', {
    schema: doc.byId('Delete a target with its scans, tests and findings', { 204: NoContent }, CONFLICT_ERRORS),
    handler: async (req, reply) => {
      await deleteItem(db, req, TARGET, deleteTarget, 'Target has running scans: stop them before deleting the target')
      return reply.status(204).send(null)
    },
  })
}
