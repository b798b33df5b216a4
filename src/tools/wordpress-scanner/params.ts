// tool_params of the WordPress Scanner: defaults and limits live in the schema (validated before a scan is queued).
import { Type, type Static } from '@sinclair/typebox'
import { enumerateParam, pacingParams } from '../lib/cms/params.js'

export const wordpressParams = Type.Object(
  {
    enumerate: enumerateParam('Plugins probed by their readme besides those the pages name: none, popular (~30, default) or all (~100)'),
    max_author_ids: Type.Integer({ default: 10, minimum: 0, maximum: 100, description: 'Author ids tried with /?author=N' }),
    ...pacingParams(8),
  },
  { additionalProperties: false, default: {} },
)
export type WordpressParams = Static<typeof wordpressParams>
