// The parts of a list route's query string that mean the same on every list: the workspace, the
// page, and a time range. One place turns them into the store's filter names.
import { badRequest } from '../domain/errors.js'

/** A query parameter that is an ISO 8601 time, as stored (400 otherwise). */
export function isoParam(name: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined
  const t = Date.parse(v)
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(t))
    throw badRequest(`Invalid parameters: query parameter "${name}" must be an ISO 8601 time such as 2026-11-21T10:15:00Z`)
  return new Date(t).toISOString()
}

/**
 * A time range of two query parameters, both ends inclusive: a `to` given to the second (as people
 * type it) takes in the whole of that second, as stored times carry milliseconds.
 */
export function isoRange(names: readonly [from: string, to: string], from: string | undefined, to: string | undefined) {
  return { from: isoParam(names[0], from), to: isoParam(names[1], to)?.replace(/\.000Z$/, '.999Z') }
}

/** The page asked for, in the store's names. */
export const pageOf = (q: { limit: number; page: number }) => ({ limit: q.limit, page: q.page })

/** The workspace (all of the caller's when none is given) and the page, in the store's names. */
export const workspacePage = (q: { workspace_id?: number; limit: number; page: number }) => ({
  workspaceId: q.workspace_id,
  ...pageOf(q),
})
