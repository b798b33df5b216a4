// Redis AUTH: the single password (AUTH <password>) or an ACL user (AUTH <user> <password>).
import { withSession, type ProbeTarget } from '../../lib/services/session.js'
import { timed, type Attempter } from './attempt.js'

const resp = (...args: string[]) => `*${args.length}\r\n` + args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')

export const redisLogin =
  (t: Omit<ProbeTarget, 'signal'>): Attempter =>
  (user, password, signal) =>
    timed(() =>
      withSession({ ...t, signal }, async (s) => {
        const args = user && user !== 'default' ? ['AUTH', user, password] : ['AUTH', password]
        s.send(resp(...args), args.length === 3 ? 'AUTH <user> ***' : 'AUTH ***')
        const reply = await s.readLine()
        if (reply === '+OK') return { result: 'success', note: '+OK' }
        if (/without any password configured|no password is set/i.test(reply))
          return { result: 'no-auth', note: 'the server has no password set' }
        if (/^-(WRONGPASS|ERR invalid (username-)?password|ERR.*auth)/i.test(reply)) return { result: 'failure', note: reply.slice(1, 40) }
        return { result: 'error', note: `not a Redis AUTH reply: ${reply.slice(0, 60)}` }
      }),
    )
