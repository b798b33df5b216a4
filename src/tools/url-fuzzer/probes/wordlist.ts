// Wordlists: the shipped ones are text files read lazily and streamed line by line; arrays come from
// tool_params. Candidates (word × extension × method) are generated on demand, never built up front.
import { createReadStream } from 'node:fs'
import { fileURLToPath } from 'node:url'

export type WordlistSpec = 'small' | 'medium' | string[]

export interface WordSource {
  /** Number of distinct words the source yields (progress denominator). */
  total: number
  /** The words in batches of a few hundred: one await per batch rather than per word. */
  batches(): AsyncIterable<string[]>
  words(): AsyncIterable<string>
}

const BATCH = 512

export interface Candidate {
  word: string
  /** Path relative to the base URL, as sent (percent-encoded where needed). */
  path: string
  method: string
  /** Share of its word this candidate stands for (1 / candidates of the word): progress in words. */
  weight: number
}

const shippedPath = (name: 'small' | 'medium') => fileURLToPath(new URL(`../wordlists/${name}.txt`, import.meta.url))
const countCache = new Map<string, number>()

/** A word as a relative path: trimmed, no leading slash; '' for blank lines and '#' comments. */
export function cleanWord(raw: string): string {
  const w = raw.trim()
  if (!w || w.startsWith('#')) return ''
  return w.replace(/^\/+/, '')
}

/** Lines of a file read chunk by chunk (64 KiB at a time): memory stays flat whatever the file size. */
async function* fileBatches(file: string): AsyncGenerator<string[]> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 })
  let rest = ''
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      const words = lines.map(cleanWord).filter(Boolean)
      for (let i = 0; i < words.length; i += BATCH) yield words.slice(i, i + BATCH)
    }
    const last = cleanWord(rest)
    if (last) yield [last]
  } finally {
    stream.destroy()
  }
}

async function* flatten(batches: AsyncIterable<string[]>): AsyncGenerator<string> {
  for await (const b of batches) yield* b
}

export async function openWordlist(spec: WordlistSpec): Promise<WordSource> {
  if (Array.isArray(spec)) {
    // Already in memory (≤ 100 000 entries by schema): dedupe once so progress counts real work.
    const unique = [...new Set(spec.map(cleanWord).filter(Boolean))]
    async function* batches() {
      for (let i = 0; i < unique.length; i += BATCH) yield unique.slice(i, i + BATCH)
    }
    return { total: unique.length, batches, words: () => flatten(batches()) }
  }
  const file = shippedPath(spec)
  let total = countCache.get(file)
  if (total === undefined) {
    total = 0
    for await (const b of fileBatches(file)) total += b.length
    countCache.set(file, total)
  }
  return { total, batches: () => fileBatches(file), words: () => flatten(fileBatches(file)) }
}

/** A suffix as appended: '.php' and '~' are kept, 'php' becomes '.php'. */
export const normaliseExtension = (e: string) => (/^[A-Za-z0-9]/.test(e) ? `.${e}` : e)

// RFC 3986 pchar plus '/', and '%' so that words may carry their own escapes.
const SAFE = /[A-Za-z0-9\-._~!$&'()*+,;=:@/%]/
const ALL_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/
export function encodePath(p: string): string {
  if (ALL_SAFE.test(p)) return p
  let out = ''
  for (const ch of p) out += SAFE.test(ch) ? ch : encodeURIComponent(ch)
  return out
}

function expand(word: string, exts: string[], methods: string[], out: Candidate[]): void {
  // A directory-style word ("admin/") gets no suffixes.
  const paths = word.endsWith('/') ? [word] : [word, ...exts.map((e) => word + e)]
  const weight = 1 / (paths.length * methods.length)
  for (const p of paths) {
    const path = encodePath(p)
    for (const method of methods) out.push({ word, path, method, weight })
  }
}

/** Candidates a batch of words at a time; only one batch (× suffixes × methods) exists at once. */
export async function* candidateBatches(source: WordSource, extensions: string[], methods: string[]): AsyncGenerator<Candidate[]> {
  const exts = extensions.map(normaliseExtension)
  for await (const words of source.batches()) {
    const out: Candidate[] = []
    for (const w of words) expand(w, exts, methods, out)
    yield out
  }
}

export async function* candidates(source: WordSource, extensions: string[], methods: string[]): AsyncGenerator<Candidate> {
  for await (const b of candidateBatches(source, extensions, methods)) yield* b
}

/**
 * Hands candidates to concurrent workers: synchronously from the current batch, with one shared
 * refill when it runs out. Cheaper than an async-generator hop per candidate at thousands per second.
 */
export class CandidateQueue {
  private buf: Candidate[] = []
  private pos = 0
  private ended = false
  private refill: Promise<void> | null = null
  private readonly it: AsyncIterator<Candidate[]>

  constructor(source: WordSource, extensions: string[], methods: string[]) {
    this.it = candidateBatches(source, extensions, methods)[Symbol.asyncIterator]()
  }

  /** The next candidate, or null at the end. */
  async next(): Promise<Candidate | null> {
    for (;;) {
      if (this.pos < this.buf.length) return this.buf[this.pos++]!
      if (this.ended) return null
      this.refill ??= this.it.next().then(
        (r) => {
          if (r.done) this.ended = true
          else {
            this.buf = r.value
            this.pos = 0
          }
          this.refill = null
        },
        (e) => {
          this.ended = true
          this.refill = null
          throw e
        },
      )
      await this.refill
    }
  }

  async close(): Promise<void> {
    this.ended = true
    await this.it.return?.()
  }
}
