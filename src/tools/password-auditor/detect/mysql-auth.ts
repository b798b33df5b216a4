// MySQL authentication, the client's arithmetic and the packets it reads. Pure.
import { createHash } from 'node:crypto'

const sha1 = (b: Buffer | string) => createHash('sha1').update(b).digest()
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest()
const xor = (a: Buffer, b: Buffer) => Buffer.from(a.map((x, i) => x ^ b[i]!))

/** mysql_native_password: SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))); empty for an empty password. */
export function nativePassword(password: string, scramble: Buffer): Buffer {
  if (!password) return Buffer.alloc(0)
  const h1 = sha1(password)
  return xor(h1, sha1(Buffer.concat([scramble, sha1(h1)])))
}

/** caching_sha2_password: SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) + scramble). */
export function cachingSha2Password(password: string, scramble: Buffer): Buffer {
  if (!password) return Buffer.alloc(0)
  const h1 = sha256(password)
  return xor(h1, sha256(Buffer.concat([sha256(h1), scramble])))
}

export interface Handshake {
  version: string
  scramble: Buffer
  plugin: string
}

/** The Handshake V10 payload (after the 4-byte packet header). */
export function parseHandshake(p: Buffer): Handshake {
  if (p[0] !== 10) throw new Error(`not a MySQL handshake (protocol ${p[0]})`)
  const vEnd = p.indexOf(0, 1)
  const version = p.subarray(1, vEnd).toString('latin1')
  let i = vEnd + 1 + 4
  const part1 = p.subarray(i, i + 8)
  i += 8 + 1 + 2 + 1 + 2 + 2
  const dataLen = p[i]!
  i += 1 + 10
  const len2 = Math.max(13, dataLen - 8)
  const part2 = p.subarray(i, i + len2 - 1) // the last byte is a NUL
  i += len2
  const pEnd = p.indexOf(0, i)
  const plugin = i < p.length ? p.subarray(i, pEnd < 0 ? p.length : pEnd).toString('latin1') : 'mysql_native_password'
  return { version, scramble: Buffer.concat([part1, part2]), plugin }
}

/** The auth response of `plugin` (native or caching_sha2), or null for a plugin we cannot answer. */
export function authResponse(plugin: string, password: string, scramble: Buffer): Buffer | null {
  if (plugin === 'mysql_native_password') return nativePassword(password, scramble)
  if (plugin === 'caching_sha2_password') return cachingSha2Password(password, scramble)
  return null
}

/** The error code and message of an ERR packet payload. */
export function mysqlError(p: Buffer): { code: number; message: string } {
  const code = p.readUInt16LE(1)
  const msgStart = p[3] === 0x23 ? 9 : 3
  return { code, message: p.subarray(msgStart).toString('utf8') }
}
