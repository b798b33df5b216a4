// tool_params of the Drupal Scanner: defaults and limits live in the schema (validated before a scan is queued).
import { Type, type Static } from '@sinclair/typebox'

export const drupalParams = Type.Object(
  {
    enumerate: Type.Union([Type.Literal('none'), Type.Literal('popular'), Type.Literal('all')], {
      default: 'popular',
      description: 'Modules probed by their .info file besides those the pages name: none, popular (default) or all',
    }),
    max_user_ids: Type.Integer({ default: 5, minimum: 0, maximum: 100, description: 'User ids tried with /user/N' }),
    concurrency: Type.Integer({ default: 8, minimum: 1, maximum: 50, description: 'Requests in flight at most' }),
    rate_limit: Type.Integer({ default: 30, minimum: 1, maximum: 1000, description: 'Requests per second at most' }),
  },
  { additionalProperties: false, default: {} },
)
export type DrupalParams = Static<typeof drupalParams>
