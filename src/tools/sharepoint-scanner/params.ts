// tool_params of the SharePoint Scanner: defaults and limits live in the schema (validated before a scan is queued).
import { Type, type Static } from '@sinclair/typebox'
import { pacingParams } from '../lib/cms/params.js'

export const sharepointParams = Type.Object(
  {
    max_items: Type.Integer({
      default: 100,
      minimum: 1,
      maximum: 1000,
      description: 'Site users and lists kept in the output at most (the findings count them all)',
    }),
    ...pacingParams(4),
  },
  { additionalProperties: false, default: {} },
)
export type SharepointParams = Static<typeof sharepointParams>
