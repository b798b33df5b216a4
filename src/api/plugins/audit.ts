// The audit log's intents: for a request listed in audited-routes.ts, the entry it will record is
// built before the handler runs (who acted: the user's name, the API key's prefix, the client
// address; the action, the object, where its workspace comes from and the kept fields) and handed to
// the change as `req.audit`; the store writes it in the change's own transaction (store/audit.ts
// `audited`), so nothing is done without its entry and a refused or failed change leaves none.
// Registered at the root: it sees the API and the web pages alike.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AUDITED, type AuditedRoute } from '../audited-routes.js'
import type { AuditActor, AuditIntent } from '../../store/audit.js'
import { userByName } from '../../store/accounts.js'
import type { Db } from '../../store/db.js'
import type { WebUser } from '../../store/web-sessions.js'
import { addRouteHook } from '../route-hooks.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The entry an audited request records when its change is done (see above). */
    audit?: AuditIntent
  }
}

const routeKey = (req: FastifyRequest) => `${req.method} ${req.routeOptions.url ?? ''}`
const paramOf = (req: FastifyRequest, name: string) => (req.params as Record<string, string> | undefined)?.[name]

function fieldsOf(a: AuditedRoute, req: FastifyRequest): Record<string, unknown> {
  const body = (req.body ?? {}) as Record<string, unknown>
  return Object.fromEntries((a.fields ?? []).filter((f) => body[f] !== undefined).map((f) => [f, body[f]]))
}

/** Who acted: the signed-in person, the API key's user with the key's prefix, or the name typed at sign-in. */
export async function actorOf(db: Db, req: FastifyRequest): Promise<{ id: number | null; name: string }> {
  const web = (req as { webUser?: WebUser | null }).webUser
  if (web) return { id: web.userId, name: web.name }
  if (req.caller) {
    const k = await db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select(['users.name', 'api_keys.key_prefix'])
      .where('api_keys.key_hash', '=', req.caller.keyHash)
      .executeTakeFirst()
    return { id: req.caller.userId, name: k ? `${k.name} (key ${k.key_prefix})` : `user ${req.caller.userId}` }
  }
  const typed = String((req.body as Record<string, unknown> | undefined)?.name ?? '')
    .trim()
    .slice(0, 200)
  return { id: (await userByName(db, typed))?.id ?? null, name: typed }
}

function workspaceOf(a: AuditedRoute, req: FastifyRequest): AuditIntent['workspace'] {
  if (a.workspace === 'param') return Number(paramOf(req, 'id'))
  if (a.workspace === 'active') return (req as { webUser?: WebUser | null }).webUser?.activeWorkspaceId ?? null
  return a.workspace ? { table: a.workspace } : null
}

/** The entry a refused attempt records (a failed sign-in), from the request's intent. */
export function failedIntent(req: FastifyRequest): AuditIntent | undefined {
  const a = AUDITED[routeKey(req)]
  return req.audit && a?.failedAction ? { ...req.audit, action: a.failedAction, written: false } : undefined
}

async function auditPlugin(app: FastifyInstance) {
  const { db } = app.ward
  const intent = async (req: FastifyRequest) => {
    const a = AUDITED[routeKey(req)]
    if (!a) return
    const actor = await actorOf(db, req)
    req.audit = {
      actorUserId: actor.id,
      actor: actor.name,
      client: req.ip,
      action: a.action,
      objectType: a.objectType,
      objectId: typeof a.id === 'object' ? (paramOf(req, a.id.param) ?? null) : null,
      workspace: workspaceOf(a, req),
      details: fieldsOf(a, req),
    }
  }
  // A done answer whose change wrote no entry is a handler that does not hand its intent on: a bug
  // to see in the logs and in the tests (test/api/audit.test.ts counts the entries of each action).
  const written = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const a = AUDITED[routeKey(req)]
    if (!a || !req.audit || req.audit.written) return payload
    const done = a.done
      ? a.done.includes(reply.statusCode)
      : req.url.startsWith('/api/')
        ? reply.statusCode >= 200 && reply.statusCode < 300
        : reply.statusCode === 303
    if (done) req.log.error({ route: routeKey(req), action: a.action }, 'audited change answered done without its audit entry')
    return payload
  }
  // On the audited routes only (first among their own hooks, as a root hook ran): two promises on
  // every read were a visible share of a small read's cost.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (!methods.some((m) => AUDITED[`${m} ${route.url}`])) return
    addRouteHook(route, 'preHandler', intent, 'first')
    addRouteHook(route, 'onSend', written, 'last')
  })
}

export default fp(auditPlugin, { name: 'ward-audit', fastify: '5.x' })

/** Who acted, for a change that writes its own audit entry inside its transaction. */
export async function auditActorOf(db: Db, req: FastifyRequest): Promise<AuditActor> {
  const a = await actorOf(db, req)
  return { actorUserId: a.id, actor: a.name, client: req.ip }
}
