// Schemas shared by the routes: ids, pagination, the error body, the {data} envelope.
import { Type, type TSchema } from '@sinclair/typebox'

export const MAX_ID = 2147483647
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID })
/** A path id: 0 is well-formed and names nothing (404, as clients in the field expect), not a 400. */
export const PathId = Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'identifier, in decimal digits' })
export const IdParams = Type.Object({ id: PathId })

export const Pagination = {
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 1000, description: 'maximum number of items returned (1..1000)' }),
  page: Type.Integer({ minimum: 1, maximum: 10000000, default: 1, description: 'page number, from 1' }),
}

export const ErrorBody = Type.Object(
  { status: Type.Integer(), message: Type.String(), details: Type.Optional(Type.Unknown()) },
  { $id: 'Error', description: 'The error body of every 4xx/5xx answer' },
)

export const Data = <T extends TSchema>(t: T) => Type.Object({ data: t })
export const Created = Data(Type.Object({ created_id: Type.Integer() }))
export const NoContent = Type.Null({ description: 'No body' })

/** Standard error responses for the OpenAPI document. */
export const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, ErrorBody]))

/** The error statuses a route may document (decisions.md error body). */
export type ErrorCode = 400 | 401 | 403 | 404 | 406 | 409 | 413 | 415 | 429 | 503

/** The error sets most routes share: a list, a read by id, and a change by id (viewers refused: 403). */
export const LIST_ERRORS: readonly ErrorCode[] = [400, 401, 429]
export const READ_ERRORS: readonly ErrorCode[] = [400, 401, 404, 429]
export const WRITE_ERRORS: readonly ErrorCode[] = [400, 401, 403, 404, 429]
/** A change by id that may conflict with the item's state (409). */
export const CONFLICT_ERRORS: readonly ErrorCode[] = [400, 401, 403, 404, 409, 429]
/** A change by id with a body (too large: 413; not JSON or a form: 415). */
export const BODY_ERRORS: readonly ErrorCode[] = [400, 401, 403, 404, 413, 415, 429]

/**
 * The documented part of a route's schema under one tag: its summary, its success answers and the
 * error codes it may give, so each route states only its own parameters beside it. `byId` is the same
 * for a route on one item named by its path id (IdParams); `list`, for a route listing items by a query.
 */
export const routeDoc = (tag: string) => {
  const doc = <R extends Record<number, TSchema>>(summary: string, ok: R, codes: readonly ErrorCode[]) => ({
    tags: [tag],
    summary,
    response: { ...ok, ...errors(...codes) } as R & { [C in ErrorCode]?: typeof ErrorBody },
  })
  const byId = <R extends Record<number, TSchema>>(summary: string, ok: R, codes: readonly ErrorCode[]) => ({
    ...doc(summary, ok, codes),
    params: IdParams,
  })
  const list = <T extends TSchema, Q extends TSchema>(summary: string, item: T, querystring: Q) => ({
    ...doc(summary, { 200: Data(Type.Array(item)) }, LIST_ERRORS),
    querystring,
  })
  return Object.assign(doc, { byId, list })
}

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])
