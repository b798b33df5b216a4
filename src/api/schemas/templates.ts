// Check templates (nuclei YAML format) as the API shows them: read-only for every user.
import { Type } from '@sinclair/typebox'
import { Nullable, Pagination } from './common.js'

const SEVERITY = '(?:info|low|medium|high|critical|unknown)'

export const TemplatesQuery = Type.Object(
  {
    tags: Type.Optional(Type.String({ maxLength: 1000, description: 'comma-separated tags; a template with any of them is listed' })),
    severity: Type.Optional(
      Type.String({
        maxLength: 200,
        pattern: `^${SEVERITY}(?:,${SEVERITY})*$`,
        description: 'comma-separated severities (info, low, medium, high, critical, unknown)',
      }),
    ),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'text searched in id, name and description (case-insensitive)' })),
    page: Pagination.page,
    limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'maximum number of items returned (1..1000)' }),
  },
  { additionalProperties: false },
)

export const TemplateSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  severity: Type.String(),
  tags: Type.Array(Type.String()),
  author: Type.Array(Type.String()),
  description: Type.String(),
  reference: Type.Array(Type.String()),
  remediation: Type.String(),
  classification: Type.Object({
    cve_id: Type.Array(Type.String()),
    cwe_id: Type.Array(Type.String()),
    cvss_metrics: Nullable(Type.String()),
    cvss_score: Nullable(Type.Number()),
    epss_score: Nullable(Type.Number()),
    cpe: Nullable(Type.String()),
  }),
  protocol: Type.String({ description: 'http, tcp, dns or ssl' }),
  source: Type.Union([Type.Literal('shipped'), Type.Literal('imported')], {
    description:
      "'shipped': Ward's own library (templates/ of the release); 'imported' by the operator with `ward admin templates import` " +
      "(an imported template with a shipped template's id replaces it, and is listed once, as imported)",
  }),
  file_path: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
})

export const TemplateDetail = Type.Composite([
  TemplateSummary,
  Type.Object({ yaml: Type.String({ description: 'the template text (as imported, or as shipped)' }) }),
])

export const TemplateIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' }) })
