// Secrets at rest: AES-256-GCM under the deployment's key, in a versioned text envelope
//   wardenc:v1:<iv>:<tag>:<ciphertext>      (base64url; 12-byte random IV, 16-byte tag)
// so a column holds either a sealed value or, in rows written before sealing existed, the plain
// text — which `openSecret` still reads and start-up re-seals (store/secrets.ts).
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

const PREFIX = 'wardenc:'
const V1 = 'wardenc:v1:'
// The version is authenticated too: a v1 body cannot be passed off as another version's.
const AAD = Buffer.from('wardenc:v1')

export class SecretBox {
  readonly #key: Buffer
  /** A public name of the key (not derived reversibly): shown in errors to tell two keys apart. */
  readonly keyId: string

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the secret key must be 32 bytes')
    this.#key = Buffer.from(key)
    this.keyId = createHmac('sha256', this.#key).update('ward key id').digest('hex').slice(0, 12)
  }

  seal(plain: string): string {
    const iv = randomBytes(12)
    const c = createCipheriv('aes-256-gcm', this.#key, iv)
    c.setAAD(AAD)
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()])
    return `${V1}${iv.toString('base64url')}:${c.getAuthTag().toString('base64url')}:${ct.toString('base64url')}`
  }

  /** The plain text of a sealed value; a value that is not sealed (an older row) as it is. */
  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored
    if (!stored.startsWith(V1))
      throw new SecretOpenError(
        `a stored secret uses an envelope this Ward does not know (${stored.slice(0, stored.indexOf(':', PREFIX.length) + 1 || 12)}…)`,
      )
    const [iv, tag, ct] = stored.slice(V1.length).split(':')
    if (iv === undefined || tag === undefined || ct === undefined)
      throw new SecretOpenError('a stored secret is damaged (incomplete envelope)')
    try {
      const d = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'))
      d.setAAD(AAD)
      d.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8')
    } catch {
      throw new SecretOpenError(
        `a stored secret could not be decrypted with key ${this.keyId}: it was sealed with another key, or the row is damaged`,
      )
    }
  }
}

/** A stored secret that cannot be opened. Its message never holds the value. */
export class SecretOpenError extends Error {
  override name = 'SecretOpenError'
}

export const isSealed = (v: string): boolean => v.startsWith(V1)

export const sealSecret = (box: SecretBox, plain: string): string => box.seal(plain)

export const openSecret = (box: SecretBox, stored: string): string => box.open(stored)

/** `sealSecret` unless already sealed (copying a value between columns, re-sealing older rows). */
export const ensureSealed = (box: SecretBox, v: string): string => (isSealed(v) ? v : box.seal(v))

/** A JSON value with every sealed string in it opened (e.g. tool_params whose credentials were sealed). */
export function openSealedStrings(box: SecretBox, v: unknown): unknown {
  if (typeof v === 'string') return isSealed(v) ? box.open(v) : v
  if (Array.isArray(v)) return v.map((x) => openSealedStrings(box, x))
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, openSealedStrings(box, x)]))
  return v
}
