// A short-lived cache of authenticated callers by key hash: most requests then cost no auth query.
// Only valid keys are cached (an attacker guessing keys cannot fill it), the size is bounded, and
// changes made through this process (active workspace, a user disabled) invalidate at once; a user
// disabled in another process is forgotten when its event arrives (PostgreSQL NOTIFY). Otherwise changes
// made elsewhere — `ward admin key revoke` on SQLite — are seen within `ttlMs`; 0 turns the cache off.
import type { Caller } from '../store/accounts.js'

export interface CallerCache {
  get(keyHash: string): Caller | null
  set(caller: Caller): void
  /** Forget every cached key of a user (after a change to the user's row). */
  forgetUser(userId: number): void
}

export function createCallerCache(ttlMs: number, maxEntries = 10000, now = () => Date.now()): CallerCache {
  const entries = new Map<string, { caller: Caller; expires: number }>()
  return {
    get(keyHash) {
      const e = entries.get(keyHash)
      if (!e) return null
      if (e.expires <= now()) {
        entries.delete(keyHash)
        return null
      }
      return e.caller
    },
    set(caller) {
      if (ttlMs <= 0) return
      entries.delete(caller.keyHash)
      // Map order is insertion order: the first entry is the oldest.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!)
      entries.set(caller.keyHash, { caller, expires: now() + ttlMs })
    },
    forgetUser(userId) {
      for (const [k, e] of entries) if (e.caller.userId === userId) entries.delete(k)
    },
  }
}
