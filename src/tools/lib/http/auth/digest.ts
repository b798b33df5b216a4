// HTTP Digest (RFC 7616): the Authorization header answering one challenge, MD5 or SHA-256, qop=auth.
import { createHash, randomBytes } from 'node:crypto'

export interface DigestChallenge {
  realm: string
  nonce: string
  qop?: string
  opaque?: string
  algorithm: string
}

/** The Digest challenge of a WWW-Authenticate header, or null. */
export function parseDigestChallenge(header: string): DigestChallenge | null {
  const m = /Digest\s+(.*)$/is.exec(header)
  if (!m) return null
  const params: Record<string, string> = {}
  for (const p of m[1]!.matchAll(/(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]+))/g)) params[p[1]!.toLowerCase()] = p[2] ?? p[3]!
  if (!params.nonce) return null
  return { realm: params.realm ?? '', nonce: params.nonce, qop: params.qop, opaque: params.opaque, algorithm: params.algorithm ?? 'MD5' }
}

/** The Authorization value for `method uri` (the request target, path and query). `nc` counts uses of the nonce. */
export function digestAuthorization(c: DigestChallenge, user: string, password: string, method: string, uri: string, nc: number): string {
  const alg = c.algorithm.toUpperCase().replace(/-SESS$/, '')
  const h = (s: string) =>
    createHash(alg === 'SHA-256' ? 'sha256' : 'md5')
      .update(s)
      .digest('hex')
  const cnonce = randomBytes(8).toString('hex')
  let ha1 = h(`${user}:${c.realm}:${password}`)
  if (/-sess$/i.test(c.algorithm)) ha1 = h(`${ha1}:${c.nonce}:${cnonce}`)
  const ha2 = h(`${method}:${uri}`)
  const qop = c.qop
    ?.split(',')
    .map((q) => q.trim())
    .includes('auth')
    ? 'auth'
    : undefined
  const ncHex = nc.toString(16).padStart(8, '0')
  const response = qop ? h(`${ha1}:${c.nonce}:${ncHex}:${cnonce}:${qop}:${ha2}`) : h(`${ha1}:${c.nonce}:${ha2}`)
  const q = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`
  return [
    `Digest username=${q(user)}`,
    `realm=${q(c.realm)}`,
    `nonce=${q(c.nonce)}`,
    `uri=${q(uri)}`,
    `algorithm=${c.algorithm}`,
    `response=${q(response)}`,
    ...(c.opaque !== undefined ? [`opaque=${q(c.opaque)}`] : []),
    ...(qop ? [`qop=${qop}`, `nc=${ncHex}`, `cnonce=${q(cnonce)}`] : []),
  ].join(', ')
}
