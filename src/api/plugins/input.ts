// What a request may carry, and how it is read before the route sees it.
// - JSON bodies are strict (a number is not a string); path, query and form values — always text on
//   the wire — are converted to the schema's types, but only from their one canonical spelling: an id
//   is plain decimal digits, so "+1", "0x1", "1e0", "01" or " 1" never alias id 1.
// - A filter given twice or in bracket form (`task_id[]=13`) is refused, never silently dropped.
// - A route that takes no body ignores whatever body comes with it (clients in the field send
//   `Content-Type: application/json` with an empty body on stop and delete); a route that takes one
//   reads an empty JSON body as `{}`, so only its required members are reported missing.
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify'
import fp from 'fastify-plugin'
import formbody from '@fastify/formbody'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { badRequest } from '../../domain/errors.js'
import { unsupportedMediaType } from './error-body.js'
import { shown, type SchemaLike } from '../../toolkit/schema-words.js'
import { addRouteHook } from '../route-hooks.js'

export const BODY_LIMIT = 1024 * 1024
/** Deeper JSON than this is no request of ours, and walking it must not exhaust the stack. */
const MAX_JSON_DEPTH = 32
const DECIMAL = /^(0|[1-9][0-9]*)$/

function makeAjv(coerceTypes: boolean | 'array') {
  // verbose: errors carry the failing schema and value, so messages can name what is allowed.
  const ajv = new Ajv.default({ coerceTypes, useDefaults: true, removeAdditional: true, allErrors: false, strict: false, verbose: true })
  addFormats.default(ajv)
  return ajv
}

type ObjectSchema = { properties?: Record<string, SchemaLike> } | undefined

/** The schema of a member the route names: own keys only, so `__proto__` or `constructor` name nothing. */
const memberSchema = (props: Record<string, SchemaLike>, name: string): SchemaLike | undefined =>
  Object.hasOwn(props, name) ? props[name] : undefined

const takesBody = (req: FastifyRequest) => Boolean(req.routeOptions.schema?.body)
const typesOf = (s: SchemaLike | undefined): string[] =>
  s ? [...(Array.isArray(s.type) ? s.type : s.type ? [s.type] : []), ...(s.anyOf ?? []).flatMap(typesOf)] : []

/** Walks a parsed JSON body without recursion: depth, NUL characters and prototype-polluting keys. */
function checkJsonValue(root: unknown) {
  const stack: Array<{ v: unknown; depth: number; path: string }> = [{ v: root, depth: 0, path: '' }]
  while (stack.length) {
    const { v, depth, path } = stack.pop()!
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw badRequest(`Invalid parameters: body field "${path || '(root)'}" must not contain NUL characters`)
      continue
    }
    if (!v || typeof v !== 'object') continue
    if (depth >= MAX_JSON_DEPTH) throw badRequest(`Invalid parameters: the JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`)
    for (const [k, child] of Object.entries(v)) {
      if (k === '__proto__' || (k === 'constructor' && child && typeof child === 'object' && 'prototype' in child))
        throw badRequest(`Invalid parameters: the JSON body must not contain a "${k}" member`)
      stack.push({ v: child, depth: depth + 1, path: Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${k}` : k })
    }
  }
}

function parseJsonBody(req: FastifyRequest, text: string): unknown {
  if (!takesBody(req)) return undefined
  if (!text.trim()) return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    const why =
      e instanceof RangeError
        ? 'it is nested too deeply'
        : (e as Error).message.replace(/^Unexpected/, 'unexpected').replace(/\s+in JSON at position.*$/, '')
    throw badRequest(`Invalid parameters: the body is not valid JSON (${why})`)
  }
  checkJsonValue(value)
  return value
}

/** Each member's types, worked out once per route. */
type MemberTypes = Map<string, string[]>
const memberTypes = (s: unknown): MemberTypes =>
  new Map(Object.entries((s as ObjectSchema)?.properties ?? {}).map(([name, schema]) => [name, typesOf(schema)]))

/** One query or path value: the canonical spelling of its schema's type, given once. */
function checkTextValue(where: 'path' | 'query', name: string, value: unknown, types: string[]) {
  if (Array.isArray(value) && !types.includes('array'))
    throw badRequest(`Invalid parameters: ${where} parameter "${name}" is given ${value.length} times; give it once`)
  for (const v of Array.isArray(value) ? value : [value]) {
    if (typeof v !== 'string') continue
    if (v.includes('\u0000')) throw badRequest(`Invalid parameters: ${where} parameter "${name}" must not contain NUL characters`)
    if (types.includes('integer') && !types.includes('string') && !DECIMAL.test(v))
      throw badRequest(
        `Invalid parameters: ${where} parameter "${name}" must be a whole number in plain decimal digits, such as 12 (got ${shown(v)})`,
      )
  }
}

function checkQuery(req: FastifyRequest, props: Record<string, SchemaLike>, types: MemberTypes) {
  const query = (req.query ?? {}) as Record<string, unknown>
  for (const name in query) {
    if (!Object.hasOwn(query, name)) continue
    const known = types.get(name)
    if (known) {
      checkTextValue('query', name, query[name], known)
      continue
    }
    // Unknown plain names are tolerated (clients add their own); a bracket or a repeat of a name the
    // route knows would otherwise vanish silently and widen the answer.
    const base = name.replace(/\[.*$/, '')
    if (name.includes('[') || name.includes(']'))
      throw badRequest(
        memberSchema(props, base)
          ? `Invalid parameters: query parameter "${name}" is not accepted: give ${base} once, as a plain value (${base}=...)`
          : `Invalid parameters: query parameter "${name}" is not accepted here${
              Object.keys(props).length ? `; this route takes ${Object.keys(props).join(', ')}` : ''
            }`,
      )
  }
}

function checkParams(req: FastifyRequest, types: MemberTypes) {
  const params = (req.params ?? {}) as Record<string, unknown>
  for (const [name, t] of types) if (Object.hasOwn(params, name)) checkTextValue('path', name, params[name], t)
}

/** Form fields arrive as text: convert canonical spellings to the body schema's integer/boolean types. */
function convertForm(req: FastifyRequest, props: Record<string, SchemaLike>) {
  const ct = req.headers['content-type'] ?? ''
  if (!ct.startsWith('application/x-www-form-urlencoded') || !req.body || typeof req.body !== 'object') return
  const body = req.body as Record<string, unknown>
  for (const [k, v] of Object.entries(body)) {
    const schema = memberSchema(props, k)
    if (Array.isArray(v) && schema && !typesOf(schema).includes('array'))
      throw badRequest(`Invalid parameters: body field "${k}" is given ${v.length} times; give it once`)
    if (typeof v !== 'string') continue
    if (v.includes('\u0000')) throw badRequest(`Invalid parameters: body field "${k}" must not contain NUL characters`)
    const types = typesOf(schema)
    if (types.includes('integer') && DECIMAL.test(v.trim())) body[k] = Number(v.trim())
    else if (types.includes('boolean') && (v === 'true' || v === 'false')) body[k] = v === 'true'
  }
}

interface RouteMembers {
  params: MemberTypes
  queryProps: Record<string, SchemaLike>
  query: MemberTypes
  /** The body's members, or null when the route takes no body. */
  bodyProps: Record<string, SchemaLike> | null
}

const routeMembers = (schema: FastifySchema): RouteMembers => ({
  params: memberTypes(schema.params),
  queryProps: (schema.querystring as ObjectSchema)?.properties ?? {},
  query: memberTypes(schema.querystring),
  bodyProps: schema.body ? ((schema.body as ObjectSchema)?.properties ?? {}) : null,
})

async function inputPlugin(app: FastifyInstance) {
  const strict = makeAjv(false)
  const coercing = makeAjv('array')
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema))

  app.removeContentTypeParser('application/json')
  app.removeContentTypeParser('text/plain')
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (req, text, parsed) => {
    try {
      parsed(null, parseJsonBody(req, text as string))
    } catch (e) {
      parsed(e as Error)
    }
  })
  // Any other content type: ignored where the route takes no body, 415 where it takes one.
  app.addContentTypeParser('*', (req, payload, parsed) => {
    if (takesBody(req)) return parsed(unsupportedMediaType(req.headers['content-type']))
    payload.on('error', () => {})
    payload.on('end', () => parsed(null, undefined))
    payload.resume()
  })

  // Each route with a schema gets its own check, its members' types worked out on its first request
  // (from the schema as Fastify normalised it); a callback hook (no promise per request): the checks
  // are synchronous.
  app.addHook('onRoute', (route) => {
    if (!route.schema) return
    let members: RouteMembers | null = null
    const check = (req: FastifyRequest, _reply: unknown, done: (e?: Error) => void) => {
      try {
        const m = (members ??= routeMembers(req.routeOptions.schema!))
        checkParams(req, m.params)
        checkQuery(req, m.queryProps, m.query)
        if (!m.bodyProps) req.body = undefined
        else convertForm(req, m.bodyProps)
      } catch (e) {
        return done(e as Error)
      }
      done()
    }
    addRouteHook(route, 'preValidation', check, 'first')
  })
  await app.register(formbody, { bodyLimit: BODY_LIMIT })
}

export default fp(inputPlugin, { name: 'ward-input', fastify: '5.x', dependencies: ['ward-error-body'] })
