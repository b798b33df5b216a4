// The scan's redirect policy (api-v2.md POST /scans, redirect_level) as a pure decision, plus the
// registrable-domain rule used by `same_domain`.
import type { RedirectLevel } from '../../../toolkit/tool.js'
import { ipVersion, stripBrackets } from '../../../toolkit/ip.js'

// Second-level labels under which registrations happen one level deeper (example.co.uk). A small
// built-in list rather than the whole Public Suffix List: enough to not treat "co.uk" as a domain.
const SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'or', 'ne', 'go', 'mil', 'nom', 'gob', 'sch'])

/** example.co.uk for www.example.co.uk, example.com for a.b.example.com; the host itself for IPs. */
export function registrableDomain(host: string): string {
  const h = stripBrackets(host).toLowerCase().replace(/\.$/, '')
  if (ipVersion(h)) return h
  const labels = h.split('.')
  if (labels.length <= 2) return h
  const tld = labels[labels.length - 1]!
  const sld = labels[labels.length - 2]!
  const keep = tld.length === 2 && SECOND_LEVEL.has(sld) ? 3 : 2
  return labels.slice(-keep).join('.')
}

const hostOf = (u: URL) => stripBrackets(u.hostname).toLowerCase().replace(/\.$/, '')

/**
 * Whether a redirect from `from` to `to` may be followed under `level`. `none` and
 * `check_accessibility` follow nothing (the first passes the target as is, the second refuses
 * any redirect); scheme and port changes are allowed within a host (http → https is the usual one).
 */
export function redirectAllowed(level: RedirectLevel, from: URL, to: URL): boolean {
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return false
  switch (level) {
    case 'none':
    case 'check_accessibility':
      return false
    case 'same_host':
      return hostOf(from) === hostOf(to)
    case 'same_domain': {
      const a = hostOf(from)
      const b = hostOf(to)
      if (a === b) return true
      if (ipVersion(a) || ipVersion(b)) return false
      // The target's domain and its subdomains (www.example.com → example.com → shop.example.com).
      const d = registrableDomain(a)
      return b === d || b.endsWith(`.${d}`)
    }
    case 'allow_all':
      return true
  }
}
