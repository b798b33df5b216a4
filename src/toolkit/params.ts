// tool_params: defaults from the tool's schema, then complete validation (the schema, then the tool's
// own rules) with a message naming the bad member and what it accepts, before a scan is queued.
// Credentials among them are write-only members (SecretParam): never repeated in a message, and
// stored sealed (mapSecretParams gives the API the members to seal; the worker opens them).
import { Value, type ValueError } from '@sinclair/typebox/value'
import { Type, type StringOptions, type TSchema } from '@sinclair/typebox'
import { describeSchema, shown, type SchemaLike } from './schema-words.js'

export type ParamsResult = { ok: true; value: unknown } | { ok: false; message: string }

function explain(e: ValueError): string {
  const s = e.schema as SchemaLike
  if (isSecret(s as Walkable)) return e.message.replace(/^Expected/, 'must be') + ' (the value is not shown: it is a secret)'
  const bounded = (s.type === 'integer' || s.type === 'number') && (s.minimum !== undefined || s.maximum !== undefined)
  if (s.enum || s.anyOf || bounded) return `must be ${describeSchema(s)} (got ${shown(e.value)})`
  if (e.message.startsWith('Expected string to match') && s.description)
    return `has an invalid format (got ${shown(e.value)}): ${s.description}`
  if (e.message === 'Unexpected property') return 'is not a parameter of this tool'
  return e.message.replace(/^Expected/, 'must be')
}

/**
 * An error on a union of kinds (objects told apart by a `type` constant, e.g. authentication): the
 * error inside the kind the value names, which says what is wrong rather than "must be an object or …".
 */
function withinKind(e: ValueError): ValueError {
  const branches = (e.schema as Walkable).anyOf
  const kind = e.value && typeof e.value === 'object' ? (e.value as Record<string, unknown>).type : undefined
  const branch = branches?.find((b) => (b.properties?.type as { const?: unknown } | undefined)?.const === kind && kind !== undefined)
  const inner = branch ? Value.Errors(branch as unknown as TSchema, e.value).First() : undefined
  return inner ? { ...inner, path: `${e.path}${inner.path}` } : e
}

export function resolveToolParams<P>(schema: TSchema, raw: unknown, validate?: (params: P) => string | undefined): ParamsResult {
  const value = Value.Default(schema, Value.Clone(raw ?? {}))
  const first = Value.Errors(schema, value).First()
  if (first) {
    const e = withinKind(first)
    const member = e.path ? e.path.replace(/^\//, '').replace(/\//g, '.') : '(root)'
    return { ok: false, message: `tool_params.${member} ${explain(e)}` }
  }
  const problem = validate?.(value as P)
  if (problem) return { ok: false, message: `tool_params.${problem.replace(/^(\w+): /, '$1 ')}` }
  return { ok: true, value }
}

/** A tool_params member holding a credential (a password, a token, a cookie): write-only. */
export const SecretParam = (options: StringOptions = {}) => Type.String({ ...options, writeOnly: true })

type Walkable = Omit<SchemaLike, 'anyOf' | 'items'> & {
  writeOnly?: boolean
  properties?: Record<string, Walkable>
  patternProperties?: Record<string, Walkable>
  additionalProperties?: unknown
  items?: Walkable
  anyOf?: Walkable[]
}

const isSecret = (s: Walkable): boolean => s.writeOnly === true || (s.anyOf ?? []).some((b) => b.writeOnly === true)

/**
 * `value` (valid tool_params) with `f` applied to every string the schema marks write-only
 * (SecretParam), in nested objects and arrays too; everything else as it is.
 */
export function mapSecretParams(schema: TSchema, value: unknown, f: (secret: string) => string): unknown {
  const walk = (s: Walkable, v: unknown): unknown => {
    if (typeof v === 'string') return isSecret(s) ? f(v) : v
    if (Array.isArray(v)) return s.items ? v.map((x) => walk(s.items!, x)) : v
    if (v && typeof v === 'object' && s.anyOf) {
      // A union of objects (authentication kinds): the branch whose `type` constant matches, else the
      // first whose properties hold every member.
      const kind = (v as Record<string, unknown>).type
      const branch =
        s.anyOf.find((b) => (b.properties?.type as { const?: unknown } | undefined)?.const === kind && kind !== undefined) ??
        s.anyOf.find((b) => b.properties && Object.keys(v).every((k) => k in b.properties!))
      return branch ? walk(branch, v) : v
    }
    if (v && typeof v === 'object') {
      const extra = typeof s.additionalProperties === 'object' ? (s.additionalProperties as Walkable) : null
      const byPattern = (k: string) => Object.entries(s.patternProperties ?? {}).find(([p]) => new RegExp(p, 'u').test(k))?.[1]
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => {
          const member = s.properties?.[k] ?? byPattern(k) ?? extra
          return [k, member ? walk(member, x) : x]
        }),
      )
    }
    return v
  }
  return walk(schema as Walkable, value)
}
