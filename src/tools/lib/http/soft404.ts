// Soft-404 detection, the one of every web tool: learn how the site answers paths that cannot exist and
// recognise those answers later, so a catch-all page reports nothing. The URL fuzzer learns a signature
// per class of path (method, directory, dot-file, suffix) as it goes (Soft404); the website scanner
// calibrates once up front (profile / looksLikeNotFound). Both compare with the same Signature.
// The signature is pure data built from observations; the probing itself is injected.
import { randomBytes } from 'node:crypto'

export interface Observation {
  status: number
  /** Body length in bytes (Content-Length when the body was cut short). */
  length: number
  contentType: string
  /** Location of a redirect answer, absolute; null otherwise. */
  location: string | null
  body: Buffer
}

export interface PathClass {
  key: string
  method: string
  /** Path of a nonexistent sibling built around `random`. */
  probePath(random: string): string
}

const MAX_CLASSES = 256
const isRedirect = (s: number) => s >= 300 && s < 400

/** The class of a relative path: what a server may treat alike (same directory, dot-file or not, same suffix). */
export function pathClass(method: string, path: string, dirScoped = true): PathClass {
  const slash = path.lastIndexOf('/', path.endsWith('/') ? path.length - 2 : path.length - 1)
  const dir = dirScoped && slash >= 0 ? path.slice(0, slash + 1) : ''
  const last = path.slice(slash + 1)
  const trailing = last.endsWith('/') ? '/' : ''
  const name = trailing ? last.slice(0, -1) : last
  const dot = name.startsWith('.') ? '.' : ''
  const rest = dot ? name.slice(1) : name
  const ext = rest.endsWith('~') ? '~' : (/(\.[A-Za-z0-9]{1,8})$/.exec(rest)?.[1] ?? '')
  return {
    key: `${method} ${dir}|${dot}|${ext}|${trailing}`,
    method,
    probePath: (random) => `${dir}${dot}${random}${ext}${trailing}`,
  }
}

export function randomWord(length: number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  return [...randomBytes(length)].map((b) => letters[b % 26]).join('')
}

/** Lower-case alphanumeric tokens of a path or page; tokens with digits are dropped (ids, times, nonces). */
function tokenList(text: string): string[] {
  const all = text.toLowerCase().match(/[a-z0-9]+/g)
  if (!all) return []
  const out: string[] = []
  for (const t of all) if (!HAS_DIGIT.test(t)) out.push(t)
  return out
}
const HAS_DIGIT = /\d/

function pathTokens(path: string): Set<string> {
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {
    /* keep it encoded */
  }
  return new Set(tokenList(decoded))
}

function bag(text: string, drop: Set<string>): Map<string, number> {
  const m = new Map<string, number>()
  for (const t of tokenList(text)) if (!drop.has(t)) m.set(t, (m.get(t) ?? 0) + 1)
  return m
}

function bagSize(a: Map<string, number>): number {
  let n = 0
  for (const v of a.values()) n += v
  return n
}

/**
 * Size of the multiset symmetric difference, ignoring tokens in either drop set; stops counting
 * once past `limit` (the caller only needs to know whether it is within).
 */
function bagDiff(a: Map<string, number>, b: Map<string, number>, dropA: Set<string>, dropB: Set<string>, limit = Infinity): number {
  let d = 0
  for (const [t, n] of a) {
    if (dropA.has(t) || dropB.has(t)) continue
    d += Math.abs(n - (b.get(t) ?? 0))
    if (d > limit) return d
  }
  for (const [t, n] of b) {
    if (dropA.has(t) || dropB.has(t) || a.has(t)) continue
    d += n
    if (d > limit) return d
  }
  return d
}

/**
 * The redirect target with the requested path replaced by a placeholder, component by component: the
 * Location's path ("§", "§/") and each query value that is the path or the whole URL. Comparing whole
 * components keeps a short word from matching inside unrelated text ("/log" inside "/login").
 */
function locationPattern(location: string, path: string): string {
  let u: URL
  try {
    u = new URL(location)
  } catch {
    return location
  }
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {
    /* keep */
  }
  const isPath = (v: string) => v === path || v === decoded
  const p = u.pathname
  const pathPart = isPath(p) ? '§' : p.endsWith('/') && isPath(p.slice(0, -1)) ? '§/' : p
  const query = [...u.searchParams].map(([k, v]) => {
    let vp = v
    try {
      vp = isPath(v) || isPath(new URL(v, u).pathname) ? '§' : v
    } catch {
      /* not a URL */
    }
    return `${k}=${vp}`
  })
  return `${u.origin}${pathPart}${query.length ? '?' + query.join('&') : ''}`
}

const mainType = (ct: string) => ct.split(';')[0]!.trim().toLowerCase()

interface Probe {
  status: number
  contentType: string
  length: number
  location: string | null
  tokens: Map<string, number>
  drop: Set<string>
  pathLength: number
}

export class Signature {
  readonly probes: Probe[] = []
  private tolerance = 0
  private lengthSpread = 0

  constructor(samples: { path: string; obs: Observation }[]) {
    for (const { path, obs } of samples) {
      const drop = pathTokens(path)
      this.probes.push({
        status: obs.status,
        contentType: mainType(obs.contentType),
        length: obs.length,
        location: obs.location === null ? null : locationPattern(obs.location, path),
        tokens: bag(obs.body.toString('utf8'), drop),
        drop,
        pathLength: path.length,
      })
    }
    // How much nonexistent pages differ from one another is how much a match may differ.
    let maxDiff = 0
    let maxTokens = 0
    for (const a of this.probes) {
      maxTokens = Math.max(maxTokens, bagSize(a.tokens))
      for (const b of this.probes) {
        if (a === b || a.status !== b.status) continue
        maxDiff = Math.max(maxDiff, bagDiff(a.tokens, b.tokens, a.drop, b.drop))
        this.lengthSpread = Math.max(this.lengthSpread, Math.abs(a.length - b.length))
      }
    }
    this.tolerance = Math.max(Math.ceil(maxDiff * 1.5), Math.floor(maxTokens * 0.01))
  }

  /** Statuses the site gives nonexistent paths of this class. */
  get statuses(): number[] {
    return [...new Set(this.probes.map((p) => p.status))]
  }

  /** Whether `obs`, the answer for `path`, looks like the answer for a nonexistent path. */
  matches(path: string, obs: Observation): boolean {
    const candidates = this.probes.filter((p) => p.status === obs.status && p.contentType === mainType(obs.contentType))
    if (!candidates.length) return false
    if (isRedirect(obs.status) && obs.location !== null) {
      const pattern = locationPattern(obs.location, path)
      return candidates.some((p) => p.location === pattern)
    }
    const drop = pathTokens(path)
    const tokens = bag(obs.body.toString('utf8'), drop)
    const size = bagSize(tokens)
    return candidates.some((p) => {
      if (size === 0 && bagSize(p.tokens) === 0) {
        // No text to compare (empty or binary): lengths, allowing for an echoed path of another length.
        return Math.abs(obs.length - p.length) <= this.lengthSpread + Math.abs(path.length - p.pathLength)
      }
      return bagDiff(tokens, p.tokens, drop, p.drop, this.tolerance) <= this.tolerance
    })
  }
}

/**
 * Signatures per path class, learned on first use (concurrent callers share one calibration).
 * `probe` requests one relative path and returns the observation.
 */
export class Soft404 {
  private readonly learned = new Map<string, Promise<Signature | null>>()

  /**
   * `probe` requests one path relative to the base; `basePath` (the base URL's path, ending in '/') makes
   * signatures compare whole request paths, which is what servers echo in pages and redirects.
   */
  constructor(
    private readonly probe: (method: string, path: string) => Promise<Observation>,
    private readonly onLearned: (key: string, sig: Signature) => void = () => {},
    private readonly basePath = '/',
    private readonly samples = 3,
  ) {}

  get classes(): number {
    return this.learned.size
  }

  signatureFor(method: string, path: string): Promise<Signature | null> {
    let cls = pathClass(method, path)
    if (!this.learned.has(cls.key) && this.learned.size >= MAX_CLASSES) cls = pathClass(method, path, false)
    let sig = this.learned.get(cls.key)
    if (!sig) {
      sig = this.calibrate(cls)
      this.learned.set(cls.key, sig)
      // A failed calibration is tried again by the next path of the class rather than cached.
      sig.catch(() => this.learned.delete(cls.key))
    }
    return sig
  }

  /** True when the answer for `path` is the site's answer for nonexistent paths. */
  async isSoft404(method: string, path: string, obs: Observation): Promise<boolean> {
    const sig = await this.signatureFor(method, path)
    return sig ? sig.matches(this.basePath + path, obs) : false
  }

  private async calibrate(cls: PathClass): Promise<Signature | null> {
    const lengths = [8, 11, 14, 17, 20].slice(0, this.samples)
    const paths = lengths.map((n) => cls.probePath(randomWord(n)))
    const settled = await Promise.allSettled(paths.map((p) => this.probe(cls.method, p)))
    const samples = settled.flatMap((r, i) => (r.status === 'fulfilled' ? [{ path: this.basePath + paths[i]!, obs: r.value }] : []))
    if (!samples.length) {
      const first = settled[0] as PromiseRejectedResult
      throw first.reason
    }
    const sig = new Signature(samples)
    this.onLearned(cls.key, sig)
    return sig
  }
}

// ---- calibrate-once use (the website scanner): a few never-existing paths, then look-alike checks ----

export interface ResponseShape {
  status: number
  body: string
  location?: string
  contentType?: string
}

/** What the site answered for paths that cannot exist. */
export interface Soft404Profile {
  signature: Signature
}

// Relative Location headers are compared as paths: resolved against one placeholder origin.
const PLACEHOLDER_ORIGIN = 'http://soft404.invalid/'

/** The shape as an observation. The content type is left out: catch-all pages are recognised by what they say. */
const observation = (r: ResponseShape): Observation => ({
  status: r.status,
  length: Buffer.byteLength(r.body, 'latin1'),
  contentType: '',
  location: r.location ? absolute(r.location) : null,
  body: Buffer.from(r.body, 'latin1'),
})

function absolute(location: string): string {
  try {
    return new URL(location, PLACEHOLDER_ORIGIN).href
  } catch {
    return location
  }
}

export function profile(samples: (ResponseShape & { path: string })[]): Soft404Profile {
  return { signature: new Signature(samples.map((s) => ({ path: s.path, obs: observation(s) }))) }
}

/** Whether a response for `path` looks like what the site answers for paths that do not exist. */
export function looksLikeNotFound(p: Soft404Profile, r: ResponseShape, path: string): boolean {
  if (r.status === 404 || r.status === 410) return true
  return p.signature.matches(path, observation(r))
}

/** Random, never-existing paths to calibrate with: a plain path, a dotfile and a file with an extension. */
export function calibrationPaths(rnd: () => number = Math.random): string[] {
  const word = () => Array.from({ length: 12 }, () => String.fromCharCode(97 + Math.floor(rnd() * 26))).join('')
  return [`/${word()}`, `/.${word()}`, `/${word()}.bak`]
}
