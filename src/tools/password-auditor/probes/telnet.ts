// Telnet login: refuse every option, wait for the login prompt, send the user name and the password,
// then read until a shell prompt or a refusal.
import type { Socket } from 'node:net'
import type { ProbeTarget } from '../../lib/services/session.js'
import { asksLogin, asksPassword, loginVerdict, negotiate } from '../detect/telnet.js'
import { saysLocked } from '../detect/lockout.js'
import { socketLogin, type Attempter } from './attempt.js'
import { SESSION_READ_TIMEOUT_MS } from '../../../toolkit/timeouts.js'

/** Collects text from the socket (answering option requests) until `done(text)` or the time is up. */
function until(sock: Socket, done: (text: string) => boolean, ms: number, signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    const finish = () => {
      clearTimeout(timer)
      sock.off('data', onData)
      sock.off('close', finish)
      signal.removeEventListener('abort', finish)
      resolve(text)
    }
    const onData = (d: Buffer) => {
      const n = negotiate(d)
      if (n.reply.length) sock.write(n.reply)
      text += n.text
      if (text.length > 16384) text = text.slice(-8192)
      if (done(text)) finish()
    }
    const timer = setTimeout(finish, ms)
    sock.on('data', onData)
    sock.once('close', finish)
    signal.addEventListener('abort', finish, { once: true })
  })
}

export const telnetLogin = (t: Omit<ProbeTarget, 'signal'>): Attempter =>
  socketLogin(t, SESSION_READ_TIMEOUT_MS, async ({ sock, wait, signal }, user, password) => {
    sock.on('error', () => {})
    try {
      const hello = await until(sock, (x) => asksLogin(x) || asksPassword(x), wait, signal)
      if (saysLocked(hello)) return { result: 'locked', note: 'the greeting says locked' }
      if (asksLogin(hello)) {
        sock.write(`${user}\r\n`)
        const next = await until(sock, (x) => asksPassword(x) || loginVerdict(x) !== null, wait, signal)
        if (!asksPassword(next))
          return loginVerdict(next) === 'success'
            ? { result: 'success', note: 'no password asked' }
            : { result: 'error', note: 'no password prompt' }
      } else if (!asksPassword(hello)) return { result: 'error', note: 'no login prompt' }
      sock.write(`${password}\r\n`)
      const after = await until(sock, (x) => loginVerdict(x) !== null, wait, signal)
      if (saysLocked(after)) return { result: 'locked', note: 'the answer says locked' }
      const v = loginVerdict(after)
      return v ? { result: v } : { result: 'error', note: 'no verdict after the password' }
    } finally {
      sock.destroy()
    }
  })
