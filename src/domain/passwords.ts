// Passwords of people signing in to the web interface: scrypt (memory-hard), a random salt per
// password, parameters stored with the hash so they can be raised later without breaking old ones.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

const N = 2 ** 15
const R = 8
const P = 1
const KEYLEN = 32
export const MIN_PASSWORD = 10
export const MAX_PASSWORD = 1024

function derive(password: string, salt: Buffer, o: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEYLEN, { ...o, maxmem: 256 * (o.N ?? N) * (o.r ?? R) }, (e, k) => (e ? reject(e) : resolve(k))))
}

/** What is wrong with a new password, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD) return `The password must have at least ${MIN_PASSWORD} characters`
  if (password.length > MAX_PASSWORD) return `The password must have at most ${MAX_PASSWORD} characters`
  if (/[\u0000-\u001f]/.test(password)) return 'The password must not contain control characters (line breaks included)'
  return null
}

/** `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, { N, r: R, p: P })
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$') ?? []
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    // Same work either way, so an unknown user or one without a password answers in the same time.
    await derive(password, Buffer.alloc(16), { N, r: R, p: P })
    return false
  }
  const [, n, r, p, salt, hash] = parts
  const expected = Buffer.from(hash!, 'base64url')
  const key = await derive(password, Buffer.from(salt!, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) })
  return key.length === expected.length && timingSafeEqual(key, expected)
}
