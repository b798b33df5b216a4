// E-mail over SMTP with nodemailer: smtp:// (STARTTLS when the server offers it) or smtps:// (TLS
// from the start), AUTH from the URL's user and password. The socket is opened through the callback
// scope guard (the transport's connect), so a name that resolves into a blocked range is refused.
import type { ChannelContext } from './context.js'
import type { Outcome } from './http.js'

interface MailError {
  responseCode?: number
  response?: string
  code?: string
  message?: string
}

export async function sendMail(ctx: ChannelContext, mail: { subject: string; text: string; html: string }): Promise<Outcome> {
  const nodemailer = (await import('nodemailer')).default
  const u = new URL(String(ctx.integ.plain.smtp_url))
  const secure = u.protocol === 'smtps:'
  const host = u.hostname.replace(/^\[|\]$/g, '')
  const port = Number(u.port) || (secure ? 465 : 587)
  const transporter = nodemailer.createTransport({
    host,
    port,
    secure,
    ...(u.username ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } } : {}),
    tls: { servername: host },
    connectionTimeout: ctx.timeoutMs,
    greetingTimeout: ctx.timeoutMs,
    socketTimeout: ctx.timeoutMs,
    getSocket: (_o: unknown, cb: (err: Error | null, s?: { connection: import('node:net').Socket }) => void) => {
      ctx.transport.connect(host, port).then(
        (connection) => cb(null, { connection }),
        (e: Error) => cb(e),
      )
    },
  } as Parameters<typeof nodemailer.createTransport>[0])
  const to = ctx.integ.plain.to as string[]
  try {
    const info = await transporter.sendMail({
      from: String(ctx.integ.plain.from),
      to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: { 'X-Ward-Event-Id': ctx.delivery.event_id },
    })
    const code = Number(/^\d{3}/.exec(String(info.response ?? ''))?.[0] ?? 250)
    return { verdict: 'delivered', statusCode: code, answer: String(info.response ?? '').slice(0, 500), error: null }
  } catch (e) {
    const err = e as MailError
    const code = err.responseCode ?? null
    // 535/530: credentials refused — as a 401 is for HTTP receivers. Other 5xx are permanent; 4xx and
    // network trouble are worth another try.
    const verdict = code === null ? 'retry' : code === 535 || code === 530 ? 'refused' : code >= 500 ? 'failed' : 'retry'
    return {
      verdict,
      statusCode: code,
      answer: err.response?.slice(0, 500) ?? null,
      error: `SMTP: ${err.message ?? String(e)}${verdict === 'refused' ? '; not retried (check the SMTP user and password)' : ''}`,
    }
  } finally {
    transporter.close()
  }
}
