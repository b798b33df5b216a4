// Passwords of people signing in to the web interface: scrypt (memory-hard), a random salt per
// password, parameters stored with the hash so they can be raised later without breaking old ones.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { readFileSync } from 'node:fs'

const N = 2 ** 15
const R = 8
const P = 1
const KEYLEN = 32
export const MIN_PASSWORD = 10
export const MAX_PASSWORD = 1024

function derive(password: string, salt: Buffer, o: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEYLEN, { ...o, maxmem: 256 * (o.N ?? N) * (o.r ?? R) }, (e, k) =>
      e ? reject(e) : resolve(k),
    ),
  )
}

let common: Set<string> | null = null
/** The shipped list of the most common passwords of public breach lists (read once, when first needed). */
function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#')),
  )
  return common
}

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i' }
const KEYBOARD_RUNS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'abcdefghijklmnopqrstuvwxyz', '0987654321']

/**
 * Why a password is one that attackers try first, or null: a common password (also with digits or
 * symbols added at either end, or letters written as digits), a run of keys, or one repeated piece.
 */
export function guessableReason(password: string): string | null {
  const lower = password.toLowerCase().normalize('NFC')
  const list = commonPasswords()
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '')
  const unleet = lower.replace(/[013457@$!]/g, (c) => LEET[c]!).replace(/[\W_]+$/g, '')
  for (const v of [lower, core, unleet, unleet.replace(/i+$/, '')]) {
    if (v.length >= 3 && list.has(v))
      return v === lower
        ? 'it is one of the most common passwords, which attackers try first'
        : 'it is made from one of the most common passwords (digits, symbols or look-alike characters added), which attackers try first'
  }
  if (/^(.{1,4})\1+$/.test(lower)) return 'it repeats the same few characters, which attackers try first'
  if (KEYBOARD_RUNS.some((run) => run.includes(lower) || [...run].reverse().join('').includes(lower)))
    return 'it is a run of neighbouring keys, which attackers try first'
  if (/^\d+$/.test(lower)) return 'it is only digits; use words or letters as well'
  return null
}

/** What is wrong with a new password, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD) return `The password must have at least ${MIN_PASSWORD} characters`
  if (password.length > MAX_PASSWORD) return `The password must have at most ${MAX_PASSWORD} characters`
  if (/[\u0000-\u001f]/.test(password)) return 'The password must not contain control characters (line breaks included)'
  const guessable = guessableReason(password)
  if (guessable) return `Choose another password: ${guessable}. A few unrelated words make a strong one.`
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
