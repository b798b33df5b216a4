// Integrations and their delivery log as the API shows them: secrets replaced by their placeholder.
import type { IntegrationAttemptRow, IntegrationDeliveryRow, IntegrationRow } from '../store/schema.js'
import { SECRET_SHOWN, mapSecrets, type IntegrationType } from '../store/integration-kinds.js'
import { storedConfig } from '../store/integrations.js'
import { toApiTime } from '../store/time.js'
import { pick, pickThen } from './views.js'

export function integrationView(r: IntegrationRow) {
  return pickThen(r, ['id', 'workspace_id'], {
    type: r.type as IntegrationType,
    name: r.name,
    config: mapSecrets(r.type as IntegrationType, storedConfig(r), () => SECRET_SHOWN),
    events: JSON.parse(r.events) as string[],
    min_risk: r.min_risk,
    only_changes: r.only_changes === 1,
    enabled: r.enabled === 1,
    created_at: toApiTime(r.created_at)!,
    updated_at: toApiTime(r.updated_at)!,
  })
}

const EVENT_NAMES: Record<string, string> = { scan: 'scan', schedule: 'schedule.missed', triage: 'triage', test: 'test' }

export function deliveryView(d: IntegrationDeliveryRow & { attempt_list: IntegrationAttemptRow[] }) {
  return pickThen(d, ['id', 'event_id'], {
    event: EVENT_NAMES[d.kind] ?? d.kind,
    ...pick(d, ['scan_id', 'status', 'attempts'] as const),
    created_at: toApiTime(d.created_at)!,
    delivered_at: toApiTime(d.delivered_at),
    next_try: d.status === 'pending' ? toApiTime(d.next_attempt_at) : null,
    status_code: d.last_status_code,
    message: d.last_error,
    attempt_list: d.attempt_list.map((a) => ({
      attempt: a.attempt,
      time: toApiTime(a.started_at)!,
      ...pick(a, ['status_code', 'answer', 'error', 'duration_ms'] as const),
    })),
  })
}
