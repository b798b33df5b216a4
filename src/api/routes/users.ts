// Instance administration (an extension beside the v2 interface): instance admins list users,
// disable and enable them, grant and withdraw the admin role, and see every workspace. Anyone else
// gets 403. Each change writes its audit entry in its own transaction (store/instance-admin.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { callerOf } from '../context.js'
import { Data, NoContent, Nullable, routeDoc, CONFLICT_ERRORS } from '../schemas/common.js'
import { isInstanceAdmin, listUsersForAdmin, setUserAdmin, setUserDisabled, type UserChange } from '../../store/instance-admin.js'
import { listAllWorkspaces } from '../../store/accounts.js'
import { toApiTime } from '../../store/time.js'
import { userChangeError, notAdmin } from '../../domain/access.js'
import { publish } from '../../store/notify.js'
import { auditActorOf } from '../plugins/audit.js'

const doc = routeDoc('instance')
/** A read for instance admins: no parameters to get wrong, a non-admin is refused (403). */
const ADMIN_READ_ERRORS = [401, 403, 429] as const

const User = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  is_admin: Type.Boolean(),
  disabled: Type.Boolean(),
  disabled_at: Nullable(Type.String({ description: 'ISO 8601 UTC' })),
  created_at: Type.String(),
  active_keys: Type.Integer(),
  workspaces: Type.Integer({ description: 'how many workspaces the user belongs to' }),
})

const InstanceWorkspace = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created_at: Type.String(),
  owners: Type.Array(Type.String()),
  members: Type.Integer({ description: 'how many people belong to it, owners included' }),
})

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ward
  const adminOnly = async (userId: number) => {
    if (!(await isInstanceAdmin(db, userId))) throw notAdmin()
  }

  /** A list for instance admins only: `rows` runs once the caller is known to be one. */
  const adminList = <T extends TSchema>(path: string, summary: string, item: T, rows: () => Promise<Static<T>[]>) =>
    app.get(path, {
      schema: doc(summary, { 200: Data(Type.Array(item)) }, ADMIN_READ_ERRORS),
      handler: async (req) => {
        await adminOnly(callerOf(req).userId)
        return { data: await rows() }
      },
    })
  adminList('/users', 'Every user, with admin role, state, active keys and memberships (instance admins only)', User, async () =>
    (await listUsersForAdmin(db)).map((u) => ({
      ...u,
      disabled: u.disabled_at !== null,
      disabled_at: toApiTime(u.disabled_at),
      created_at: toApiTime(u.created_at)!,
    })),
  )
  adminList('/instance/workspaces', 'Every workspace of the instance with its owners (instance admins only)', InstanceWorkspace, async () =>
    (await listAllWorkspaces(db)).map((w) => ({ ...w, created_at: toApiTime(w.created_at)! })),
  )

  const change = (
    path: string,
    summary: string,
    run: (id: number, by: number, actor: Awaited<ReturnType<typeof auditActorOf>>) => Promise<UserChange>,
  ) =>
    app.post(path, {
      schema: doc.byId(summary, { 204: NoContent }, CONFLICT_ERRORS),
      handler: async (req, reply) => {
        const by = callerOf(req).userId
        await adminOnly(by)
        const e = userChangeError(await run(req.params.id, by, await auditActorOf(db, req)))
        if (e) throw e
        // Cached callers of the user go at once here, and in other API processes when the event reaches them.
        app.callers.forgetUser(req.params.id)
        publish({ type: 'user-changed', userId: req.params.id })
        return reply.status(204).send(null)
      },
    })
  change(
    '/users/:id/disable',
    "Disable a user: their API keys and web sessions stop at once (an admin can't disable themselves)",
    (id, by, actor) => setUserDisabled(db, id, true, { by, actor }),
  )
  change('/users/:id/enable', 'Enable a disabled user again', (id, by, actor) => setUserDisabled(db, id, false, { by, actor }))
  change('/users/:id/admin', 'Make a user an instance admin', (id, by, actor) => setUserAdmin(db, id, true, { by, actor }))
  change('/users/:id/admin/revoke', 'Withdraw the instance admin role (409 for the last enabled admin)', (id, by, actor) =>
    setUserAdmin(db, id, false, { by, actor }),
  )
}
