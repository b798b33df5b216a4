// tool_params of the diagnostic tool: scanner-free, so the manifest can carry it.
import { Type, type Static } from '@sinclair/typebox'

export const diagnosticParams = Type.Object(
  {
    steps: Type.Integer({ minimum: 0, maximum: 10000, default: 4 }),
    step_ms: Type.Integer({ minimum: 0, maximum: 3600000, default: 50 }),
    ignore_abort: Type.Boolean({ default: false }),
    /** Steps that run (their test ends passed) without their finding: a fix the scan looked at. */
    quiet_steps: Type.Array(Type.Integer({ minimum: 1, maximum: 10000 }), { default: [], maxItems: 100 }),
    /** Steps whose test ends in error (a check that could not run). */
    error_steps: Type.Array(Type.Integer({ minimum: 1, maximum: 10000 }), { default: [], maxItems: 100 }),
    // Each step also holds its thread in synchronous code this long: a tool stuck in a loop.
    busy_ms: Type.Integer({ minimum: 0, maximum: 3600000, default: 0 }),
    fail: Type.Union(
      ['none', 'unreachable', 'start', 'auth', 'crash'].map((s) => Type.Literal(s)),
      { default: 'none' },
    ),
  },
  { additionalProperties: false },
)

export type DiagnosticParams = Static<typeof diagnosticParams>
