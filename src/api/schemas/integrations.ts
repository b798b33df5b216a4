// Integrations: where a workspace's findings and scan outcomes are sent (messages and tickets).
import { Type } from '@sinclair/typebox'
import { Id, Nullable, Pagination } from './common.js'
import { INTEGRATION_EVENTS, INTEGRATION_TYPES, SECRET_SHOWN } from '../../store/integration-kinds.js'

const IntegrationTypeSchema = Type.Union(INTEGRATION_TYPES.map((t) => Type.Literal(t)))
const EventSchema = Type.Union(INTEGRATION_EVENTS.map((e) => Type.Literal(e)))
const ConfigSchema = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'per type: slack/teams {url}; webhook {url, secret?}; email {smtp_url, from, to[]}; ' +
      'jira {base_url, project_key, issue_type?, auth {email, api_token} | {bearer}, priorities?, resolve_transition?, reopen_transition?}; ' +
      'github {repo, token, api_url?}; gitlab {base_url, project, token}; ' +
      'defectdojo {base_url, api_key, engagement_id | product_name + engagement_name, auto_create?}. ' +
      `Secrets are write-only: answers show "${SECRET_SHOWN}", and a PATCH that sends that text back keeps the stored secret.`,
  },
)
const Name = Type.String({ minLength: 1, maxLength: 200 })
const Events = Type.Array(EventSchema, { maxItems: INTEGRATION_EVENTS.length, uniqueItems: true, description: 'default: every event' })
const MinRisk = Type.Integer({ minimum: 0, maximum: 4, description: 'finding events below this risk_level are not sent (default 0)' })
const OnlyChanges = Type.Boolean({ description: 'send nothing for a scan that changed nothing since the previous one (default false)' })

export const CreateIntegrationBody = Type.Object(
  {
    workspace_id: Type.Optional(Id),
    type: IntegrationTypeSchema,
    name: Name,
    config: ConfigSchema,
    events: Type.Optional(Events),
    min_risk: Type.Optional(MinRisk),
    only_changes: Type.Optional(OnlyChanges),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
)

export const UpdateIntegrationBody = Type.Object(
  {
    name: Type.Optional(Name),
    config: Type.Optional(ConfigSchema),
    events: Type.Optional(Events),
    min_risk: Type.Optional(MinRisk),
    only_changes: Type.Optional(OnlyChanges),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

export const IntegrationsQuery = Type.Object({ workspace_id: Type.Optional(Id), ...Pagination })
export const DeliveriesQuery = Type.Object(Pagination)

export const Integration = Type.Object({
  id: Type.Integer(),
  workspace_id: Type.Integer(),
  type: IntegrationTypeSchema,
  name: Type.String(),
  config: Type.Object({}, { additionalProperties: true, description: `secrets shown as "${SECRET_SHOWN}"` }),
  events: Type.Array(Type.String()),
  min_risk: Type.Integer(),
  only_changes: Type.Boolean(),
  enabled: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Type.String(),
})

const Attempt = Type.Object({
  attempt: Type.Integer(),
  time: Type.String(),
  status_code: Nullable(Type.Integer()),
  answer: Nullable(Type.String({ description: "the start of the receiver's answer" })),
  error: Nullable(Type.String()),
  duration_ms: Type.Integer(),
})

export const Delivery = Type.Object({
  id: Type.Integer(),
  event_id: Type.String(),
  event: Type.String({ description: "'scan' (its finding and scan events), 'schedule.missed', 'triage' (false positive) or 'test'" }),
  scan_id: Nullable(Type.Integer()),
  status: Type.String({
    description:
      'pending, delivered, skipped (nothing to send), failed (gave up), refused (the receiver answered 401, 403 or 404: not retried)',
  }),
  attempts: Type.Integer(),
  created_at: Type.String(),
  delivered_at: Nullable(Type.String()),
  next_try: Nullable(Type.String({ description: 'when the next attempt is due; null unless pending' })),
  status_code: Nullable(Type.Integer()),
  message: Nullable(Type.String()),
  attempt_list: Type.Array(Attempt),
})

export const TestResult = Type.Object({
  delivery_id: Type.Integer(),
  status: Type.String({ description: 'delivered, failed, refused, or pending when no sender answered in time' }),
  status_code: Nullable(Type.Integer({ description: "the receiver's HTTP status (SMTP reply code for email)" })),
  message: Nullable(Type.String()),
})
