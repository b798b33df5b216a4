// Rules of /integrations: the config fits its type, every address Ward would send to is inside the
// callback scope (WARD_CALLBACK_BLOCKLIST and the metadata defaults), and the workspace is one the
// caller manages. A bad config is a 400 naming the member, and changes nothing.
import { refusal, writableWorkspace } from './access.js'
import { WRITER_ROLES } from '../store/members.js'
import { Value } from '@sinclair/typebox/value'
import type { Db } from '../store/db.js'
import type { Caller } from '../store/accounts.js'
import { secretsOf } from '../store/secrets.js'
import { getIntegration, insertIntegration, storedConfig, updateIntegration, type IntegrationChanges } from '../store/integrations.js'
import { deliveryById, enqueueTest } from '../store/integration-outbox.js'
import { INTEGRATION_EVENTS, SECRET_SHOWN, mapSecrets, mergeConfig, type Config, type IntegrationType } from '../store/integration-kinds.js'
import { hostBlockedBy, type Scope } from '../toolkit/scope.js'
import { CONFIG_SCHEMAS, outboundUrls } from './integration-config.js'
import { badRequest, notFound } from './errors.js'

export interface CreateIntegrationInput {
  workspace_id?: number
  type: IntegrationType
  name: string
  config: Config
  events?: string[]
  min_risk?: number
  only_changes?: boolean
  enabled?: boolean
}
export type UpdateIntegrationInput = Partial<Omit<CreateIntegrationInput, 'workspace_id' | 'type'>>

const SCHEMES: Record<string, readonly string[]> = { email: ['smtp:', 'smtps:'] }

/** Why an outbound address is refused, or null. Credentials belong in config members, except SMTP's. */
export function outboundProblem(type: IntegrationType, member: string, raw: string, scope: Scope): string | null {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return `config.${member} is not a valid URL`
  }
  const schemes = SCHEMES[type] ?? ['http:', 'https:']
  if (!schemes.includes(u.protocol)) return `config.${member} must use ${schemes.map((s) => s.slice(0, -1)).join(' or ')}`
  if (type !== 'email' && (u.username || u.password))
    return `config.${member} must not contain credentials; give them in their own config members`
  const host = u.hostname.replace(/^\[|\]$/g, '')
  const rule = hostBlockedBy(scope, host)
  if (rule) return `config.${member} is blocked: "${host}" matches the callback block list entry "${rule.text}"`
  return null
}

/** Checks a whole (plain) config of a type; throws a 400 naming what is wrong. */
export function checkConfig(type: IntegrationType, config: Config, scope: Scope): void {
  const schema = CONFIG_SCHEMAS[type]
  const shownSecret = JSON.stringify(config).includes(SECRET_SHOWN)
  if (shownSecret) throw badRequest(`Invalid parameters: config holds "${SECRET_SHOWN}" where a new integration needs the secret itself`)
  const err = Value.Errors(schema, config).First()
  if (err) {
    const member = err.path.replace(/^\//, '').replace(/\//g, '.')
    throw badRequest(`Invalid parameters: ${type} config${member ? ` member "${member}"` : ''}: ${err.message}`, { type })
  }
  for (const [member, url] of outboundUrls(type, config)) {
    const problem = outboundProblem(type, member, url, scope)
    if (problem) throw badRequest(`Invalid parameters: ${problem}`)
  }
  if (
    type === 'defectdojo' &&
    config.engagement_id === undefined &&
    (config.product_name === undefined || config.engagement_name === undefined)
  )
    throw badRequest('Invalid parameters: defectdojo config needs engagement_id, or product_name and engagement_name')
}

function checkEvents(events: string[] | undefined): void {
  const bad = events?.find((e) => !(INTEGRATION_EVENTS as readonly string[]).includes(e))
  if (bad !== undefined) throw badRequest(`Invalid parameters: unknown event "${bad}"; known events: ${INTEGRATION_EVENTS.join(', ')}`)
}

export async function createIntegration(db: Db, caller: Caller, scope: Scope, body: CreateIntegrationInput): Promise<number> {
  const workspaceId = body.workspace_id ?? caller.activeWorkspaceId
  await writableWorkspace(db, caller, workspaceId)
  checkEvents(body.events)
  checkConfig(body.type, body.config, scope)
  return insertIntegration(db, caller.userId, {
    workspace_id: workspaceId,
    type: body.type,
    name: body.name,
    config: body.config,
    events: body.events ?? [...INTEGRATION_EVENTS],
    min_risk: body.min_risk ?? 0,
    only_changes: body.only_changes ?? false,
    enabled: body.enabled ?? true,
  })
}

/**
 * A partial change. A new config is merged over the stored one (a secret sent back as its shown
 * placeholder keeps the stored value); the merged config is checked whole, secrets opened only to
 * check their addresses.
 */
export async function changeIntegration(db: Db, caller: Caller, scope: Scope, id: number, body: UpdateIntegrationInput): Promise<void> {
  const row = await getIntegration(db, caller.userId, id, WRITER_ROLES)
  if (!row) throw await refusal(getIntegration(db, caller.userId, id), 'Integration')
  checkEvents(body.events)
  const type = row.type as IntegrationType
  const set: IntegrationChanges = { ...body, config: undefined }
  if (body.config !== undefined) {
    const box = secretsOf(db)
    // Stored secrets are sealed, new ones plain: opening both gives the plain config to check.
    const merged = mapSecrets(type, mergeConfig(type, storedConfig(row), body.config), (v) => box.open(v))
    checkConfig(type, merged, scope)
    set.config = merged
  }
  if (!(await updateIntegration(db, caller.userId, id, type, set))) throw notFound('Integration')
}

export interface TestAnswer {
  delivery_id: number
  status: string
  status_code: number | null
  message: string | null
}

/**
 * "Send a test": a test delivery through the outbox (a worker's sender sends it, as every delivery),
 * waited for up to `waitMs`; the answer is the receiver's status of the first attempt.
 */
export async function sendTestMessage(db: Db, caller: Caller, id: number, waitMs: number): Promise<TestAnswer> {
  const row = await getIntegration(db, caller.userId, id, WRITER_ROLES)
  if (!row) throw await refusal(getIntegration(db, caller.userId, id), 'Integration')
  const deliveryId = await enqueueTest(db, row.id)
  const until = Date.now() + waitMs
  let d = await deliveryById(db, deliveryId)
  while (d && d.status === 'pending' && d.attempts === 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50))
    d = await deliveryById(db, deliveryId)
  }
  const waiting = d?.status === 'pending' && d.attempts === 0
  return {
    delivery_id: deliveryId,
    status: d?.status ?? 'failed',
    status_code: d?.last_status_code ?? null,
    message: waiting ? 'no sender answered yet: see the delivery log' : (d?.last_error ?? null),
  }
}
