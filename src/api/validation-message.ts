// Ajv's validation errors → one sentence about the input ("query parameter "limit" must be a whole
// number from 1 to 1000 (got 0)"), never about the validator's internals ("must match a schema in anyOf").
import { describeSchema, shown, type SchemaLike } from '../toolkit/schema-words.js'

export interface AjvErrorLike {
  keyword: string
  instancePath?: string
  params?: Record<string, unknown>
  message?: string
  parentSchema?: SchemaLike
  data?: unknown
}

const WHERE: Record<string, string> = { params: 'path parameter', querystring: 'query parameter', body: 'body field', headers: 'header' }

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
  if (e.keyword === 'pattern')
    return `Invalid parameters: ${where} "${member}" has an invalid format${got}${e.parentSchema?.description ? `: ${e.parentSchema.description}` : ''}`
  return `Invalid parameters: ${where} "${member}" must be ${describeSchema(e.parentSchema)}${got}`
}
