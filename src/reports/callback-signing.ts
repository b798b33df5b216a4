// Report-callback signing and retry policy (spec/decisions.md, "report_callback"):
//   x-ward-timestamp: <unix seconds>,
//   x-ward-signature: t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>." followed by the raw body>.
// The timestamp is inside the MAC, so an old body cannot be replayed under a fresh timestamp.
// Retried with exponential backoff on network error, 5xx or 429, for up to 24 h; a 2xx ends it.
// Pure functions: the outbox sender owns the clock, the HTTP request and the 24 h deadline.
import { createHmac, timingSafeEqual } from 'node:crypto'

export const SIGNATURE_HEADER = 'x-ward-signature'
export const TIMESTAMP_HEADER = 'x-ward-timestamp'
export const EVENT_ID_HEADER = 'x-ward-event-id'
export const SCAN_ID_HEADER = 'x-ward-scan-id'

/** `x-ward-timestamp` value: whole unix seconds, as a decimal string. */
export const callbackTimestamp = (nowMs: number = Date.now()): string => String(Math.floor(nowMs / 1000))

const mac = (secret: string, timestamp: string, body: Buffer) => createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest()

/** `t=<timestamp>,v1=<hex>`: HMAC-SHA256 keyed with the secret over "<timestamp>." and the raw body bytes. */
export function signBody(secret: string, body: Buffer, timestamp: string): string {
  return `t=${timestamp},v1=${mac(secret, timestamp, body).toString('hex')}`
}

export interface VerifyOptions {
  /** Reject when the signed timestamp is further than this from now (5 minutes suggested). */
  toleranceSeconds?: number
  nowMs?: number
}

/**
 * True when `signature` (the `x-ward-signature` header) is `t=<ts>,v1=<hex>` with the MAC of that
 * timestamp and the body under `secret`. Constant-time comparison; a malformed header is simply
 * false. With `toleranceSeconds`, the signed timestamp must also be within that many seconds of now.
 */
export function verifySignature(secret: string, body: Buffer, signature: string | null | undefined, opts: VerifyOptions = {}): boolean {
  if (typeof signature !== 'string') return false
  const m = /^t=(\d{1,15}),v1=([0-9a-f]{64})$/i.exec(signature.trim())
  if (!m) return false
  const [, ts, hex] = m as unknown as [string, string, string]
  const given = Buffer.from(hex.toLowerCase(), 'hex')
  const expected = mac(secret, ts, body)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false
  if (opts.toleranceSeconds === undefined) return true
  return Math.abs((opts.nowMs ?? Date.now()) / 1000 - Number(ts)) <= opts.toleranceSeconds
}

/** First retry waits up to BASE, doubling per attempt up to CAP (before jitter). */
export const BACKOFF_BASE_MS = 5_000
export const BACKOFF_CAP_MS = 30 * 60_000
/** Floor so full jitter never fires a retry straight back at a failing receiver. */
export const BACKOFF_MIN_MS = 1_000
/** A retry-after beyond the whole 24 h delivery window is clamped to it. */
export const RETRY_AFTER_MAX_MS = 24 * 60 * 60_000

/**
 * Milliseconds to wait before the next attempt, after `attempt` failed attempts (1 = the first
 * delivery failed). Exponential backoff with full jitter (a uniformly random delay in
 * [0, min(CAP, BASE·2^(attempt−1))), floored at MIN), which spreads retries of many deliveries to
 * one receiver. A `retry-after` header (delta-seconds or HTTP-date) wins over the computed delay:
 * the receiver said when to come back, so we never come earlier (a date in the past means now,
 * i.e. MIN). An unparseable header is ignored.
 */
export function backoffDelay(
  attempt: number,
  retryAfterHeader?: string | null,
  random: () => number = Math.random,
  nowMs: number = Date.now(),
): number {
  if (!Number.isFinite(attempt)) throw new RangeError(`attempt must be a finite number, got ${attempt}`)
  const retryAfter = parseRetryAfter(retryAfterHeader, nowMs)
  if (retryAfter !== null) return Math.min(Math.max(retryAfter, BACKOFF_MIN_MS), RETRY_AFTER_MAX_MS)
  const n = Math.max(1, Math.floor(attempt))
  // 2^(n-1) overflows to Infinity for huge n; min() with CAP keeps the ceiling finite.
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (n - 1))
  const r = Math.min(Math.max(random(), 0), 1)
  return Math.max(BACKOFF_MIN_MS, Math.floor(r * ceiling))
}

/** `retry-after` in ms from now: delta-seconds (`120`) or an HTTP-date; null when absent/invalid. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number = Date.now()): number | null {
  const v = header?.trim()
  if (!v) return null
  if (/^\d+$/.test(v)) return Number(v) * 1000
  // HTTP-date (IMF-fixdate, or the obsolete RFC 850 / asctime forms Date.parse also reads).
  if (!/[a-z]/i.test(v)) return null // "1.5", "-3": not a delta-seconds nor a date
  const at = Date.parse(v)
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs)
}

export type CallbackStatus = number | 'network-error'

/**
 * Whether a delivery attempt that ended this way is worth another try:
 * - network error (refused, reset, timeout, TLS failure): yes;
 * - 429 Too Many Requests and every 5xx: yes (the receiver is overloaded or broken for now);
 * - 2xx: no, it is delivered;
 * - 410 Gone: no, the receiver says the endpoint is gone for good;
 * - every other 1xx/3xx/4xx: no. Redirects are not followed (the new URL would bypass callback
 *   URL validation) and a 4xx such as 400/401/404 will not fix itself by resending the same
 *   bytes. 408 included: decisions.md lists exactly network error, 5xx and 429 as retryable.
 */
export function isRetryable(status: CallbackStatus): boolean {
  if (status === 'network-error') return true
  return status === 429 || (status >= 500 && status <= 599)
}

/** The outbox's next step for an attempt's outcome. */
export function deliveryOutcome(status: CallbackStatus): 'delivered' | 'retry' | 'give-up' {
  if (status !== 'network-error' && status >= 200 && status <= 299) return 'delivered'
  return isRetryable(status) ? 'retry' : 'give-up'
}
