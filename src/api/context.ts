// What route plugins get: the database and the rules' configuration. Decorated as `app.ward`.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Caller } from '../store/accounts.js'
import type { ServiceContext } from '../domain/scans.js'
import type { CallerCache } from './caller-cache.js'

export type WardContext = ServiceContext

/** The app a route plugin is given, for the helpers that register one group of its routes. */
export type RouteApp = Parameters<FastifyPluginAsyncTypebox>[0]

declare module 'fastify' {
  interface FastifyInstance {
    ward: WardContext
    /** Authenticated callers by key hash (see caller-cache.ts). */
    callers: CallerCache
  }
  interface FastifyRequest {
    caller: Caller | null
  }
}

/** The authenticated caller (the auth hook guarantees it inside /api/v2). */
export function callerOf(req: { caller: Caller | null }): Caller {
  if (!req.caller) throw new Error('no caller on an authenticated route')
  return req.caller
}
