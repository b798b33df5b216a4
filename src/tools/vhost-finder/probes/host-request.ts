// One request to the target's address with a chosen Host (and so SNI over HTTPS: the HTTP client
// takes the server name from the Host header).
import type { Fetcher } from '../../lib/http/fetch.js'
import type { RawAnswer } from '../detect/answer.js'
import { endpointUrl, type Endpoint } from './endpoints.js'
import { urlHost } from '../../lib/http/url.js'

/** Body bytes kept per answer: enough for a title and a fair hash. */
const MAX_BODY = 256 * 1024

export const hostHeader = (name: string, e: Endpoint) =>
  e.port === (e.scheme === 'https' ? 443 : 80) ? urlHost(name) : `${urlHost(name)}:${e.port}`

/** GET / as `name`; null when nothing answered. */
export async function requestAs(fetch: Fetcher, e: Endpoint, name: string): Promise<RawAnswer | null> {
  const r = await fetch(endpointUrl(e), { headers: { host: hostHeader(name, e) }, maxBodyBytes: MAX_BODY })
  if (!r) return null
  return { status: r.status, location: r.headers.location ?? null, body: r.text(), size: r.body.length }
}
