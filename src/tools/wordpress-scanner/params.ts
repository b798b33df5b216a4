// tool_params of the WordPress Scanner: defaults and limits live in the schema (validated before a scan is queued).
import { Type, type Static } from '@sinclair/typebox'
import { templatesParamWith } from '../lib/templates/params.js'
import { RISKY_TAGS, type TemplateFilter } from '../lib/templates/select.js'
import { enumerateParam, pacingParams } from '../lib/cms/params.js'

export const wordpressParams = Type.Object(
  {
    enumerate: enumerateParam('Plugins probed by their readme besides those the pages name: none, popular (~30, default) or all (~100)'),
    max_author_ids: Type.Integer({ default: 10, minimum: 0, maximum: 100, description: 'Author ids tried with /?author=N' }),
    ...pacingParams(8),
    templates: Type.Optional(
      templatesParamWith(
        'Check templates (nuclei YAML format) to run against the site, shipped and imported: by default ' +
          'every http template tagged wordpress, except those tagged dos, fuzz, intrusive or bruteforce (run ' +
          'only when named here). Naming ids or tags here replaces the wordpress tag.',
      ),
    ),
  },
  { additionalProperties: false, default: {} },
)
export type WordpressParams = Static<typeof wordpressParams>

/**
 * The templates a scan runs: those the filter names by id or tag; else those tagged wordpress but
 * the risky tags, which a tag the caller did not give must not let in (selectTemplates runs
 * everything a named tag selects).
 */
export function wordpressTemplateFilter(f: TemplateFilter | undefined): TemplateFilter {
  if (f?.ids?.length || f?.tags?.length) return f
  return { ...f, tags: ['wordpress'], exclude_tags: [...(f?.exclude_tags ?? []), ...RISKY_TAGS] }
}
