// What the web pages get: the same database and rules the API routes use, handed over by the app.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ServiceContext } from '../domain/scans.js'
import type { WebUser } from '../store/web-sessions.js'
import type { OidcClient } from './oidc-client.js'

export interface WebContext extends ServiceContext {
  /** Called after a change the API's cached callers must see at once (active workspace, revoked key). */
  forgetUser?: (userId: number) => void
  /** The single sign-on provider, discovered at start (when WARD_OIDC_ISSUER is set). */
  oidc?: OidcClient | null
}

declare module 'fastify' {
  interface FastifyRequest {
    webUser: WebUser | null
  }
}

/** The signed-in user (the session hook guarantees it on every page but sign-in). */
export function userOf(req: FastifyRequest): WebUser {
  if (!req.webUser) throw new Error('no signed-in user on a page that needs one')
  return req.webUser
}

export type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>
