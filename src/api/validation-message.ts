// Ajv's validation errors → one sentence about the input ("query parameter "limit" must be a whole
// number from 1 to 1000 (got 0)"), never about the validator's internals ("must match a schema in anyOf").

export interface SchemaLike {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  anyOf?: SchemaLike[]
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  format?: string
  pattern?: string
  items?: SchemaLike
  description?: string
}

export interface AjvErrorLike {
  keyword: string
  instancePath?: string
  params?: Record<string, unknown>
  message?: string
  parentSchema?: SchemaLike
  data?: unknown
}

const WHERE: Record<string, string> = { params: 'path parameter', querystring: 'query parameter', body: 'body field', headers: 'header' }

/** A short, printable rendering of an input value. */
export function shown(v: unknown): string {
  let s: string
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v)
  } catch {
    s = String(v)
  }
  return s.length > 60 ? `${s.slice(0, 57)}...` : s
}

/** What values a schema accepts, in words ("a whole number from 1 to 1000", "one of "a", "b""). */
export function describeSchema(s: SchemaLike | undefined): string {
  if (!s) return 'valid'
  if (s.enum) return `one of ${s.enum.map((v) => shown(v)).join(', ')}`
  if (s.const !== undefined) return shown(s.const)
  if (s.anyOf) {
    const consts = s.anyOf.flatMap((b) => (b.const !== undefined ? [b.const] : b.enum ?? []))
    const others = s.anyOf.filter((b) => b.const === undefined && !b.enum).map(describeSchema)
    const parts = [...(consts.length ? [`one of ${consts.map((v) => shown(v)).join(', ')}`] : []), ...others]
    return parts.join(' or ')
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  switch (type) {
    case 'integer':
    case 'number': {
      const kind = type === 'integer' ? 'a whole number' : 'a number'
      if (s.minimum !== undefined && s.maximum !== undefined) return `${kind} from ${s.minimum} to ${s.maximum}`
      if (s.minimum !== undefined) return `${kind} of at least ${s.minimum}`
      if (s.maximum !== undefined) return `${kind} of at most ${s.maximum}`
      return kind
    }
    case 'string': {
      if (s.format === 'uuid') return 'a UUID'
      if (s.format) return `a ${s.format}`
      if (s.minLength && s.maxLength) return `a text of ${s.minLength} to ${s.maxLength} characters`
      if (s.maxLength) return `a text of at most ${s.maxLength} characters`
      if (s.minLength) return `a text of at least ${s.minLength} character${s.minLength > 1 ? 's' : ''}`
      return 'a text'
    }
    case 'boolean':
      return 'true or false'
    case 'null':
      return 'null'
    case 'array':
      return s.items ? `a list of ${describeSchema(s.items).replace(/^an? /, '')} values` : 'a list'
    case 'object':
      return 'an object'
    default:
      return 'valid'
  }
}

const memberOf = (path: string | undefined) => (path ?? '').replace(/^\//, '').replace(/\//g, '.').replace(/~1/g, '/').replace(/~0/g, '~')

/** One sentence for Fastify's `err.validation` of one request part. */
export function validationMessage(errors: readonly AjvErrorLike[], context: string | undefined): string {
  const where = WHERE[context ?? ''] ?? 'request'
  // A union reports each failed branch, then itself. A branch error deeper than the union (a bad
  // member of an object alternative) says more; otherwise describe the union's alternatives.
  const union = errors.find((e) => e.keyword === 'anyOf')
  const deeper = union && errors.find((e) => e !== union && memberOf(e.instancePath).length > memberOf(union.instancePath).length)
  const e = deeper ?? union ?? errors[0]
  if (!e) return `Invalid parameters: the ${where === 'request' ? 'request' : where.split(' ')[0]} is invalid`
  const member = memberOf(e.instancePath)
  if (e.keyword === 'required') {
    const missing = String(e.params?.missingProperty ?? '')
    return `Invalid parameters: ${where} "${member ? `${member}.` : ''}${missing}" is required`
  }
  if (e.keyword === 'additionalProperties') {
    const extra = String(e.params?.additionalProperty ?? '')
    return `Invalid parameters: ${where} "${member ? `${member}.` : ''}${extra}" is not accepted here`
  }
  const got = 'data' in e ? ` (got ${shown(e.data)})` : ''
  if (!member) {
    if (context === 'body') return `Invalid parameters: the request body must be ${describeSchema(e.parentSchema)}${got}`
    return `Invalid parameters: ${where} must be ${describeSchema(e.parentSchema)}`
  }
  if (e.keyword === 'pattern') return `Invalid parameters: ${where} "${member}" has an invalid format${got}${e.parentSchema?.description ? `: ${e.parentSchema.description}` : ''}`
  return `Invalid parameters: ${where} "${member}" must be ${describeSchema(e.parentSchema)}${got}`
}
