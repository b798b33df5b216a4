// Signs that a service is locking accounts or throttling logins, from the attempts made so far. Pure.
import type { Attempt } from '../probes/attempt.js'

/** Answers slower than this (ms) and growing are a throttle, not a slow network. */
const SLOW_MS = 1500

/**
 * Why to stop trying on this service, or null. A probe saw a lock (429, 423, "locked", "too many"),
 * or the last three answers each took markedly longer than the one before and far longer than the
 * first answers did (tarpits that add a growing delay per failure).
 */
export function lockoutSign(history: readonly Attempt[]): string | null {
  const last = history[history.length - 1]
  if (!last) return null
  if (last.result === 'locked') return `the service signals a lockout or throttle (${last.note ?? 'locked'})`
  if (history.length >= 4) {
    const recent = history.slice(-4).map((a) => a.ms)
    const base = Math.min(...history.slice(0, 2).map((a) => a.ms))
    const growing = recent.every((ms, i) => i === 0 || ms > recent[i - 1]! * 1.4)
    if (growing && recent[3]! > SLOW_MS && recent[3]! > base * 4)
      return `answers slow down with each failure (${recent.map((ms) => `${Math.round(ms)} ms`).join(', ')})`
  }
  return null
}

/** Text of an answer that says the account or client is locked out or throttled. */
export const LOCK_WORDS = new RegExp(
  String.raw`\b(locked|lockout|too many (failed |login |authentication )?(attempts|failures|requests|connections)|` +
    String.raw`temporarily (blocked|disabled)|account (is )?disabled|try again later)\b`,
  'i',
)

export const saysLocked = (text: string): boolean => LOCK_WORDS.test(text)
