// tool_params of the Drupal Scanner: defaults and limits live in the schema (validated before a scan is queued).
import { Type, type Static } from '@sinclair/typebox'
import { enumerateParam, pacingParams } from '../lib/cms/params.js'

export const drupalParams = Type.Object(
  {
    enumerate: enumerateParam('Modules probed by their .info file besides those the pages name: none, popular (default) or all'),
    max_user_ids: Type.Integer({ default: 5, minimum: 0, maximum: 100, description: 'User ids tried with /user/N' }),
    ...pacingParams(8),
  },
  { additionalProperties: false, default: {} },
)
export type DrupalParams = Static<typeof drupalParams>
