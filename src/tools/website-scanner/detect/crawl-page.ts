// What one crawled page yields, pure: the injection points it shows (its own query, its forms), the
// folders of its path, its password forms, and the URLs it leads to (a redirect's Location, links,
// GET forms' result pages). The crawler (probes/crawl.ts) decides which of those it visits.
import type { HttpResponse } from '../../../toolkit/egress.js'
import { endpointUrl, resolveLink, sameOrigin } from '../../lib/http/url.js'
import { LIMITS } from '../params.js'
import { forms, links } from './html.js'
import { passwordForms, type PasswordForm } from './transport.js'

/** A place where input reaches the application: an endpoint and the parameters it takes. */
export interface InjectionPoint {
  method: 'GET' | 'POST'
  /** Endpoint URL without query. */
  url: string
  /** Every parameter with its original value (others are sent unchanged while one is tested). */
  params: Record<string, string>
  /** Where it was found (page URL). */
  source: string
}

export interface CrawledPage {
  points: InjectionPoint[]
  dirs: string[]
  passwordForms: PasswordForm[]
  next: URL[]
}

/** Links and forms whose use changes state in ways a scan should not (sessions, deletions). */
export const SKIP_ACTION = /\b(log-?out|sign-?out|log-?off|sign-?off|delete|remove|destroy|unsubscribe)\b/i

/** `authenticated`: forms with a password field (login, password change) are never injection points. */
export function readCrawledPage(
  url: URL,
  r: Pick<HttpResponse, 'status' | 'headers' | 'text'>,
  start: URL,
  authenticated = false,
): CrawledPage {
  const out: CrawledPage = { points: [], dirs: [], passwordForms: [], next: [] }
  if (url.search) out.points.push({ method: 'GET', url: endpointUrl(url), params: Object.fromEntries(url.searchParams), source: url.href })
  const parts = url.pathname.split('/').filter(Boolean)
  for (let n = 1; n < parts.length; n++) out.dirs.push(`/${parts.slice(0, n).join('/')}/`)
  if (r.status >= 300 && r.status < 400 && r.headers.location) {
    const next = resolveLink(r.headers.location, url)
    if (next) out.next.push(next)
    return out
  }
  if (!/html/i.test(r.headers['content-type'] ?? '')) return out
  const body = r.text()
  out.passwordForms.push(...passwordForms({ url: url.href, status: r.status, headers: r.headers, setCookies: [], body }))
  for (const href of links(body)) {
    const u = resolveLink(href, url)
    if (u) out.next.push(u)
  }
  for (const f of forms(body)) {
    const action = resolveLink(f.action || url.href, url)
    if (!action || !sameOrigin(action, start) || SKIP_ACTION.test(action.pathname)) continue
    if (authenticated && f.fields.some((x) => x.type === 'password')) continue
    const params: Record<string, string> = f.method === 'GET' ? Object.fromEntries(action.searchParams) : {}
    for (const fld of f.fields.slice(0, LIMITS.maxParamsPerPoint)) params[fld.name] = fld.value || defaultValue(fld.name, fld.type)
    out.points.push({ method: f.method, url: endpointUrl(action), params, source: url.href })
    if (f.method === 'GET') {
      // A GET form's result page is a page like any other (search results, filters).
      const target = new URL(endpointUrl(action))
      for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v)
      out.next.push(target)
    }
  }
  return out
}

/** A plausible value for an empty form field, so the application takes its normal path. */
function defaultValue(name: string, type: string): string {
  if (type === 'email' || /mail/i.test(name)) return 'ward@example.com'
  if (type === 'number' || /(^|_)(id|num|count|page)$/i.test(name)) return '1'
  if (/url|redirect|next|return/i.test(name)) return '/'
  return 'ward'
}
