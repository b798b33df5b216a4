// tool_params the CMS scanners share: how hard they may press a site, and how far they enumerate.
import { Type } from '@sinclair/typebox'

/** Requests in flight and per second at most; `concurrency` is the scanner's default. */
export const pacingParams = (concurrency: number) => ({
  concurrency: Type.Integer({ default: concurrency, minimum: 1, maximum: 50, description: 'Requests in flight at most' }),
  rate_limit: Type.Integer({ default: 30, minimum: 1, maximum: 1000, description: 'Requests per second at most' }),
})

/** Which components are probed besides those the pages name; `description` says what they are. */
export const enumerateParam = (description: string) =>
  Type.Union([Type.Literal('none'), Type.Literal('popular'), Type.Literal('all')], { default: 'popular', description })
