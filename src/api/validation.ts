// Validation: JSON bodies are strict (a number is not a string), while path, query and
// form-encoded values — which are always text on the wire — are converted to the schema's types.
import type { FastifyInstance } from 'fastify'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'

function makeAjv(coerceTypes: boolean | 'array') {
  const ajv = new Ajv.default({ coerceTypes, useDefaults: true, removeAdditional: true, allErrors: false, strict: false })
  addFormats.default(ajv)
  return ajv
}

export function installValidation(app: FastifyInstance) {
  const strict = makeAjv(false)
  const coercing = makeAjv('array')
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema))

  // Form fields arrive as strings: convert them to the body schema's integer/boolean types first.
  app.addHook('preValidation', async (req) => {
    const ct = req.headers['content-type'] ?? ''
    if (!ct.startsWith('application/x-www-form-urlencoded') || !req.body || typeof req.body !== 'object') return
    const props = (req.routeOptions.schema?.body as { properties?: Record<string, { type?: string; anyOf?: { type?: string }[] }> } | undefined)?.properties
    if (!props) return
    const body = req.body as Record<string, unknown>
    for (const [k, v] of Object.entries(body)) {
      const def = props[k]
      if (typeof v !== 'string' || !def) continue
      const types = [def.type, ...(def.anyOf ?? []).map((a) => a.type)]
      if (types.includes('integer') && /^-?\d+$/.test(v.trim())) body[k] = Number(v.trim())
      else if (types.includes('boolean') && (v === 'true' || v === 'false')) body[k] = v === 'true'
    }
  })
}
