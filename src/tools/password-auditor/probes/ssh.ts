// SSH login with the password and keyboard-interactive methods, over a socket from the egress (the
// ssh2 library speaks the protocol; it never dials itself). A new connection per attempt.
import ssh2 from 'ssh2'
import type { ProbeTarget } from '../../lib/services/session.js'
import { socketLogin, type Attempter } from './attempt.js'
import { SSH_LOGIN_TIMEOUT_MS } from '../../../toolkit/timeouts.js'

export const sshLogin = (t: Omit<ProbeTarget, 'signal'>): Attempter =>
  socketLogin(
    t,
    SSH_LOGIN_TIMEOUT_MS,
    ({ sock, wait, signal }, user, password) =>
      new Promise((resolve) => {
        const client = new ssh2.Client()
        let done = false
        const finish = (r: { result: 'success' | 'failure' | 'locked' | 'error'; note?: string }) => {
          if (done) return
          done = true
          signal.removeEventListener('abort', onAbort)
          client.end()
          sock.destroy()
          resolve(r)
        }
        const onAbort = () => finish({ result: 'error', note: 'aborted' })
        signal.addEventListener('abort', onAbort, { once: true })
        client.on('ready', () => finish({ result: 'success', note: 'authenticated' }))
        client.on('error', (e: Error & { level?: string }) => {
          if (e.level === 'client-authentication') finish({ result: 'failure', note: 'all methods rejected' })
          else finish({ result: /too many|locked/i.test(e.message) ? 'locked' : 'error', note: e.message.slice(0, 120) })
        })
        client.on('close', () => finish({ result: 'error', note: 'connection closed' }))
        client.on('keyboard-interactive', (_name, _instr, _lang, prompts, reply) => reply(prompts.map(() => password)))
        client.connect({ sock, username: user, password, tryKeyboard: true, readyTimeout: wait, hostVerifier: () => true })
      }),
  )
