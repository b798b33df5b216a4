// The fuzzing loop: `concurrency` readers pull candidates from a stream (nothing is built up front),
// every request takes a slot of the scan's budget for its host and passes the host's rate limiter,
// and answers that match the soft-404 signature of their path class are dropped. Network I/O only;
// classification is elsewhere.
import { HTTP_TIMEOUT_MS } from '../../../toolkit/timeouts.js'
import { setMaxListeners } from 'node:events'
import type { Egress } from '../../../toolkit/egress.js'
import type { ScanBudget } from '../../../toolkit/budget.js'
import { walkRedirects } from '../../lib/http/redirects.js'
import { CandidateQueue, type WordSource } from './wordlist.js'
import { HostLimiters } from '../../lib/http/rate-limit.js'
import { Soft404, type Observation, type Signature } from '../../lib/http/soft404.js'

export interface Discovery {
  url: string
  /** Path relative to the base URL, as sent. */
  path: string
  word: string
  method: string
  status: number
  length: number
  contentType: string
  /** Where the answer redirects (absolute), or null. With follow_redirects: the first hop's target. */
  redirect: string | null
}

export interface FuzzOptions {
  http: Egress['http']
  /** Directory URL ending in '/'. */
  base: URL
  source: WordSource
  extensions: string[]
  methods: string[]
  statusCodes: ReadonlySet<number>
  /** Requests in flight at most (the workers reading the word stream). */
  concurrency: number
  /** The scan's concurrency budget: every request takes a slot for its host. */
  budget: ScanBudget
  rateLimit: number
  followRedirects: boolean
  signal: AbortSignal
  timeoutMs?: number
  onDiscovery(d: Discovery): void | Promise<void>
  onProgress(wordsDone: number, total: number): void
  onCalibrated?(key: string, sig: Signature): void
  log(line: string): void
}

export interface FuzzStats {
  requests: number
  errors: number
  /** Answers with a "found" status that matched the soft-404 signature. */
  filtered: number
  discoveries: number
  aborted: boolean
  /** Set when the target stopped answering and the run gave up. */
  gaveUp?: string
  elapsedMs: number
}

const MAX_BODY = 128 * 1024
const GIVE_UP_AFTER = 25 // consecutive failed requests

export function createObserver(
  o: Pick<FuzzOptions, 'http' | 'budget' | 'concurrency' | 'rateLimit' | 'followRedirects' | 'signal' | 'timeoutMs'>,
) {
  // Every request in flight listens on the signal (undici, timeouts): allow that many listeners.
  setMaxListeners(o.concurrency * 4 + 32, o.signal)
  const limiters = new HostLimiters(o.rateLimit)
  let requests = 0

  /** One request inside the scan's budget for the host, paced by the host's rate limiter. */
  function once(method: string, href: string, hostname: string): Promise<Observation> {
    return o.budget.run(hostname, async () => {
      o.signal.throwIfAborted()
      const pacing = limiters.take(hostname, o.signal)
      if (pacing) await pacing
      requests++
      const res = await o.http(href, {
        method,
        signal: o.signal,
        timeoutMs: o.timeoutMs ?? HTTP_TIMEOUT_MS,
        maxBodyBytes: MAX_BODY,
        headers: { accept: '*/*' },
      })
      const declared = Number(res.headers['content-length'])
      const length = (res.truncated || method === 'HEAD') && Number.isFinite(declared) ? declared : res.body.length
      let location: string | null = null
      if (res.status >= 300 && res.status < 400 && res.headers.location) {
        try {
          location = new URL(res.headers.location, href).href
        } catch {
          location = res.headers.location
        }
      }
      return { status: res.status, length, contentType: res.headers['content-type'] ?? '', location, body: res.body }
    })
  }

  /**
   * One candidate's answer; with followRedirects, the last answer on the same host, keeping the first
   * Location. `href` is absolute and already encoded; `hostname` is its host (no URL parsing per request).
   */
  async function observe(method: string, href: string, hostname: string): Promise<Observation> {
    const first = await once(method, href, hostname)
    if (!o.followRedirects) return first
    let m = method
    const walk = await walkRedirects(
      { url: href, answer: first },
      {
        location: (a) => a.location,
        status: (a) => a.status,
        // A candidate's redirects are followed on its own host only.
        allow: (next) => next.hostname === hostname,
        fetch: (url, via) => {
          if (via !== 307 && via !== 308 && m !== 'HEAD') m = 'GET'
          return once(m, url, hostname)
        },
      },
    )
    if (walk.end === 'failed') throw walk.error
    return { ...walk.answer, location: first.location }
  }

  return { observe, requests: () => requests }
}

/** A fuzzer whose soft-404 signatures can be learned (`soft404.signatureFor`) before `run`. */
export function createFuzzer(o: FuzzOptions): { soft404: Soft404; run(): Promise<FuzzStats> } {
  const observer = createObserver(o)
  const baseHref = o.base.href
  const soft404 = new Soft404((method, path) => observer.observe(method, baseHref + path, o.base.hostname), o.onCalibrated, o.base.pathname)
  return { soft404, run: () => runFuzz(o, observer, soft404) }
}

export const fuzz = (o: FuzzOptions): Promise<FuzzStats> => createFuzzer(o).run()

async function runFuzz(o: FuzzOptions, observer: ReturnType<typeof createObserver>, soft404: Soft404): Promise<FuzzStats> {
  const started = performance.now()
  const baseHref = o.base.href
  const hostname = o.base.hostname
  const stream = new CandidateQueue(o.source, o.extensions, o.methods)
  const stats: FuzzStats = { requests: 0, errors: 0, filtered: 0, discoveries: 0, aborted: false, elapsedMs: 0 }
  let consecutiveErrors = 0
  let stop = false
  let wordsDone = 0
  let lastProgress = 0

  const progress = (force = false) => {
    const now = performance.now()
    if (!force && now - lastProgress < 200) return
    lastProgress = now
    o.onProgress(Math.min(o.source.total, Math.round(wordsDone)), o.source.total)
  }

  async function worker(): Promise<void> {
    while (!stop && !o.signal.aborted) {
      const c = await stream.next()
      if (!c) return
      const href = baseHref + c.path
      try {
        const obs = await observer.observe(c.method, href, hostname)
        consecutiveErrors = 0
        if (o.statusCodes.has(obs.status)) {
          if (await soft404.isSoft404(c.method, c.path, obs)) stats.filtered++
          else {
            stats.discoveries++
            await o.onDiscovery({
              url: href,
              path: c.path,
              word: c.word,
              method: c.method,
              status: obs.status,
              length: obs.length,
              contentType: obs.contentType,
              redirect: obs.location,
            })
          }
        }
      } catch (e) {
        if (o.signal.aborted) return
        stats.errors++
        if (stats.errors <= 20) o.log(`${c.method} ${href}: ${(e as Error).message}`)
        if (++consecutiveErrors >= GIVE_UP_AFTER && !stop) {
          stop = true
          stats.gaveUp = `${GIVE_UP_AFTER} requests in a row failed (last: ${(e as Error).message})`
        }
      }
      wordsDone += c.weight
      progress()
    }
  }

  try {
    await Promise.all(Array.from({ length: o.concurrency }, worker))
  } finally {
    await stream.close()
    stats.requests = observer.requests()
    stats.aborted = o.signal.aborted
    stats.elapsedMs = performance.now() - started
    if (!stats.aborted) progress(true)
  }
  return stats
}
