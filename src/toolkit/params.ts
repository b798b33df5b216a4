// tool_params: defaults from the tool's schema, then complete validation (the schema, then the tool's
// own rules) with a message naming the bad member and what it accepts, before a scan is queued.
import { Value, type ValueError } from '@sinclair/typebox/value'
import type { TSchema } from '@sinclair/typebox'

export type ParamsResult = { ok: true; value: unknown } | { ok: false; message: string }

interface SchemaInfo {
  anyOf?: SchemaInfo[]
  const?: unknown
  enum?: unknown[]
  type?: string
  minimum?: number
  maximum?: number
  maxLength?: number
  description?: string
}

/** The literal values a union of literals accepts, or null when the schema is something else. */
function literals(s: SchemaInfo): unknown[] | null {
  if (s.enum) return s.enum
  if (!s.anyOf || !s.anyOf.every((b) => b.const !== undefined)) return null
  return s.anyOf.map((b) => b.const)
}

function explain(e: ValueError): string {
  const s = e.schema as SchemaInfo
  const values = literals(s)
  if (values) return `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')} (got ${JSON.stringify(e.value)})`
  if ((s.type === 'integer' || s.type === 'number') && (s.minimum !== undefined || s.maximum !== undefined) && typeof e.value === 'number')
    return `must be a ${s.type === 'integer' ? 'whole number' : 'number'} from ${s.minimum ?? '-∞'} to ${s.maximum ?? '∞'} (got ${e.value})`
  if (e.message.startsWith('Expected string to match') && s.description) return `has an invalid format (got ${JSON.stringify(e.value)}): ${s.description}`
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
