// SCRAM client arithmetic (RFC 5802, RFC 7677): SCRAM-SHA-256 for PostgreSQL and MongoDB, SCRAM-SHA-1
// for MongoDB (whose SHA-1 password is its own digest of user and password). Pure.
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto'

export interface ScramClient {
  /** client-first-message ("n,,n=<user>,r=<nonce>"). */
  first: string
  /** client-final-message for the server-first-message; throws when the server's nonce is not ours. */
  final(serverFirst: string, password: string): string
}

export interface ScramOptions {
  hash?: 'sha256' | 'sha1'
  /** The user name sent in the first message (PostgreSQL sends none: the startup packet names the user). */
  user?: string
}

/** SASLname escaping of the user name: "=" and "," are written =3D and =2C. */
const saslName = (u: string) => u.replace(/=/g, '=3D').replace(/,/g, '=2C')

export function scramClient(nonce = randomBytes(18).toString('base64'), o: ScramOptions = {}): ScramClient {
  const hash = o.hash ?? 'sha256'
  const bare = `n=${saslName(o.user ?? '')},r=${nonce}`
  return {
    first: `n,,${bare}`,
    final(serverFirst, password) {
      const attrs = Object.fromEntries(serverFirst.split(',').map((kv) => [kv.slice(0, 1), kv.slice(2)]))
      const r = attrs.r ?? ''
      if (!r.startsWith(nonce) || !attrs.s || !attrs.i) throw new Error('unexpected SCRAM server-first-message')
      const size = hash === 'sha256' ? 32 : 20
      const salted = pbkdf2Sync(password.normalize('NFKC'), Buffer.from(attrs.s, 'base64'), Number(attrs.i), size, hash)
      const clientKey = createHmac(hash, salted).update('Client Key').digest()
      const storedKey = createHash(hash).update(clientKey).digest()
      const withoutProof = `c=biws,r=${r}`
      const signature = createHmac(hash, storedKey).update(`${bare},${serverFirst},${withoutProof}`).digest()
      const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]!))
      return `${withoutProof},p=${proof.toString('base64')}`
    },
  }
}

/** MongoDB's SCRAM-SHA-1 password: the hex md5 of "user:mongo:password" (SCRAM-SHA-256 takes the password itself). */
export const mongoSha1Password = (user: string, password: string) => createHash('md5').update(`${user}:mongo:${password}`).digest('hex')
