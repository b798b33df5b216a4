// tool_params of the Network Vulnerability Scanner.
import { Type, type Static } from '@sinclair/typebox'
import { PORT_SPEC_PATTERN } from '../../toolkit/ports.js'
import { templateRateLimitParam, templatesParamWith } from '../lib/templates/params.js'

export const netvulnParams = Type.Object(
  {
    ports: Type.String({
      default: 'top1000',
      pattern: PORT_SPEC_PATTERN,
      description: 'TCP ports to discover, as for tool 70: "top100", "top1000", "all" or a list such as "22,80,8000-8100".',
    }),
    checks: Type.Object(
      {
        tls: Type.Boolean({ default: true, description: 'Run the SSL/TLS analysis of tool 450 on TLS ports.' }),
        active: Type.Boolean({
          default: true,
          description: 'Run the active service checks (anonymous FTP, unauthenticated Redis/MongoDB/memcached/Elasticsearch, SMTP relay).',
        }),
      },
      { default: {}, additionalProperties: false },
    ),
    rate_limit: templateRateLimitParam,
    templates: Type.Optional(
      templatesParamWith(
        'Check templates (nuclei YAML format) to run: tcp/network templates on the open ports they are for, ' +
          'ssl templates on TLS ports. By default every stored one except those tagged dos, fuzz, intrusive or ' +
          'bruteforce (run only when named here).',
      ),
    ),
  },
  { additionalProperties: false },
)

export type NetvulnParams = Static<typeof netvulnParams>
