// PostgreSQL password authentication, the client's arithmetic: md5 and SCRAM-SHA-256 (RFC 5802/7677). Pure.
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto'

/** AuthenticationMD5Password answer: "md5" + md5(md5(password + user) + salt). */
export function pgMd5(user: string, password: string, salt: Buffer): string {
  const inner = createHash('md5')
    .update(password + user)
    .digest('hex')
  return (
    'md5' +
    createHash('md5')
      .update(Buffer.concat([Buffer.from(inner), salt]))
      .digest('hex')
  )
}

export interface ScramClient {
  /** client-first-message ("n,,n=,r=<nonce>"). */
  first: string
  /** client-final-message for the server-first-message, or an Error when the server's nonce is not ours. */
  final(serverFirst: string, password: string): string
}

export function scramClient(nonce = randomBytes(18).toString('base64')): ScramClient {
  const bare = `n=,r=${nonce}`
  return {
    first: `n,,${bare}`,
    final(serverFirst, password) {
      const attrs = Object.fromEntries(serverFirst.split(',').map((kv) => [kv.slice(0, 1), kv.slice(2)]))
      const r = attrs.r ?? ''
      if (!r.startsWith(nonce) || !attrs.s || !attrs.i) throw new Error('unexpected SCRAM server-first-message')
      const salted = pbkdf2Sync(password.normalize('NFKC'), Buffer.from(attrs.s, 'base64'), Number(attrs.i), 32, 'sha256')
      const clientKey = createHmac('sha256', salted).update('Client Key').digest()
      const storedKey = createHash('sha256').update(clientKey).digest()
      const withoutProof = `c=biws,r=${r}`
      const signature = createHmac('sha256', storedKey).update(`${bare},${serverFirst},${withoutProof}`).digest()
      const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]!))
      return `${withoutProof},p=${proof.toString('base64')}`
    },
  }
}
