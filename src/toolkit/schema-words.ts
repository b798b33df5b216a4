// What a JSON schema accepts, in words ("a whole number from 1 to 1000", "one of "light", "deep""),
// for every message about input that failed one: the API's validation, tool_params and the CI client.

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

/** A short, printable rendering of an input value. */
export function shown(v: unknown): string {
  let s: string
  try {
    s = JSON.stringify(v) ?? String(v)
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
    const consts = s.anyOf.flatMap((b) => (b.const !== undefined ? [b.const] : (b.enum ?? [])))
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
