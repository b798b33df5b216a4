// tool_params.templates, the same shape for every tool that runs templates (decisions.md "Templates").
import { Type } from '@sinclair/typebox'

const names = (what: string) => Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 10_000, description: what })

/** tool_params.templates of a tool; `description` says which templates it runs by default. */
export const templatesParamWith = (description: string) =>
  Type.Object(
    {
      ids: Type.Optional(names('template ids to run (also those with the tags dos, fuzz, intrusive, bruteforce)')),
      tags: Type.Optional(names('run the templates with any of these tags')),
      severities: Type.Optional(
        Type.Array(Type.Union(['info', 'low', 'medium', 'high', 'critical', 'unknown'].map((s) => Type.Literal(s))), {
          maxItems: 6,
          description: 'only templates of these severities',
        }),
      ),
      exclude_tags: Type.Optional(names('never run templates with these tags')),
      exclude_ids: Type.Optional(names('never run these templates')),
    },
    {
      additionalProperties: false,
      description,
    },
  )

export const templatesParam = templatesParamWith(
  'Check templates (nuclei YAML format) to run. Deep scans run every http template except those tagged dos, fuzz, intrusive or bruteforce unless named here; light scans run templates only when this is given.',
)
