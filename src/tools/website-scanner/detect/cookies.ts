// Cookie attributes of Set-Cookie headers: pure functions of one response.
import { tableEvidence } from '../../../toolkit/evidence.js'
import { cookieHttpOnly, cookieSameSite, cookieSecure } from '../checks.js'
import type { Hit, PageObs } from './types.js'

export interface CookieAttrs {
  name: string
  secure: boolean
  httpOnly: boolean
  sameSite?: string
  raw: string
}

export function parseSetCookie(raw: string): CookieAttrs {
  const [pair = '', ...attrs] = raw.split(';')
  const name = pair.split('=')[0]!.trim()
  const a = attrs.map((s) => s.trim().toLowerCase())
  const ss = a.find((x) => x.startsWith('samesite'))
  return { name, secure: a.includes('secure'), httpOnly: a.includes('httponly'), sameSite: ss?.split('=')[1]?.trim(), raw }
}

/** Cookie values are secrets and change per request: evidence shows the attributes only. */
const redacted = (c: CookieAttrs) => c.raw.replace(/^([^=]*=)[^;]*/, '$1…')

function each(p: PageObs, bad: (c: CookieAttrs) => string | null, check: Hit['check']): Hit[] {
  const seen = new Set<string>()
  const hits: Hit[] = []
  for (const c of p.setCookies.map(parseSetCookie)) {
    if (!c.name || seen.has(c.name)) continue
    seen.add(c.name)
    const why = bad(c)
    if (why === null) continue
    hits.push({
      check,
      location: `cookie:${c.name}`,
      detail: `Cookie "${c.name}": ${why}`,
      evidence: tableEvidence(['Cookie', 'Set-Cookie (value hidden)'], [[c.name, redacted(c)]]),
    })
  }
  return hits
}

export const detectCookieSecure = (p: PageObs): Hit[] =>
  // Over plain HTTP a Secure cookie would not even be stored; the transport check covers that case.
  p.url.startsWith('https:') ? each(p, (c) => (c.secure ? null : 'no Secure attribute.'), cookieSecure) : []

export const detectCookieHttpOnly = (p: PageObs): Hit[] => each(p, (c) => (c.httpOnly ? null : 'no HttpOnly attribute.'), cookieHttpOnly)

export const detectCookieSameSite = (p: PageObs): Hit[] =>
  each(
    p,
    (c) => {
      if (!c.sameSite) return 'no SameSite attribute.'
      if (c.sameSite === 'none' && !c.secure) return 'SameSite=None without Secure (rejected or downgraded by browsers).'
      return null
    },
    cookieSameSite,
  )
