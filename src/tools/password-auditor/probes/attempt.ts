// What one login attempt came to; every probe returns this. A rejected password is a result, not an error.
import type { Socket } from 'node:net'
import type { ProbeTarget } from '../../lib/services/session.js'

export interface Attempt {
  /** success: logged in; failure: rejected; locked: lockout or throttle signs; no-auth: the service asks for no password; error: no verdict. */
  result: 'success' | 'failure' | 'locked' | 'no-auth' | 'error'
  /** How long the answer took (the lockout detector watches it grow). */
  ms: number
  /** Short words on the verdict for the log (never the password). */
  note?: string
}

/** One attempt with one pair; the probes bind everything else (host, port, URL, product). */
export type Attempter = (username: string, password: string, signal: AbortSignal) => Promise<Attempt>

/** Times `fn` and turns an exception into an `error` attempt (its message, which never holds the password). */
export async function timed(fn: () => Promise<Omit<Attempt, 'ms'>>): Promise<Attempt> {
  const t0 = performance.now()
  try {
    return { ...(await fn()), ms: performance.now() - t0 }
  } catch (e) {
    return { result: 'error', note: (e as Error).message.slice(0, 200), ms: performance.now() - t0 }
  }
}

/** What a socket login needs besides the pair: the connected socket and the time allowed per step. */
export interface SocketLogin {
  sock: Socket
  wait: number
  signal: AbortSignal
}

/**
 * An attempter that dials a new connection through the egress for each attempt (`timeoutMs`, else
 * `defaultMs`, per connect and per step) and hands it to `login`, timed.
 */
export const socketLogin =
  (
    t: Omit<ProbeTarget, 'signal'>,
    defaultMs: number,
    login: (s: SocketLogin, user: string, password: string) => Promise<Omit<Attempt, 'ms'>>,
  ): Attempter =>
  (user, password, signal) =>
    timed(async () => {
      const wait = t.timeoutMs ?? defaultMs
      const sock = await t.net.connect({ host: t.host, port: t.port, timeoutMs: wait, signal })
      return login({ sock, wait, signal }, user, password)
    })
