// What each integration type takes in `config` and which addresses Ward will connect to on its
// behalf (each checked against the callback scope). TypeBox schemas: the API's OpenAPI document and
// the 400 messages both come from them.
import { Type, type TSchema } from '@sinclair/typebox'
import type { Config, IntegrationType } from '../store/integration-kinds.js'

const Url = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description })
const Text = (max: number, description?: string) => Type.String({ minLength: 1, maxLength: max, ...(description ? { description } : {}) })
const Strict = { additionalProperties: false }

export const CONFIG_SCHEMAS: Record<IntegrationType, TSchema> = {
  slack: Type.Object({ url: Url('Slack incoming webhook URL (a secret)') }, Strict),
  teams: Type.Object({ url: Url('Teams workflow webhook URL (a secret)') }, Strict),
  webhook: Type.Object(
    { url: Url('receiver URL'), secret: Type.Optional(Text(256, 'HMAC key: deliveries are signed as report callbacks are')) },
    Strict,
  ),
  email: Type.Object(
    {
      smtp_url: Url('smtp://user:password@host:587 (STARTTLS when offered) or smtps://... (TLS from the start); a secret'),
      from: Text(320),
      to: Type.Array(Text(320), { minItems: 1, maxItems: 50 }),
    },
    Strict,
  ),
  jira: Type.Object(
    {
      base_url: Url('https://your-site.atlassian.net or the Data Center base URL'),
      project_key: Text(64),
      issue_type: Type.Optional(Text(64, 'default Bug')),
      auth: Type.Union([Type.Object({ email: Text(320), api_token: Text(1024) }, Strict), Type.Object({ bearer: Text(2048) }, Strict)]),
      priorities: Type.Optional(
        Type.Record(Type.String({ pattern: '^[0-4]$' }), Text(64), { description: 'risk_level (0..4) → Jira priority name' }),
      ),
      resolve_transition: Type.Optional(Text(128, 'name or id of the transition that closes an issue')),
      reopen_transition: Type.Optional(Text(128, 'name or id of the transition that reopens a closed issue')),
    },
    Strict,
  ),
  github: Type.Object(
    {
      repo: Type.String({ pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$', maxLength: 200 }),
      token: Text(1024),
      api_url: Type.Optional(Url('default https://api.github.com')),
    },
    Strict,
  ),
  gitlab: Type.Object(
    { base_url: Url('https://gitlab.com or your instance'), project: Text(512, 'numeric id or path (group/project)'), token: Text(1024) },
    Strict,
  ),
  defectdojo: Type.Object(
    {
      base_url: Url('DefectDojo base URL'),
      api_key: Text(1024),
      engagement_id: Type.Optional(Type.Integer({ minimum: 1 })),
      product_name: Type.Optional(Text(255)),
      engagement_name: Type.Optional(Text(255)),
      auto_create: Type.Optional(Type.Boolean()),
    },
    Strict,
  ),
}

/** Every address the integration sends to, as [config member, URL text]. */
export function outboundUrls(type: IntegrationType, c: Config): Array<[string, string]> {
  switch (type) {
    case 'slack':
    case 'teams':
    case 'webhook':
      return [['url', String(c.url)]]
    case 'email':
      return [['smtp_url', String(c.smtp_url)]]
    case 'github':
      return [['api_url', typeof c.api_url === 'string' ? c.api_url : 'https://api.github.com']]
    default:
      return [['base_url', String(c.base_url)]]
  }
}
