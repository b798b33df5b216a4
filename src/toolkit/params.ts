// tool_params: defaults from the tool's schema, then validation naming the bad member.
import { Value } from '@sinclair/typebox/value'
import type { TSchema } from '@sinclair/typebox'

export type ParamsResult = { ok: true; value: unknown } | { ok: false; message: string }

export function resolveToolParams(schema: TSchema, raw: unknown): ParamsResult {
  const value = Value.Default(schema, Value.Clone(raw ?? {}))
  const first = Value.Errors(schema, value).First()
  if (!first) return { ok: true, value }
  const member = first.path ? first.path.replace(/^\//, '').replace(/\//g, '.') : '(root)'
  return { ok: false, message: `tool_params.${member}: ${first.message}` }
}
