// An audited change on an item the page has loaded, so the caller may read it: a change it could not
// make means the caller's role refused it (403).
import type { FastifyRequest } from 'fastify'
import { changeAs, viewerRefused, type ItemChange } from '../domain/access.js'
import type { AuditOutcome } from '../store/audit.js'
import type { Db } from '../store/db.js'
import { userOf } from './context.js'

/** The store's `change` on item `id` as the signed-in user (domain/access.ts changeAs), refused with 403. */
export const changeLoaded = <T>(
  db: Db,
  req: FastifyRequest,
  id: number,
  change: ItemChange<T>,
  outcome: (r: T) => AuditOutcome,
  missing?: T,
) => changeAs(db, req.audit, userOf(req).userId, id, change, outcome, viewerRefused, missing)
