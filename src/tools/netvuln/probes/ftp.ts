// Anonymous FTP login: USER anonymous / PASS <e-mail> (RFC 1635) and see whether the server answers 230.
import { withSession, type ProbeTarget } from '../../lib/services/session.js'

export type FtpResult = { banner: string; anonymous: boolean; transcript: string[] }

export function probeFtpAnonymous(t: ProbeTarget): Promise<FtpResult> {
  return withSession(t, async (s) => {
    const hello = await s.readReply()
    if (hello.code !== 220) throw new Error(`the FTP server refused the session: ${hello.text.slice(0, 120)}`)
    s.send('USER anonymous\r\n')
    let r = await s.readReply()
    if (r.code === 331) {
      s.send('PASS ward-scanner@example.com\r\n')
      r = await s.readReply()
    }
    const anonymous = r.code === 230
    s.send('QUIT\r\n')
    return { banner: hello.text, anonymous, transcript: s.transcript }
  })
}
