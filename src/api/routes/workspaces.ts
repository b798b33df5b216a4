import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { callerOf } from '../context.js'
import { Created, Data, NoContent, routeDoc, CONFLICT_ERRORS, READ_ERRORS } from '../schemas/common.js'
import { createWorkspace, getWorkspace, listWorkspaces, setActiveWorkspace } from '../../store/accounts.js'
import { badRequest, conflict, notFound } from '../../domain/errors.js'
import { isUniqueViolation } from '../../domain/targets.js'
import { Role } from '../schemas/members.js'
import { deleteWorkspace } from '../../store/workspace-deletion.js'
import { audited } from '../../store/audit.js'
import { memberChangeError } from '../../domain/access.js'
import { auditActorOf } from '../plugins/audit.js'

const doc = routeDoc('workspaces')

const Workspace = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  active: Type.Boolean(),
  vpn_profile_uuid: Type.Union([Type.String(), Type.Null()]),
  role: Role,
})

export const workspaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward

  app.get('/workspaces', {
    schema: {
      ...doc("List every workspace the caller belongs to, with the caller's role in it", { 200: Data(Type.Array(Workspace)) }, [401, 429]),
    },
    handler: async (req) => {
      const c = callerOf(req)
      const rows = await listWorkspaces(db, c.userId)
      return {
        data: rows.map((w) => ({
          id: w.id,
          name: w.name,
          active: w.id === c.activeWorkspaceId,
          vpn_profile_uuid: w.vpn_profile_uuid,
          role: w.role,
        })),
      }
    },
  })

  app.post('/workspaces', {
    schema: {
      ...doc('Create a workspace (JSON or form)', { 201: Created }, [400, 401, 409, 429]),
      body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }),
    },
    handler: async (req, reply) => {
      const name = req.body.name.trim()
      if (!name || /[\u0000-\u001f]/.test(name)) throw badRequest('Invalid parameters: name must be a non-empty single line')
      try {
        const id = await audited(
          db,
          req.audit,
          (trx) => createWorkspace(trx, callerOf(req).userId, name),
          (id) => ({ objectId: id }),
        )
        return reply.status(201).send({ data: { created_id: id } })
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(`Workspace "${name}" already exists`)
        throw e
      }
    },
  })

  app.post('/workspaces/:id/activate', {
    schema: doc.byId("Set the caller's active workspace", { 204: NoContent }, READ_ERRORS),
    handler: async (req, reply) => {
      const c = callerOf(req)
      if (!(await getWorkspace(db, c.userId, req.params.id))) throw notFound('Workspace')
      await setActiveWorkspace(db, c.userId, req.params.id)
      app.callers.forgetUser(c.userId)
      return reply.status(204).send(null)
    },
  })

  app.delete('/workspaces/:id', {
    schema: doc.byId(
      'Delete a workspace with its targets, scans, findings and schedules (owners only; 409 while one of its scans runs)',
      { 204: NoContent },
      CONFLICT_ERRORS,
    ),
    handler: async (req, reply) => {
      const members: number[] = []
      const r = await deleteWorkspace(db, callerOf(req).userId, req.params.id, await auditActorOf(db, req), members)
      const e = memberChangeError(r, 'Workspace')
      if (e) throw e
      // Their cached callers may name it as the active workspace; the store moved them.
      for (const m of members) app.callers.forgetUser(m)
      return reply.status(204).send(null)
    },
  })
}
