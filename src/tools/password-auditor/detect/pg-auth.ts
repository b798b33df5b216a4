// PostgreSQL password authentication, the client's arithmetic: md5 (SCRAM-SHA-256 is in scram.ts). Pure.
import { createHash } from 'node:crypto'

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
