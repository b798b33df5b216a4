// MurmurHash3 (shared by Website Recon and the templates' DSL), and favicon hashes as Shodan computes
// them: MurmurHash3 (x86, 32-bit, seed 0, signed) of the body's base64 with a newline every 76 characters
// and at the end (Python's base64.encodebytes). Pure.

export function murmur3(data: Buffer, seed = 0): number {
  let h = seed >>> 0
  const c1 = 0xcc9e2d51
  const c2 = 0x1b873593
  const n = data.length & ~3
  for (let i = 0; i < n; i += 4) {
    let k = data.readUInt32LE(i)
    k = Math.imul(k, c1)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, c2)
    h ^= k
    h = (h << 13) | (h >>> 19)
    h = (Math.imul(h, 5) + 0xe6546b64) | 0
  }
  let k = 0
  const rest = data.length & 3
  if (rest === 3) k ^= data[n + 2]! << 16
  if (rest >= 2) k ^= data[n + 1]! << 8
  if (rest >= 1) {
    k ^= data[n]!
    k = Math.imul(k, c1)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, c2)
    h ^= k
  }
  h ^= data.length
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h | 0
}

/** Shodan's http.favicon.hash of a favicon body. */
export function faviconHash(body: Buffer): number {
  const b64 = body.toString('base64')
  const lines = b64.match(/.{1,76}/g) ?? []
  return murmur3(Buffer.from(lines.map((l) => l + '\n').join(''), 'latin1'))
}
