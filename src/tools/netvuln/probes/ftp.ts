// Anonymous FTP login: USER anonymous / PASS <e-mail> (RFC 1635) and see whether the server answers 230.
import { withSession, type ProbeTarget } from '../../lib/services/session.js'

export type FtpResult = { banner: string; anonymous: boolean; transcript: string[] }

export function probeFtpAnonymous(t: ProbeTarget): Promise<FtpResult> {
  return withSession(t, async (s) => {
    const hello = await s.greeting('FTP')
    let r = await s.command('USER anonymous')
    if (r.code === 331) r = await s.command('PASS ward-scanner@example.com')
    const anonymous = r.code === 230
    s.send('QUIT\r\n')
    return { banner: hello.text, anonymous, transcript: s.transcript }
  })
}
