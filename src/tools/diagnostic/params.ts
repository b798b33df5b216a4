// tool_params of the diagnostic tool: scanner-free, so the manifest can carry it.
import { Type } from '@sinclair/typebox'

export const diagnosticParams = Type.Object(
  {
    steps: Type.Integer({ minimum: 0, maximum: 10000, default: 4 }),
    step_ms: Type.Integer({ minimum: 0, maximum: 3600000, default: 50 }),
    ignore_abort: Type.Boolean({ default: false }),
    // Each step also holds its thread in synchronous code this long: a tool stuck in a loop.
    busy_ms: Type.Integer({ minimum: 0, maximum: 3600000, default: 0 }),
    fail: Type.Union(['none', 'unreachable', 'start', 'auth', 'crash'].map((s) => Type.Literal(s)), { default: 'none' }),
  },
  { additionalProperties: false },
)
