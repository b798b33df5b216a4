// FTP login: USER / PASS (RFC 959), 230 logged in, 530 rejected, 421 closing (often a throttle).
import { withSession, type ProbeTarget } from '../../lib/services/session.js'
import { saysLocked } from '../detect/lockout.js'
import { timed, type Attempter } from './attempt.js'

export const ftpLogin =
  (t: Omit<ProbeTarget, 'signal'>): Attempter =>
  (user, password, signal) =>
    timed(() =>
      withSession({ ...t, signal }, async (s) => {
        const hello = await s.readReply()
        if (hello.code === 421 || saysLocked(hello.text)) return { result: 'locked', note: `greeting ${hello.code}` }
        if (hello.code !== 220) return { result: 'error', note: `greeting ${hello.code}` }
        s.send(`USER ${user}\r\n`)
        let r = await s.readReply()
        if (r.code === 331 || r.code === 332) {
          s.send(`PASS ${password}\r\n`, 'PASS ***')
          r = await s.readReply()
        }
        s.send('QUIT\r\n')
        if (r.code === 230) return { result: 'success', note: '230' }
        if (r.code === 421 || saysLocked(r.text)) return { result: 'locked', note: String(r.code) }
        return { result: 'failure', note: String(r.code) }
      }),
    )
