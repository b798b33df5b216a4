// Soft-404 calibration: many sites answer 200 (or a redirect) with the same page for any path.
// Ask for a few paths that cannot exist, remember what they look like, and treat look-alikes as "not found".

export interface ResponseShape {
  status: number
  body: string
  location?: string
  contentType?: string
}

export interface Soft404Profile {
  samples: { status: number; words: number; length: number; location?: string; fingerprint: string }[]
}

const WORD = /[A-Za-z0-9_]+/g

/** The body with the probed path (and its pieces) removed, so echoing pages still compare equal. */
function normalise(body: string, path?: string): string {
  let b = body
  if (path) {
    for (const piece of new Set([path, encodeURI(path), path.replace(/^\//, ''), ...path.split('/').filter((p) => p.length > 3)])) {
      if (piece) b = b.split(piece).join('')
    }
  }
  return b.replace(/\s+/g, ' ').trim()
}

const fingerprint = (s: string) => (s.match(WORD) ?? []).slice(0, 400).join(' ')

export function profile(samples: (ResponseShape & { path: string })[]): Soft404Profile {
  return {
    samples: samples.map((s) => {
      const n = normalise(s.body, s.path)
      return { status: s.status, words: (n.match(WORD) ?? []).length, length: n.length, location: s.location, fingerprint: fingerprint(n) }
    }),
  }
}

/** Whether a response for `path` looks like what the site answers for paths that do not exist. */
export function looksLikeNotFound(p: Soft404Profile, r: ResponseShape, path: string): boolean {
  if (r.status === 404 || r.status === 410) return true
  const n = normalise(r.body, path)
  const fp = fingerprint(n)
  const words = (n.match(WORD) ?? []).length
  return p.samples.some((s) => {
    if (s.status !== r.status) return false
    if (s.status >= 300 && s.status < 400) return sameRedirectTarget(s.location, r.location)
    if (s.fingerprint === fp) return true
    // Near-identical size, word count and vocabulary: a template page with small varying parts (dates, ids).
    const lenClose = Math.abs(s.length - n.length) <= Math.max(16, s.length * 0.03)
    return lenClose && Math.abs(s.words - words) <= Math.max(2, s.words * 0.03) && jaccard(s.fingerprint, fp) >= 0.8
  })
}

function jaccard(a: string, b: string): number {
  const x = new Set(a.split(' ').filter(Boolean))
  const y = new Set(b.split(' ').filter(Boolean))
  if (!x.size && !y.size) return 1
  let both = 0
  for (const w of x) if (y.has(w)) both++
  return both / (x.size + y.size - both)
}

function sameRedirectTarget(a?: string, b?: string): boolean {
  if (!a || !b) return a === b
  const strip = (x: string) => x.replace(/[?#].*$/, '').replace(/\/[^/]*$/, '/')
  return strip(a) === strip(b)
}

/** Random, never-existing paths to calibrate with: a plain path, a dotfile and a file with an extension. */
export function calibrationPaths(rnd: () => number = Math.random): string[] {
  const word = () => Array.from({ length: 12 }, () => String.fromCharCode(97 + Math.floor(rnd() * 26))).join('')
  return [`/${word()}`, `/.${word()}`, `/${word()}.bak`]
}
