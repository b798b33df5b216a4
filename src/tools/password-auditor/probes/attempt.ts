// What one login attempt came to; every probe returns this. A rejected password is a result, not an error.
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
