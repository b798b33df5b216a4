// The audit log's writer: after a request listed in audited-routes.ts is answered as done (or, for
// sign-in, refused), one entry with the actor (user name, the API key's prefix, the client address),
// the object, its workspace and the kept fields. Written before the answer leaves, so a client that
// reads the log next finds it. Registered at the root: it sees the API and the web pages alike.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AUDITED, type AuditedRoute, type ObjectTable } from '../audited-routes.js'
import { appendAudit, type AuditActor } from '../../store/audit.js'
import { userByName } from '../../store/accounts.js'
import type { Db } from '../../store/db.js'
import type { WebUser } from '../../store/web-sessions.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The audited object's workspace, read before the handler ran (a deleted object's row is gone after). */
    auditWorkspace?: number | null
  }
}

const routeKey = (req: FastifyRequest) => `${req.method} ${req.routeOptions.url ?? ''}`
const paramOf = (req: FastifyRequest, name: string) => (req.params as Record<string, string> | undefined)?.[name]

async function workspaceOfObject(db: Db, table: ObjectTable, id: string | number | undefined): Promise<number | null> {
  const n = Number(id)
  if (!Number.isSafeInteger(n) || n < 1) return null
  return (await db.selectFrom(table).select('workspace_id').where('id', '=', n).executeTakeFirst())?.workspace_id ?? null
}

function objectIdOf(a: AuditedRoute, req: FastifyRequest, reply: FastifyReply, payload: unknown): string | null {
  if (!a.id) return null
  if (a.id === 'location') return /\/(\d+)(?:\?|$)/.exec(String(reply.getHeader('location') ?? ''))?.[1] ?? null
  if (a.id === 'created') {
    try {
      const id = JSON.parse(String(payload)).data?.created_id
      return id === undefined ? null : String(id)
    } catch {
      return null
    }
  }
  return paramOf(req, a.id.param) ?? null
}

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

async function auditPlugin(app: FastifyInstance) {
  const { db } = app.ward
  app.addHook('preHandler', async (req) => {
    const a = AUDITED[routeKey(req)]
    if (a?.workspace && a.workspace !== 'param' && a.workspace !== 'active' && typeof a.id === 'object')
      req.auditWorkspace = await workspaceOfObject(db, a.workspace, paramOf(req, a.id.param))
  })
  app.addHook('onSend', async (req, reply, payload) => {
    const a = AUDITED[routeKey(req)]
    if (!a) return payload
    const api = req.url.startsWith('/api/')
    const done = a.done
      ? a.done.includes(reply.statusCode)
      : api
        ? reply.statusCode >= 200 && reply.statusCode < 300
        : reply.statusCode === 303
    const failed = !done && !!a.failed?.includes(reply.statusCode)
    if (!done && !failed) return payload
    const objectId = objectIdOf(a, req, reply, payload)
    const web = (req as { webUser?: WebUser | null }).webUser
    const workspaceId =
      a.workspace === 'param'
        ? Number(paramOf(req, 'id'))
        : a.workspace === 'active'
          ? (web?.activeWorkspaceId ?? null)
          : a.workspace
            ? (req.auditWorkspace ?? (await workspaceOfObject(db, a.workspace, objectId ?? undefined)))
            : null
    const actor = await actorOf(db, req)
    await appendAudit(db, {
      workspaceId,
      actorUserId: actor.id,
      actor: actor.name,
      client: req.ip,
      action: failed ? a.failedAction! : a.action,
      objectType: a.objectType,
      objectId,
      details: fieldsOf(a, req),
    })
    return payload
  })
}

export default fp(auditPlugin, { name: 'ward-audit', fastify: '5.x' })

/** Who acted, for a change that writes its own audit entry inside its transaction. */
export async function auditActorOf(db: Db, req: FastifyRequest): Promise<AuditActor> {
  const a = await actorOf(db, req)
  return { actorUserId: a.id, actor: a.name, client: req.ip }
}
