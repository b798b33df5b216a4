// URL helpers shared by the web tools: target → base URLs, origin scope, stable URL identity.
import type { ScanTarget } from '../../../toolkit/tool.js'
import { ipVersion, stripBrackets } from '../../../toolkit/ip.js'

/** Host as it goes in a URL: IPv6 literals bracketed. */
export const urlHost = (host: string) => (ipVersion(host) === 6 ? `[${stripBrackets(host)}]` : host)

/**
 * Base URLs to try, in order. A URL target is used as given; a hostname or IP is tried over https
 * first, then http (the first that answers wins).
 */
export function candidateBaseUrls(target: Pick<ScanTarget, 'name' | 'type'>): string[] {
  const name = target.name.trim()
  if (target.type === 'url' || /^https?:\/\//i.test(name)) return [new URL(name).href]
  const host = urlHost(stripBrackets(name))
  return [`https://${host}/`, `http://${host}/`]
}

/** Default port of a URL's scheme when it has none. */
export const portOf = (u: URL) => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80)

export const serviceOf = (u: URL): 'http' | 'https' => (u.protocol === 'https:' ? 'https' : 'http')

export const sameOrigin = (a: URL, b: URL) =>
  a.protocol === b.protocol && a.hostname.toLowerCase() === b.hostname.toLowerCase() && portOf(a) === portOf(b)

/** Resolves an href found in a page; null for non-http(s) schemes and unparsable values. */
export function resolveLink(href: string, base: URL): URL | null {
  try {
    const u = new URL(href.trim(), base)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null
    u.hash = ''
    return u
  } catch {
    return null
  }
}

/** A URL without query and fragment: the identity of an endpoint in findings (never volatile). */
export function endpointUrl(u: URL): string {
  const c = new URL(u.href)
  c.search = ''
  c.hash = ''
  return c.href
}

/** Path of a URL joined to a base's origin. */
export const at = (base: URL, path: string) => new URL(path, base).href
