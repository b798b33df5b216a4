// The attempts on one login: the planned pairs one after another with a pause between them, stopping
// at lockout signs, when the service needs no password, or after repeated errors. Caps are in the plan.
import type { Pair } from '../detect/credentials.js'
import type { Attempt, Attempter } from './attempt.js'
import { lockoutSign } from '../detect/lockout.js'

export interface AuditResult {
  found: Array<{ username: string; password: string }>
  attempts: number
  /** Why the audit stopped before the end of the plan, or null. */
  stopped: string | null
  lockout: string | null
  noAuth: boolean
}

const ERRORS_IN_A_ROW = 3

/** Waits `ms`, or less when the scan stops. */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve()
    const t = setTimeout(done, ms)
    function done() {
      clearTimeout(t)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })

export async function audit(o: {
  plan: readonly Pair[]
  attempt: Attempter
  delayMs: number
  signal: AbortSignal
  onAttempt?: (user: string, a: Attempt) => void
}): Promise<AuditResult> {
  const r: AuditResult = { found: [], attempts: 0, stopped: null, lockout: null, noAuth: false }
  const history: Attempt[] = []
  const done = new Set<string>()
  let errors = 0
  for (const [user, password] of o.plan) {
    if (o.signal.aborted) return { ...r, stopped: 'the scan was stopped' }
    if (done.has(user)) continue
    if (r.attempts > 0) await sleep(o.delayMs, o.signal)
    const a = await o.attempt(user, password, o.signal)
    r.attempts++
    history.push(a)
    o.onAttempt?.(user, a)
    if (a.result === 'success') {
      done.add(user)
      r.found.push({ username: user, password })
    }
    if (a.result === 'no-auth') return { ...r, noAuth: true, stopped: a.note ?? 'no password needed' }
    const sign = lockoutSign(history)
    if (sign) return { ...r, lockout: sign, stopped: sign }
    errors = a.result === 'error' ? errors + 1 : 0
    if (errors >= ERRORS_IN_A_ROW) return { ...r, stopped: `${ERRORS_IN_A_ROW} attempts in a row had no verdict (${a.note ?? 'error'})` }
  }
  return r
}
