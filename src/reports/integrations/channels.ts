// The message channels: Slack and Teams incoming webhooks, a signed webhook in the report
// callback's format (decisions.md), and e-mail over SMTP. Each sends one message per event.
import { EVENT_ID_HEADER, SCAN_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, callbackTimestamp, signBody } from '../callback-signing.js'
import { emailMessage, slackMessage, teamsMessage, type Message } from './messages.js'
import { httpRequest, outcomeOf } from './http.js'
import type { Channel, Payload } from './context.js'
import { sendMail } from './email.js'

const asMessage = (p: Payload): Message | null => (p.kind === 'triage' ? null : p.kind === 'test' ? { ...p, kind: 'notice' } : p)

const postJson =
  (render: (m: Message) => unknown, what: string): Channel =>
  async (ctx, p) => {
    const m = asMessage(p)
    if (!m) return { verdict: 'delivered', statusCode: null, answer: null, error: 'nothing to send: triage notes go to ticket systems' }
    const a = await httpRequest(ctx.transport, ctx.timeoutMs, 'POST', String(ctx.integ.plain.url), {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(render(m)),
    })
    return outcomeOf(a, what)
  }

/** The signed callback format: the same headers and HMAC as report callbacks; the event in the body. */
const webhook: Channel = async (ctx, p) => {
  const d = ctx.delivery
  const body = Buffer.from(JSON.stringify({ event_id: d.event_id, event: p.kind === 'notice' ? 'schedule.missed' : p.kind, data: p }))
  const headers: Record<string, string> = { 'content-type': 'application/json', [EVENT_ID_HEADER]: d.event_id }
  if (d.scan_id !== null) headers[SCAN_ID_HEADER] = String(d.scan_id)
  const secret = ctx.integ.plain.secret
  if (typeof secret === 'string' && secret) {
    const ts = callbackTimestamp()
    headers[TIMESTAMP_HEADER] = ts
    headers[SIGNATURE_HEADER] = signBody(secret, body, ts)
  }
  return outcomeOf(await httpRequest(ctx.transport, ctx.timeoutMs, 'POST', String(ctx.integ.plain.url), { headers, body }), 'webhook')
}

const email: Channel = async (ctx, p) => {
  const m = asMessage(p)
  if (!m) return { verdict: 'delivered', statusCode: null, answer: null, error: 'nothing to send: triage notes go to ticket systems' }
  return sendMail(ctx, emailMessage(m))
}

export const MESSAGE_CHANNELS: Record<'slack' | 'teams' | 'webhook' | 'email', Channel> = {
  slack: postJson(slackMessage, 'Slack'),
  teams: postJson(teamsMessage, 'Teams'),
  webhook,
  email,
}
