// tool_params: defaults from the tool's schema, then complete validation (the schema, then the tool's
// own rules) with a message naming the bad member and what it accepts, before a scan is queued.
import { Value, type ValueError } from '@sinclair/typebox/value'
import type { TSchema } from '@sinclair/typebox'
import { describeSchema, shown, type SchemaLike } from './schema-words.js'

export type ParamsResult = { ok: true; value: unknown } | { ok: false; message: string }

function explain(e: ValueError): string {
  const s = e.schema as SchemaLike
  const bounded = (s.type === 'integer' || s.type === 'number') && (s.minimum !== undefined || s.maximum !== undefined)
  if (s.enum || s.anyOf || bounded) return `must be ${describeSchema(s)} (got ${shown(e.value)})`
  if (e.message.startsWith('Expected string to match') && s.description) return `has an invalid format (got ${shown(e.value)}): ${s.description}`
  if (e.message === 'Unexpected property') return 'is not a parameter of this tool'
  return e.message.replace(/^Expected/, 'must be')
}

export function resolveToolParams<P>(schema: TSchema, raw: unknown, validate?: (params: P) => string | undefined): ParamsResult {
  const value = Value.Default(schema, Value.Clone(raw ?? {}))
  const first = Value.Errors(schema, value).First()
  if (first) {
    const member = first.path ? first.path.replace(/^\//, '').replace(/\//g, '.') : '(root)'
    return { ok: false, message: `tool_params.${member} ${explain(first)}` }
  }
  const problem = validate?.(value as P)
  if (problem) return { ok: false, message: `tool_params.${problem.replace(/^(\w+): /, '$1 ')}` }
  return { ok: true, value }
}
