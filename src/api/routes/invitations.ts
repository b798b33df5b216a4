// Invitations to a workspace (owners only): a one-time link with a role, valid 7 days, revocable.
// The link's token is in the answer once; Ward keeps only its hash. The link opens a web page.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { callerOf } from '../context.js'
import { Data, NoContent, PathId, routeDoc, WRITE_ERRORS } from '../schemas/common.js'
import { Role } from '../schemas/members.js'
import { createInvitation, openInvitations, revokeInvitation } from '../../store/invitations.js'
import { getWorkspace } from '../../store/accounts.js'
import { toApiTime } from '../../store/time.js'
import { audited } from '../../store/audit.js'
import { notFound } from '../../domain/errors.js'
import { notOwner } from '../../domain/access.js'

const doc = routeDoc('workspaces')

const Invitation = Type.Object({ id: Type.Integer(), role: Role, created_at: Type.String(), expires_at: Type.String() })
const InvitationCreated = Data(
  Type.Object({
    created_id: Type.Integer(),
    path: Type.String({ description: 'the one-time link, relative to the web interface: /invite/<token>' }),
    expires_at: Type.String(),
  }),
)

export const invitationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward
  /** 404 for a non-member, 403 for a member who is not an owner. */
  const refuse = async (userId: number, workspaceId: number) =>
    (await getWorkspace(db, userId, workspaceId)) ? notOwner() : notFound('Workspace')

  app.post('/workspaces/:id/invitations', {
    schema: {
      ...doc.byId(
        'Create a one-time invitation link with a role, valid 7 days (owners only)',
        { 201: InvitationCreated },
        [400, 401, 403, 404, 415, 429],
      ),
      body: Type.Object({ role: Role }, { additionalProperties: false }),
    },
    handler: async (req, reply) => {
      const userId = callerOf(req).userId
      const inv = await audited(
        db,
        req.audit,
        (trx) => createInvitation(trx, userId, req.params.id, req.body.role),
        (inv) => !!inv && { objectId: inv.id },
      )
      if (!inv) throw await refuse(userId, req.params.id)
      const [row] = (await openInvitations(db, userId, req.params.id)).filter((i) => i.id === inv.id)
      return reply.status(201).send({ data: { created_id: inv.id, path: `/invite/${inv.token}`, expires_at: toApiTime(row?.expires_at)! } })
    },
  })

  app.get('/workspaces/:id/invitations', {
    schema: doc.byId(
      'Open invitations of the workspace (owners only; never their links)',
      { 200: Data(Type.Array(Invitation)) },
      WRITE_ERRORS,
    ),
    handler: async (req) => {
      const userId = callerOf(req).userId
      const ws = await getWorkspace(db, userId, req.params.id)
      if (ws?.role !== 'owner') throw await refuse(userId, req.params.id)
      const rows = await openInvitations(db, userId, req.params.id)
      return {
        data: rows.map((r) => ({
          id: r.id,
          role: r.role as 'owner' | 'member' | 'viewer',
          created_at: toApiTime(r.created_at)!,
          expires_at: toApiTime(r.expires_at)!,
        })),
      }
    },
  })

  app.delete('/workspaces/:id/invitations/:invitation_id', {
    schema: {
      ...doc('Revoke an open invitation (owners only)', { 204: NoContent }, WRITE_ERRORS),
      params: Type.Object({ id: PathId, invitation_id: PathId }),
    },
    handler: async (req, reply) => {
      const userId = callerOf(req).userId
      if (
        !(await audited(
          db,
          req.audit,
          (trx) => revokeInvitation(trx, userId, req.params.id, req.params.invitation_id),
          (ok) => ok,
        ))
      ) {
        const ws = await getWorkspace(db, userId, req.params.id)
        throw ws?.role === 'owner' ? notFound('Invitation') : await refuse(userId, req.params.id)
      }
      return reply.status(204).send(null)
    },
  })
}
