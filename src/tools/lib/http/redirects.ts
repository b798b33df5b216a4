// The one redirect walker of the web tools: follows Location from a first answer while the caller's
// rule allows each next URL, never requests a URL twice (a loop ends the walk) and stops after
// MAX_REDIRECT_HOPS. Which redirects a scan may follow is the caller's rule (the scan's redirect
// policy, or "the same host" for a session or a candidate path); how many and the loop check are not.

/** Redirects followed at most from one first answer. */
export const MAX_REDIRECT_HOPS = 10

export const isRedirectStatus = (status: number) => status >= 300 && status < 400

export interface RedirectHop {
  from: string
  to: string
  status: number
  /** False for the hop the walk stopped at (refused by the rule, or over the hop limit). */
  followed: boolean
}

/**
 * Why the walk ended: an answer that does not redirect, a redirect the rule refused, a URL seen
 * before, the hop limit, a Location that is not a URL, or a request that failed.
 */
export type WalkEnd = 'answer' | 'refused' | 'loop' | 'limit' | 'unparsable' | 'failed'

export interface RedirectWalk<R> {
  /** The last URL answered. */
  url: string
  /** Its answer. */
  answer: R
  hops: RedirectHop[]
  end: WalkEnd
  /** The Location the walk stopped at (refused, loop, limit, unparsable). */
  stoppedAt?: string
  /** The failed request's error (end 'failed'). */
  error?: unknown
}

export interface WalkOptions<R> {
  /** The answer's Location as sent (undefined or null: no redirect). */
  location(answer: R): string | null | undefined
  status(answer: R): number
  /** Whether the redirect from `from` to `next` is followed. */
  allow(next: URL, from: URL): boolean
  /** Requests a redirect's target; `via` is the status of the redirect that led there. */
  fetch(url: string, via: number): Promise<R>
  /** Lower hop limit for this walk (0: record the first redirect, follow none). */
  maxHops?: number
}

/** Walks the redirects from `start` (the first URL and its answer). Request errors end the walk ('failed'). */
export async function walkRedirects<R>(start: { url: string; answer: R }, o: WalkOptions<R>): Promise<RedirectWalk<R>> {
  const maxHops = Math.min(o.maxHops ?? MAX_REDIRECT_HOPS, MAX_REDIRECT_HOPS)
  const hops: RedirectHop[] = []
  const seen = new Set([start.url])
  let url = start.url
  let answer = start.answer
  for (;;) {
    const status = o.status(answer)
    const location = isRedirectStatus(status) ? o.location(answer) : null
    if (!location) return { url, answer, hops, end: 'answer' }
    let next: URL
    try {
      next = new URL(location, url)
    } catch {
      return { url, answer, hops, end: 'unparsable', stoppedAt: location }
    }
    next.hash = ''
    const stop = (end: WalkEnd): RedirectWalk<R> => {
      if (end !== 'loop') hops.push({ from: url, to: next.href, status, followed: false })
      return { url, answer, hops, end, stoppedAt: next.href }
    }
    // Only http(s) is ever followed, whatever the caller's rule.
    if (!/^https?:$/.test(next.protocol) || !o.allow(next, new URL(url))) return stop('refused')
    if (seen.has(next.href)) return stop('loop')
    if (hops.length >= maxHops) return stop('limit')
    hops.push({ from: url, to: next.href, status, followed: true })
    seen.add(next.href)
    try {
      answer = await o.fetch(next.href, status)
    } catch (error) {
      return { url, answer, hops, end: 'failed', stoppedAt: next.href, error }
    }
    url = next.href
  }
}
