import { HTTP_TIMEOUT_MS } from '../../toolkit/timeouts.js'
import { Type, type Static } from '@sinclair/typebox'
import { authenticationParam } from '../lib/http/auth/params.js'
import { templatesParam } from '../lib/templates/params.js'

export const websiteParams = Type.Object(
  {
    scan_type: Type.Union([Type.Literal('light'), Type.Literal('deep')], {
      default: 'light',
      description:
        'light: passive checks with a handful of requests; deep: light plus a crawl of the site (bounded by time, rate and scope) and active injection checks',
    }),
    rate_limit: Type.Integer({ default: 100, minimum: 1, maximum: 10_000, description: 'Requests per second per host at most' }),
    authentication: authenticationParam,
    templates: Type.Optional(templatesParam),
  },
  { additionalProperties: false },
)
export type WebsiteParams = Static<typeof websiteParams>

/** Bounds of the deep scan (not user-tunable: they keep a scan's time and load predictable). */
export const LIMITS = {
  /**
   * The crawl has no page cap: it ends when the site has no new page, or at its share of the time left
   * before the scan's deadline (max_scan_time), leaving the rest for the active checks; without a
   * deadline (tool tests), after crawlBudgetMs.
   */
  crawlShareOfTimeLeft: 0.5,
  crawlBudgetMs: 10 * 60_000,
  /** Safety bound on URLs remembered (visited and queued): the memory of a crawl stays bounded (~100 bytes each). */
  maxKnownUrls: 200_000,
  maxDepth: 20,
  maxQueryVariantsPerPath: 3,
  /** Pages per URL pattern whose varying segment is a date (calendars): a few samples suffice. */
  maxPerDatePattern: 10,
  /** Pages per URL pattern whose varying segment is a number, UUID or hash (records, pagination). */
  maxPerIdPattern: 20_000,
  /** Sitemaps read (robots.txt Sitemap lines, /sitemap.xml and the sitemaps an index names), and URLs taken from them. */
  maxSitemaps: 10,
  maxSitemapUrls: 50_000,
  /** Pages listed in output_data.pages (the count is in pages_crawled). */
  maxPagesListed: 5_000,
  maxInjectionPoints: 40,
  maxParamsPerPoint: 8,
  concurrency: 8,
  bodyBytes: 512 * 1024,
  requestTimeoutMs: HTTP_TIMEOUT_MS,
  /** OS command injection: requested delay and the per-request limit for those probes. */
  sleepSeconds: 3,
  sleepTimeoutMs: 9000,
  /** Total time the time-based probes may take in one scan; beyond it they are skipped. */
  sleepBudgetMs: 120_000,
} as const
