// SMTP open relay: an unauthenticated MAIL FROM and RCPT TO between two external RFC 2606 domains.
// Stops at RCPT (then RSET/QUIT): DATA is never sent, so no message can leave the server.
import { withSession, type ProbeTarget } from '../../lib/services/session.js'

export const RELAY_FROM = 'ward-relay-test@example.org'
export const RELAY_TO = 'ward-relay-test@example.net'

export type SmtpResult = { banner: string; relay: boolean; transcript: string[] }

export function probeSmtpRelay(t: ProbeTarget): Promise<SmtpResult> {
  return withSession(t, async (s) => {
    const hello = await s.greeting('SMTP')
    let r = await s.command('EHLO scanner.example.com')
    if (r.code !== 250) r = await s.command('HELO scanner.example.com')
    let relay = false
    if (r.code === 250) {
      r = await s.command(`MAIL FROM:<${RELAY_FROM}>`)
      if (r.code === 250) {
        r = await s.command(`RCPT TO:<${RELAY_TO}>`)
        relay = r.code === 250 || r.code === 251
      }
      await s.command('RSET').catch(() => undefined)
    }
    s.send('QUIT\r\n')
    return { banner: hello.text, relay, transcript: s.transcript }
  })
}
