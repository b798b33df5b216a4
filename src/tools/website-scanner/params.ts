import { Type, type Static } from '@sinclair/typebox'

export const websiteParams = Type.Object(
  {
    scan_type: Type.Union([Type.Literal('light'), Type.Literal('deep')], {
      default: 'light',
      description: 'light: passive checks with a handful of requests; deep: light plus a bounded crawl and active injection checks',
    }),
  },
  { additionalProperties: false },
)
export type WebsiteParams = Static<typeof websiteParams>

/** Bounds of the deep scan (not user-tunable: they keep a scan's time and load predictable). */
export const LIMITS = {
  maxPages: 60,
  maxDepth: 4,
  maxQueryVariantsPerPath: 3,
  maxInjectionPoints: 40,
  maxParamsPerPoint: 8,
  concurrency: 4,
  bodyBytes: 512 * 1024,
  requestTimeoutMs: 10000,
  /** OS command injection: requested delay and the per-request limit for those probes. */
  sleepSeconds: 3,
  sleepTimeoutMs: 9000,
  /** Total time the time-based probes may take in one scan; beyond it they are skipped. */
  sleepBudgetMs: 120_000,
} as const
