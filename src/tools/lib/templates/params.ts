// tool_params.templates, the same shape for every tool that runs templates (decisions.md "Templates").
import { Type } from '@sinclair/typebox'
import { SecretParam } from '../../../toolkit/params.js'

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
      // Each value is a secret (a password, a token): stored sealed, never shown, masked in evidence.
      variables: Type.Optional(
        Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_-]{0,63}$' }), SecretParam({ minLength: 1, maxLength: 1000 }), {
          additionalProperties: false,
          maxProperties: 50,
          description:
            'values of the variables templates leave to the user (nuclei\'s -var), e.g. {"username": "...", ' +
            '"password": "..."} for authenticated checks; stored sealed and masked in evidence',
        }),
      ),
    },
    {
      additionalProperties: false,
      description,
    },
  )

/**
 * tool_params.rate_limit of the tools whose templates open connections or ask DNS questions (350,
 * 450, 20), as the Website Scanner's rate_limit paces its http templates.
 */
export const templateRateLimitParam = Type.Integer({
  default: 100,
  minimum: 1,
  maximum: 10_000,
  description: 'Template requests (connections, TLS handshakes, DNS queries) per second per host at most',
})

export const templatesParam = templatesParamWith(
  'Check templates (nuclei YAML format) to run. Deep scans run every http template except those tagged ' +
    'dos, fuzz, intrusive or bruteforce unless named here; light scans run templates only when this is ' +
    'given.',
)
