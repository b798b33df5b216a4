// Plain HTTP that serves content instead of redirecting to HTTPS.
import { textEvidence } from '../../../toolkit/evidence.js'
import { httpNoRedirect } from '../checks.js'
import type { Hit } from './types.js'

/** The answer of the site's plain-HTTP URL (absent when nothing listens there). */
export interface HttpAnswer {
  url: string
  status: number
  location?: string
  /** Whether an HTTPS service was seen for the same host (adds to the detail only). */
  httpsSeen?: boolean
}

export function detectHttpNotRedirected(a: HttpAnswer | null): Hit[] {
  if (!a || !a.url.startsWith('http:')) return []
  if (a.status >= 300 && a.status < 400 && a.location) {
    try {
      if (new URL(a.location, a.url).protocol === 'https:') return []
    } catch {
      /* unparsable Location: treated as not redirecting */
    }
  }
  return [{
    check: httpNoRedirect,
    url: a.url,
    port: new URL(a.url).port ? Number(new URL(a.url).port) : 80,
    service: 'http',
    detail: a.httpsSeen ? 'HTTPS is available on this host, but plain HTTP is not redirected to it.' : 'The site is served over plain HTTP and does not redirect to HTTPS.',
    evidence: textEvidence(`GET ${a.url} → ${a.status}${a.location ? `\nlocation: ${a.location}` : ''}`),
  }]
}
