// A page with a form, shown first empty and again with a refusal: what every such page starts from.
import type { FastifyRequest } from 'fastify'
import type { Db } from '../store/db.js'
import { userOf } from './context.js'
import { workspacesOf } from './workspace.js'

/** How a form page is shown again: the refusal's message and status, and the form as it was sent. */
export interface FormRefusal {
  error?: string
  status?: number
  form?: Record<string, string>
}

/** The user, the query, the form as sent (empty the first time) and the user's workspaces. */
export async function formPageOf(db: Db, req: FastifyRequest, o: FormRefusal) {
  const u = userOf(req)
  return { u, q: req.query as Record<string, string>, f: o.form ?? {}, ws: await workspacesOf(db, u) }
}
