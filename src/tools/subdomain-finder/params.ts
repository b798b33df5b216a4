// tool_params of the Subdomain Finder: scanner-free, so the manifest can carry it.
import { Type, type Static } from '@sinclair/typebox'
import { templateRateLimitParam, templatesParamWith } from '../lib/templates/params.js'

export const subdomainFinderParams = Type.Object(
  {
    scan_type: Type.Union([Type.Literal('light'), Type.Literal('deep')], {
      default: 'light',
      description: 'light: ~200 names; deep: a few thousand',
    }),
    resolver: Type.Optional(
      Type.String({
        pattern: '^(\\[[0-9A-Fa-f:.]+\\](:\\d{1,5})?|[0-9.]+(:\\d{1,5})?|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*)$',
        description: "DNS server 'ip[:port]'; default WARD_DNS_RESOLVER, else /etc/resolv.conf",
      }),
    ),
    wordlist: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?$' }), {
        maxItems: 100_000,
        description: 'Names to try instead of the shipped list',
      }),
    ),
    rate_limit: templateRateLimitParam,
    templates: Type.Optional(
      templatesParamWith(
        'Check templates (nuclei YAML format, dns protocol) to run on the domain and every name found ' +
          '(takeover checks). By default every stored dns template except those tagged dos, fuzz, intrusive or ' +
          'bruteforce (run only when named here).',
      ),
    ),
  },
  { additionalProperties: false },
)

export type SubdomainFinderParams = Static<typeof subdomainFinderParams>
