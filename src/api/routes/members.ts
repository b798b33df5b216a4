// A workspace's members and their roles. Any member reads the list; only owners change it; a
// workspace always keeps an owner. A non-member gets 404 for all of it, as for an unknown id.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { callerOf } from '../context.js'
import { Created, Data, NoContent, routeDoc, CONFLICT_ERRORS, READ_ERRORS } from '../schemas/common.js'
import { AddMemberBody, ChangeMemberBody, Member, MemberParams } from '../schemas/members.js'
import { addMember, listMembers, removeMember, setMemberRole, type MemberChange } from '../../store/members.js'
import { userByName } from '../../store/accounts.js'
import { toApiTime } from '../../store/time.js'
import { audited } from '../../store/audit.js'
import type { Db } from '../../store/db.js'
import { notFound } from '../../domain/errors.js'
import { memberChangeError } from '../../domain/access.js'

const doc = routeDoc('workspaces')

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward
  const answer = (r: MemberChange, missingUser = 'Member') => {
    const e = memberChangeError(r, missingUser)
    if (e) throw e
  }

  app.get('/workspaces/:id/members', {
    schema: doc.byId("The workspace's members with their roles", { 200: Data(Type.Array(Member)) }, READ_ERRORS),
    handler: async (req) => {
      const rows = await listMembers(db, callerOf(req).userId, req.params.id)
      if (!rows) throw notFound('Workspace')
      return { data: rows.map((m) => ({ ...m, added_at: toApiTime(m.added_at)! })) }
    },
  })

  app.post('/workspaces/:id/members', {
    schema: {
      ...doc.byId(
        'Add a user to the workspace with a role (owners only); created_id is the user id',
        { 201: Created },
        [400, 401, 403, 404, 409, 415, 429],
      ),
      body: AddMemberBody,
    },
    handler: async (req, reply) => {
      const user = await userByName(db, req.body.user_name.trim())
      // An unknown name is told apart only after the caller proved to be an owner (inside addMember).
      const added = (trx: Db) => addMember(trx, callerOf(req).userId, req.params.id, user?.id ?? 0, req.body.role)
      answer(await audited(db, req.audit, added, (r) => r === 'done' && { objectId: user!.id }), 'User')
      return reply.status(201).send({ data: { created_id: user!.id } })
    },
  })

  app.patch('/workspaces/:id/members/:user_id', {
    schema: {
      ...doc(
        "Change a member's role (owners only; 409 when it would leave the workspace without an owner)",
        { 204: NoContent },
        [400, 401, 403, 404, 409, 415, 429],
      ),
      params: MemberParams,
      body: ChangeMemberBody,
    },
    handler: async (req, reply) => {
      const changed = (trx: Db) => setMemberRole(trx, callerOf(req).userId, req.params.id, req.params.user_id, req.body.role)
      answer(await audited(db, req.audit, changed, (r) => r === 'done'))
      return reply.status(204).send(null)
    },
  })

  app.delete('/workspaces/:id/members/:user_id', {
    schema: {
      ...doc('Remove a member (owners only; 409 for the last owner); their access ends at once', { 204: NoContent }, CONFLICT_ERRORS),
      params: MemberParams,
    },
    handler: async (req, reply) => {
      answer(
        await audited(
          db,
          req.audit,
          (trx) => removeMember(trx, callerOf(req).userId, req.params.id, req.params.user_id),
          (r) => r === 'done',
        ),
      )
      // Their cached caller may name this workspace as the active one; the store moved it.
      app.callers.forgetUser(req.params.user_id)
      return reply.status(204).send(null)
    },
  })
}
