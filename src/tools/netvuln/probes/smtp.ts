// SMTP open relay: an unauthenticated MAIL FROM and RCPT TO between two external RFC 2606 domains.
// Stops at RCPT (then RSET/QUIT): DATA is never sent, so no message can leave the server.
import { withSession, type ProbeTarget } from '../../lib/services/session.js'

export const RELAY_FROM = 'ward-relay-test@example.org'
export const RELAY_TO = 'ward-relay-test@example.net'

export type SmtpResult = { banner: string; relay: boolean; transcript: string[] }

export function probeSmtpRelay(t: ProbeTarget): Promise<SmtpResult> {
  return withSession(t, async (s) => {
    const hello = await s.readReply()
    if (hello.code !== 220) throw new Error(`the SMTP server refused the session: ${hello.text.slice(0, 120)}`)
    s.send('EHLO scanner.example.com\r\n')
    let r = await s.readReply()
    if (r.code !== 250) {
      s.send('HELO scanner.example.com\r\n')
      r = await s.readReply()
    }
    let relay = false
    if (r.code === 250) {
      s.send(`MAIL FROM:<${RELAY_FROM}>\r\n`)
      r = await s.readReply()
      if (r.code === 250) {
        s.send(`RCPT TO:<${RELAY_TO}>\r\n`)
        r = await s.readReply()
        relay = r.code === 250 || r.code === 251
      }
      s.send('RSET\r\n')
      await s.readReply().catch(() => undefined)
    }
    s.send('QUIT\r\n')
    return { banner: hello.text, relay, transcript: s.transcript }
  })
}
