// --param k=v → tool_params. With the server's JSON schema of the tool's tool_params (GET /tools), the
// values are coerced to the schema's types and checked before the scan is started, so a typo is a
// usage error and not a scan that fails later; without a schema each value is taken as JSON when it
// parses as a number, boolean, array or object, and as a string otherwise.
import Ajv from 'ajv'
import addFormats from 'ajv-formats'

export class ParamError extends Error {}

export function parseParams(pairs: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const p of pairs) {
    const eq = p.indexOf('=')
    if (eq <= 0) throw new ParamError(`--param "${p}": expected key=value`)
    const k = p.slice(0, eq).trim()
    const v = p.slice(eq + 1)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new ParamError(`--param "${k}": not a parameter name`)
    if (k in out) throw new ParamError(`--param ${k} given twice`)
    out[k] = v
  }
  return out
}

/** Values as JSON where they read as JSON scalars/arrays/objects (no schema to say otherwise). */
export function guessTypes(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(params)) {
    const s = String(v)
    let parsed: unknown = s
    if (/^(-?\d+(\.\d+)?|true|false|null|\[.*\]|\{.*\})$/s.test(s.trim())) {
      try {
        parsed = JSON.parse(s)
      } catch {
        parsed = s
      }
    }
    out[k] = parsed
  }
  return out
}

export function validateParams(schema: unknown, params: Record<string, unknown>): Record<string, unknown> {
  const data = structuredClone(params)
  // Array-typed properties get a JSON array or a comma-separated list.
  const props: Record<string, { type?: unknown } | undefined> =
    (schema as { properties?: Record<string, { type?: unknown }> } | null)?.properties ?? {}
  for (const [k, v] of Object.entries(data)) {
    const t = props[k]?.type
    if (t === 'array' && typeof v === 'string') data[k] = v.trim().startsWith('[') ? safeJson(v) : v.split(',').map((x) => x.trim())
    if (t === 'object' && typeof v === 'string') data[k] = safeJson(v)
  }
  const ajv = new Ajv.default({ coerceTypes: 'array', strict: false, allErrors: true, verbose: true })
  addFormats.default(ajv)
  let validate: ReturnType<typeof ajv.compile>
  try {
    validate = ajv.compile(schema as object)
  } catch {
    return guessTypes(params) // a schema this client cannot read: leave the checking to the server
  }
  if (!validate(data)) {
    const errs = validate.errors ?? []
    const anyOfPaths = new Set(errs.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath))
    const msgs = errs
      .filter((e) => !(e.keyword === 'const' && anyOfPaths.has(e.instancePath)))
      .map((e) => {
        const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : ''
        if (e.keyword === 'additionalProperties')
          return `unknown parameter "${(e.params as { additionalProperty?: string }).additionalProperty}" (known: ${Object.keys(props).join(', ') || 'none'})`
        if (e.keyword === 'enum') return `${where}: must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`
        const alts =
          e.keyword === 'anyOf' && Array.isArray(e.schema) ? (e.schema as Array<{ const?: unknown } | null>).map((a) => a?.const) : []
        if (alts.length && alts.every((a) => a !== undefined)) return `${where}: must be one of ${alts.join(', ')}`
        return `${where || 'tool_params'} ${e.message}`
      })
    throw new ParamError(`invalid --param: ${[...new Set(msgs)].join('; ')}`)
  }
  return data
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s)
  } catch {
    return s
  }
}
