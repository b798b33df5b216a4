// Plain HTTP that serves content instead of redirecting to HTTPS, and credentials asked for over it.
import { textEvidence } from '../../../toolkit/evidence.js'
import { basicAuthOverHttp, httpNoRedirect, passwordOverHttp } from '../checks.js'
import { forms } from './html.js'
import { resolveLink } from '../../lib/http/url.js'
import type { Hit, PageObs } from './types.js'

/** The answer of the site's plain-HTTP URL (absent when nothing listens there). */
export interface HttpAnswer {
  url: string
  status: number
  location?: string
  /** Whether an HTTPS service was seen for the same host (adds to the detail only). */
  httpsSeen?: boolean
}

export function detectHttpNotRedirected(a: HttpAnswer | null): Hit[] {
  if (!a?.url.startsWith('http:')) return []
  if (a.status >= 300 && a.status < 400 && a.location) {
    try {
      if (new URL(a.location, a.url).protocol === 'https:') return []
    } catch {
      /* unparsable Location: treated as not redirecting */
    }
  }
  return [
    {
      check: httpNoRedirect,
      url: a.url,
      port: new URL(a.url).port ? Number(new URL(a.url).port) : 80,
      service: 'http',
      detail: a.httpsSeen
        ? 'HTTPS is available on this host, but plain HTTP is not redirected to it.'
        : 'The site is served over plain HTTP and does not redirect to HTTPS.',
      evidence: textEvidence(`GET ${a.url} → ${a.status}${a.location ? `\nlocation: ${a.location}` : ''}`),
    },
  ]
}

/** 401 answers over plain HTTP whose challenge is Basic (the password then travels base64-encoded). One hit per URL. */
export function detectBasicAuthOverHttp(pages: PageObs[]): Hit[] {
  const seen = new Set<string>()
  return pages.flatMap((p) => {
    const challenge = p.headers['www-authenticate'] ?? ''
    if (p.status !== 401 || !p.url.startsWith('http:') || !/(^|,)\s*Basic\b/i.test(challenge) || seen.has(p.url)) return []
    seen.add(p.url)
    return [
      {
        check: basicAuthOverHttp,
        url: p.url,
        confirmed: true,
        detail: `${new URL(p.url).pathname} asks for a user name and password with HTTP Basic over plain HTTP.`,
        evidence: textEvidence(`GET ${p.url} → 401\nwww-authenticate: ${challenge}`),
      },
    ]
  })
}

/** A page with a password field, as the crawl or the light scan saw it (bodies are not kept). */
export interface PasswordForm {
  /** The page holding the form. */
  page: string
  /** Where the form submits (absolute). */
  action: string
}

/** The password forms of one HTML page. */
export function passwordForms(p: PageObs): PasswordForm[] {
  const base = new URL(p.url)
  return forms(p.body)
    .filter((f) => f.fields.some((x) => x.type === 'password'))
    .map((f) => ({ page: p.url, action: (resolveLink(f.action || p.url, base) ?? base).href }))
}

/** Password forms on an http:// page, or submitting to an http:// address. One hit per page. */
export function detectPasswordOverHttp(found: PasswordForm[]): Hit[] {
  const seen = new Set<string>()
  return found.flatMap((f) => {
    const servedPlain = f.page.startsWith('http:')
    const postsPlain = f.action.startsWith('http:')
    if ((!servedPlain && !postsPlain) || seen.has(f.page)) return []
    seen.add(f.page)
    const detail = servedPlain
      ? `The page ${f.page} with a password field is served over plain HTTP.`
      : `The password form of ${f.page} submits to ${f.action} over plain HTTP.`
    return [
      {
        check: passwordOverHttp,
        url: f.page,
        confirmed: true,
        detail,
        evidence: textEvidence(`page: ${f.page}\nform action: ${f.action}`),
      },
    ]
  })
}
