import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  BACKOFF_MIN_MS,
  RETRY_AFTER_MAX_MS,
  backoffDelay,
  callbackTimestamp,
  deliveryOutcome,
  isRetryable,
  parseRetryAfter,
  signBody,
  verifySignature,
} from '../../src/reports/callback-signing.js'

const body = Buffer.from('{"data":{"output_type":"finding_list","output_data":{"findings":[]}}}')
const secret = 'shh-ünïcode-secret'

test('signBody is t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>." and the raw body>', () => {
  const expected = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from('1763720100.'), body]))
    .digest('hex')
  assert.equal(signBody(secret, body, '1763720100'), `t=1763720100,v1=${expected}`)
  // The timestamp is covered: the same body at another time has another MAC.
  assert.notEqual(signBody(secret, body, '1').split('v1=')[1], signBody(secret, body, '2').split('v1=')[1])
})

test('signBody signs the raw bytes, binary bodies included', () => {
  const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0xfe, 0x0a])
  assert.equal(signBody('k', pdf, '0'), `t=0,v1=${createHmac('sha256', 'k').update('0.').update(pdf).digest('hex')}`)
  assert.notEqual(signBody('k', pdf, '0'), signBody('k', Buffer.from(pdf.toString('latin1'), 'utf8'), '0'))
})

test('verifySignature accepts a good signature and rejects anything else', () => {
  const sig = signBody(secret, body, '1763720100')
  assert.equal(verifySignature(secret, body, sig), true)
  assert.equal(verifySignature(secret, body, sig.toUpperCase().replace('T=', 't=').replace('V1=', 'v1=')), true)
  assert.equal(verifySignature('other', body, sig), false)
  assert.equal(verifySignature(secret, Buffer.concat([body, Buffer.from(' ')]), sig), false)
  assert.equal(verifySignature(secret, body, sig.slice(0, -2)), false)
  assert.equal(verifySignature(secret, body, sig.replace('v1=', 'v0=')), false)
  assert.equal(verifySignature(secret, body, sig.split(',')[1]), false)
  // A replay: the old MAC under a fresh timestamp does not verify.
  assert.equal(verifySignature(secret, body, sig.replace('t=1763720100', 't=1763720999')), false)
  assert.equal(verifySignature(secret, body, ''), false)
  assert.equal(verifySignature(secret, body, null), false)
  assert.equal(verifySignature(secret, body, undefined), false)
})

test('verifySignature checks the signed timestamp freshness when asked', () => {
  const now = Date.UTC(2026, 10, 21, 10, 15, 0)
  const ts = callbackTimestamp(now)
  assert.equal(ts, String(now / 1000))
  const sig = signBody(secret, body, ts)
  assert.equal(verifySignature(secret, body, sig, { toleranceSeconds: 300, nowMs: now + 299_000 }), true)
  assert.equal(verifySignature(secret, body, sig, { toleranceSeconds: 300, nowMs: now + 301_000 }), false)
  assert.equal(verifySignature(secret, body, sig, { toleranceSeconds: 300, nowMs: now - 301_000 }), false)
})

test('backoffDelay grows exponentially with full jitter and is capped', () => {
  const top = () => 0.999999
  assert.equal(backoffDelay(1, null, top), Math.floor(0.999999 * BACKOFF_BASE_MS))
  assert.equal(backoffDelay(2, null, top), Math.floor(0.999999 * BACKOFF_BASE_MS * 2))
  assert.equal(backoffDelay(3, null, top), Math.floor(0.999999 * BACKOFF_BASE_MS * 4))
  assert.equal(backoffDelay(40, null, top), Math.floor(0.999999 * BACKOFF_CAP_MS))
  assert.equal(backoffDelay(10_000, null, top), Math.floor(0.999999 * BACKOFF_CAP_MS))
  assert.equal(
    backoffDelay(5, null, () => 0.5),
    Math.floor(0.5 * BACKOFF_BASE_MS * 16),
  )
  // Full jitter: a low draw gives a short wait, floored so a failing receiver is not hammered.
  assert.equal(
    backoffDelay(8, null, () => 0),
    BACKOFF_MIN_MS,
  )
  assert.equal(backoffDelay(0, null, top), backoffDelay(1, null, top))
  assert.throws(() => backoffDelay(Number.NaN), RangeError)
})

test('backoffDelay with the real random stays within [MIN, ceiling]', () => {
  for (let attempt = 1; attempt <= 30; attempt++) {
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1))
    for (let i = 0; i < 50; i++) {
      const d = backoffDelay(attempt)
      assert.ok(d >= BACKOFF_MIN_MS && d <= Math.max(ceiling, BACKOFF_MIN_MS), `attempt ${attempt}: ${d}`)
    }
  }
})

test('backoffDelay honours retry-after seconds and HTTP-dates', () => {
  const now = Date.UTC(2026, 10, 21, 10, 15, 0)
  assert.equal(
    backoffDelay(1, '120', () => 0, now),
    120_000,
  )
  assert.equal(
    backoffDelay(9, ' 3 ', () => 1, now),
    3_000,
  )
  assert.equal(
    backoffDelay(1, 'Sat, 21 Nov 2026 10:20:00 GMT', () => 0, now),
    300_000,
  )
  assert.equal(
    backoffDelay(1, 'Sat, 21 Nov 2026 10:00:00 GMT', () => 0, now),
    BACKOFF_MIN_MS,
  )
  assert.equal(
    backoffDelay(1, '0', () => 0, now),
    BACKOFF_MIN_MS,
  )
  assert.equal(
    backoffDelay(1, String(365 * 24 * 3600), () => 0, now),
    RETRY_AFTER_MAX_MS,
  )
  // Unparseable headers fall back to the computed backoff.
  for (const bad of ['soon', '-5', '1.5', '', '   '])
    assert.equal(
      backoffDelay(2, bad, () => 0.5, now),
      Math.floor(0.5 * BACKOFF_BASE_MS * 2),
      bad,
    )
})

test('parseRetryAfter', () => {
  const now = Date.UTC(2026, 10, 21, 10, 15, 0)
  assert.equal(parseRetryAfter('60', now), 60_000)
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 10:16:00 GMT', now), 60_000)
  assert.equal(parseRetryAfter(null, now), null)
  assert.equal(parseRetryAfter('in a while', now), null)
})

test('isRetryable: network errors, 5xx and 429 retry; 2xx, 410 and other 4xx stop', () => {
  for (const s of ['network-error', 429, 500, 502, 503, 504, 599] as const) assert.equal(isRetryable(s), true, String(s))
  for (const s of [200, 201, 204, 299, 301, 302, 400, 401, 403, 404, 408, 410, 413, 422, 100])
    assert.equal(isRetryable(s), false, String(s))
})

test('deliveryOutcome maps an attempt to the outbox step', () => {
  assert.equal(deliveryOutcome(200), 'delivered')
  assert.equal(deliveryOutcome(204), 'delivered')
  assert.equal(deliveryOutcome(503), 'retry')
  assert.equal(deliveryOutcome(429), 'retry')
  assert.equal(deliveryOutcome('network-error'), 'retry')
  assert.equal(deliveryOutcome(410), 'give-up')
  assert.equal(deliveryOutcome(404), 'give-up')
  assert.equal(deliveryOutcome(302), 'give-up')
})
