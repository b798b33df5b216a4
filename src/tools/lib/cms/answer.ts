// One GET (or POST) of a CMS scanner as a typed answer: what detectors read, nothing more.
import type { Fetcher } from '../http/fetch.js'

export interface Answer {
  url: string
  status: number
  location: string | null
  contentType: string
  body: string
}

/** Body kept per answer: enough for pages, readmes and logs' first lines. */
const MAX_BODY = 512 * 1024

/** The answer of `url`; null when nothing answered. */
export async function answerOf(
  fetch: Fetcher,
  url: string,
  req: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer | null> {
  const r = await fetch(url, { ...req, maxBodyBytes: MAX_BODY })
  if (!r) return null
  return { url, status: r.status, location: r.headers.location ?? null, contentType: r.headers['content-type'] ?? '', body: r.text() }
}
