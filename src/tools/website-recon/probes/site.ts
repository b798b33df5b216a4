// The site's answers for fingerprinting: the start page (after the redirect policy) and its favicon.
import { HTTP_TIMEOUT_MS } from '../../../toolkit/timeouts.js'
import { createHash } from 'node:crypto'
import type { Egress, HttpResponse } from '../../../toolkit/egress.js'
import type { RedirectLevel, ScanTarget } from '../../../toolkit/tool.js'
import { resolveStartUrl } from '../../lib/http/start-url.js'
import { readPage, type PageFacts } from '../detect/page.js'
import { faviconHash } from '../../lib/hash/mmh3.js'
import type { Observation } from '../detect/match.js'

export interface SiteOptions {
  net: Egress
  target: Pick<ScanTarget, 'name' | 'type'>
  redirectLevel: RedirectLevel
  scanOriginalUrl: boolean
  signal: AbortSignal
  favicon: boolean
  log: (line: string) => void
}

function cookiesOf(r: HttpResponse): Array<[string, string]> {
  return r.setCookies.map((c) => {
    const pair = c.split(';')[0]!
    const i = pair.indexOf('=')
    return i < 0 ? [pair.trim(), ''] : [pair.slice(0, i).trim(), pair.slice(i + 1).trim()]
  })
}

export async function observeSite(o: SiteOptions): Promise<Observation> {
  const start = await resolveStartUrl({
    net: o.net,
    target: o.target,
    redirectLevel: o.redirectLevel,
    scanOriginalUrl: o.scanOriginalUrl,
    signal: o.signal,
    log: o.log,
  })
  const res = start.response ?? (await o.net.http(start.url, { signal: o.signal, timeoutMs: HTTP_TIMEOUT_MS, maxBodyBytes: 1024 * 1024 }))
  const html = /html|xml|^$/i.test(res.headers['content-type'] ?? '') ? res.text() : ''
  const page: PageFacts = readPage(html)
  let favicon: Observation['favicon'] = null
  if (o.favicon && !o.signal.aborted) {
    const url = new URL(page.icon ?? '/favicon.ico', start.url)
    // Only the site's own favicon: an icon on another host is not this site's fingerprint to fetch.
    if (url.host === new URL(start.url).host) {
      try {
        const r = await o.net.http(url.href, { signal: o.signal, timeoutMs: HTTP_TIMEOUT_MS, maxBodyBytes: 1024 * 1024 })
        if (r.status === 200 && r.body.length)
          favicon = { mmh3: faviconHash(r.body), sha256: createHash('sha256').update(r.body).digest('hex') }
      } catch (e) {
        o.log(`favicon ${url.href}: no answer (${(e as Error).message})`)
      }
    }
  }
  return { url: start.url, headers: res.headers, cookies: cookiesOf(res), html: html.slice(0, 512 * 1024), page, favicon }
}
