// Integrations page: list, create, change (config as JSON; secrets shown as their placeholder and
// kept when sent back), enable/disable, delete, and "Send a test". The same domain rules as the API.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { scopesOf } from '../../toolkit/scope.js'
import { changeIntegration, createIntegration, sendTestMessage, type CreateIntegrationInput } from '../../domain/integrations.js'
import { badRequest } from '../../domain/errors.js'
import { deleteIntegration, getIntegration, listIntegrations } from '../../store/integrations.js'
import { refusal } from '../../domain/access.js'
import { INTEGRATION_EVENTS, INTEGRATION_TYPES, type IntegrationType } from '../../store/integration-kinds.js'
import { integrationView } from '../../api/integration-views.js'
import { userOf, type WebContext } from '../context.js'
import { checkedIf, html, option, tableHead } from '../html.js'
import { csrfField, page, postButton } from '../layout.js'
import { attempt, formOf, idOf, sendPage } from '../respond.js'
import { workspacesOf } from '../workspace.js'
import { TEST_MESSAGE_MARGIN_MS } from '../../toolkit/timeouts.js'

const EXAMPLES: Record<IntegrationType, string> = {
  slack: '{"url": "https://hooks.slack.com/services/..."}',
  teams: '{"url": "https://prod-00.westeurope.logic.azure.com/workflows/..."}',
  webhook: '{"url": "https://example.com/ward-events", "secret": "..."}',
  email: '{"smtp_url": "smtp://user:password@smtp.example.com:587", "from": "ward@example.com", "to": ["security@example.com"]}',
  jira: '{"base_url": "https://example.atlassian.net", "project_key": "SEC", "auth": {"email": "...", "api_token": "..."}}',
  github: '{"repo": "owner/name", "token": "..."}',
  gitlab: '{"base_url": "https://gitlab.com", "project": "group/project", "token": "..."}',
  defectdojo: '{"base_url": "https://dojo.example.com", "api_key": "...", "engagement_id": 1}',
}

function parseConfig(text: string | undefined) {
  try {
    const v = JSON.parse(text ?? '')
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>
  } catch {}
  throw badRequest('The config is not a JSON object')
}

/** The checked events of a form (checkboxes repeat their name). */
function eventsOf(req: FastifyRequest): string[] {
  const v = (req.body as Record<string, unknown> | undefined)?.events
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).map(String)
}

function settingsOf(req: FastifyRequest) {
  const f = formOf(req)
  const minRisk = Number(f.min_risk ?? 0)
  if (!Number.isInteger(minRisk) || minRisk < 0 || minRisk > 4) throw badRequest('The minimum risk is a whole number from 0 to 4')
  const name = (f.name ?? '').trim()
  if (!name || name.length > 200) throw badRequest('A name is 1 to 200 characters')
  return { name, config: parseConfig(f.config), events: eventsOf(req), min_risk: minRisk, only_changes: f.only_changes === 'on' }
}

export function integrationPages(app: FastifyInstance, ctx: WebContext) {
  const { db } = ctx
  const scope = () => scopesOf(ctx.config).callback

  async function render(req: FastifyRequest, reply: FastifyReply, msg: { error?: string; ok?: string } = {}, status = 200) {
    const u = userOf(req)
    const [ws, rows] = await Promise.all([workspacesOf(db, u), listIntegrations(db, u.userId, { limit: 1000, page: 1 })])
    const body = html`<h1>Integrations</h1>
<p class="muted">${[
      html`Messages in Slack, Teams or e-mail, a signed webhook, and tickets in Jira, GitHub, GitLab or DefectDojo `,
      html`for the findings of the active workspace's scans. Secrets are stored encrypted and never shown again.`,
    ]}</p>
${
  rows.length
    ? html`<div class="table-wrap"><table>${tableHead('Name', 'Type', 'Events', 'Enabled', '')}<tbody>
${rows.map((r) => integrationRow(req, r))}</tbody></table></div>`
    : html`<p>No integrations yet.</p>`
}
${newIntegrationSection(req)}`
    return sendPage(
      reply,
      page(req, 'Integrations', body, { section: 'integrations', workspace: ws, ok: msg.ok ?? null, error: msg.error }),
      status,
    )
  }

  const done = (
    req: FastifyRequest,
    reply: FastifyReply,
    r: { ok: true; value: unknown } | { ok: false; status: number; message: string },
    ok: string,
  ) => (r.ok ? render(req, reply, { ok }) : render(req, reply, { error: r.message.replace(/^Invalid parameters: /, '') }, r.status))

  app.get('/integrations', async (req, reply) => render(req, reply))

  app.post('/integrations', async (req, reply) => {
    const r = await attempt(async () => {
      const type = formOf(req).type as IntegrationType
      if (!INTEGRATION_TYPES.includes(type)) throw badRequest('Choose one of the integration types')
      const input: CreateIntegrationInput = { type, ...settingsOf(req) }
      return createIntegration(db, userOf(req), scope(), input)
    })
    return done(req, reply, r, 'Integration created.')
  })

  app.post('/integrations/:id', async (req, reply) => {
    const id = idOf((req.params as { id: string }).id, 'Integration')
    return done(req, reply, await attempt(() => changeIntegration(db, userOf(req), scope(), id, settingsOf(req))), 'Integration saved.')
  })

  app.post('/integrations/:id/enabled', async (req, reply) => {
    const id = idOf((req.params as { id: string }).id, 'Integration')
    return done(
      req,
      reply,
      await attempt(() => changeIntegration(db, userOf(req), scope(), id, { enabled: formOf(req).enabled === 'on' })),
      'Integration saved.',
    )
  })

  app.post('/integrations/:id/delete', async (req, reply) => {
    const id = idOf((req.params as { id: string }).id, 'Integration')
    if (!(await deleteIntegration(db, userOf(req).userId, id)))
      throw await refusal(getIntegration(db, userOf(req).userId, id), 'Integration')
    return render(req, reply, { ok: 'Integration deleted.' })
  })

  app.post('/integrations/:id/test', async (req, reply) => {
    const id = idOf((req.params as { id: string }).id, 'Integration')
    const t = await sendTestMessage(db, userOf(req), id, ctx.config.callbackTimeoutMs + TEST_MESSAGE_MARGIN_MS)
    const said = `Test ${t.status}${t.status_code !== null ? ` (the receiver answered ${t.status_code})` : ''}${t.message ? `: ${t.message}` : ''}.`
    return render(req, reply, t.status === 'delivered' ? { ok: said } : { error: said }, t.status === 'delivered' ? 200 : 502)
  })
}

const events = (chosen: readonly string[], idp: string) =>
  INTEGRATION_EVENTS.map(
    (e) =>
      html`<label class="inline"><input type="checkbox" name="events" value="${e}" id="${idp}-${e}"${checkedIf(chosen.includes(e))}> ${e}</label> `,
  )
const risk = (v: number, id: string) =>
  html`<label for="${id}">Minimum risk</label><select id="${id}" name="min_risk">${[
    ['info', 'low', 'medium', 'high', 'critical'].map((n, i) => option(i, n, i === v)),
  ]}</select>`
const onlyChanges = (on: boolean) =>
  html`<label class="inline"><input type="checkbox" name="only_changes"${checkedIf(on)}> only when something changed</label>`

function integrationRow(req: FastifyRequest, r: Parameters<typeof integrationView>[0]) {
  const v = integrationView(r)
  return html`<tr data-integration-id="${v.id}"><td>${v.name}</td><td>${v.type}</td><td>${[
    v.events.join(', '),
    v.min_risk ? ` (risk ≥ ${v.min_risk})` : '',
    v.only_changes ? ', only changes' : '',
  ]}</td><td>${v.enabled ? 'yes' : 'no'}</td>
  <td>${postButton(req, `/integrations/${v.id}/test`, 'Send a test', { cls: 'small' })}
  <form class="inline" method="post" action="/integrations/${v.id}/enabled">${csrfField(req)}${[
    html`<input type="hidden" name="enabled" value="${v.enabled ? 'off' : 'on'}">`,
    html`<button class="small secondary" type="submit">${v.enabled ? 'Disable' : 'Enable'}</button></form>`,
  ]}
  ${postButton(req, `/integrations/${v.id}/delete`, 'Delete', { cls: 'small danger', confirm: 'Delete this integration and its delivery log?' })}
  <details><summary>Edit</summary><form method="post" action="/integrations/${v.id}">${csrfField(req)}
    <div class="field"><label for="name-${v.id}">Name</label>${[
      html`<input type="text" id="name-${v.id}" name="name" value="${v.name}" required maxlength="200">`,
    ]}</div>
    <div class="field"><label for="config-${v.id}">Config (JSON)</label>${[
      html`<textarea id="config-${v.id}" name="config" rows="4">${JSON.stringify(v.config, null, 1)}</textarea>`,
    ]}</div>
    <div class="field">${events(v.events, `ev-${v.id}`)}</div>
    <div class="field">${risk(v.min_risk, `risk-${v.id}`)} ${onlyChanges(v.only_changes)}</div>
    <button class="small" type="submit">Save</button></form></details></td></tr>`
}

const newIntegrationSection = (
  req: FastifyRequest,
) => html`<section class="card mt" aria-labelledby="new-int"><h2 id="new-int">New integration</h2>
<form method="post" action="/integrations">${csrfField(req)}
  <div class="grid"><div class="field"><label for="int-name">Name</label><input type="text" id="int-name" name="name" required maxlength="200"></div>
  <div class="field"><label for="int-type">Type</label><select id="int-type" name="type">${[
    INTEGRATION_TYPES.map((t) => option(t, t, false)),
  ]}</select></div></div>
  <div class="field"><label for="int-config">Config (JSON)</label><textarea id="int-config" name="config" rows="4" required></textarea>
  <ul class="muted">${INTEGRATION_TYPES.map((t) => html`<li><strong>${t}</strong>: <code>${EXAMPLES[t]}</code></li>`)}</ul></div>
  <div class="field">${events([...INTEGRATION_EVENTS], 'ev-new')}</div>
  <div class="field">${risk(0, 'risk-new')} ${onlyChanges(false)}</div>
  <button type="submit">Create integration</button>
</form></section>`
