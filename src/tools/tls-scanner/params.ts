// tool_params of the SSL/TLS Scanner.
import { Type, type Static } from '@sinclair/typebox'
import { templateRateLimitParam, templatesParamWith } from '../lib/templates/params.js'

export const TlsScannerParams = Type.Object(
  {
    // No schema default on purpose: a URL target's own port must win over 443 unless `port` is given.
    port: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 65535,
        description: 'TCP port of the TLS service. Default: the port of a URL target, else 443.',
      }),
    ),
    sni: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 253,
        pattern: '^[A-Za-z0-9._-]+$',
        description: 'Server name to send (SNI) and to match the certificate against. Default: the target host name.',
      }),
    ),
    rate_limit: templateRateLimitParam,
    templates: Type.Optional(
      templatesParamWith(
        'Check templates (nuclei YAML format, ssl protocol) to run against the port. By default every stored ' +
          'ssl template except those tagged dos, fuzz, intrusive or bruteforce (run only when named here).',
      ),
    ),
  },
  { additionalProperties: false },
)
export type TlsScannerParams = Static<typeof TlsScannerParams>
