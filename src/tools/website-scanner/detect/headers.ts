// Security headers of the scanned page: pure functions of one response.
import { textEvidence } from '../../../toolkit/evidence.js'
import {
  clickjacking,
  cspMissing,
  cspUnsafe,
  hstsMissing,
  hstsWeak,
  permissionsPolicyMissing,
  referrerPolicyMissing,
  xctoMissing,
} from '../checks.js'
import { headerLines, isHtml, type Hit, type PageObs } from './types.js'

const HSTS_MIN_AGE = 15552000 // 180 days

/** CSP directives by name (lower-case), from the Content-Security-Policy header(s). */
export function parseCsp(value: string | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>()
  if (!value) return out
  for (const part of value.split(/[;,]/)) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name && !out.has(name.toLowerCase())) out.set(name.toLowerCase(), sources)
  }
  return out
}

export function detectCspMissing(p: PageObs): Hit[] {
  if (!isHtml(p) || p.headers['content-security-policy']) return []
  const ro = p.headers['content-security-policy-report-only']
  return [
    {
      check: cspMissing,
      detail: ro ? 'Only a report-only policy is sent; it enforces nothing.' : undefined,
      evidence: textEvidence(
        `GET ${p.url} → ${p.status}\n${headerLines(p, ['content-security-policy', 'content-security-policy-report-only'])}`,
      ),
    },
  ]
}

export function detectCspUnsafe(p: PageObs): Hit[] {
  const csp = p.headers['content-security-policy']
  if (!csp) return []
  const d = parseCsp(csp)
  const scripts = d.get('script-src') ?? d.get('default-src')
  if (!scripts)
    return [
      {
        check: cspUnsafe,
        detail: 'The policy restricts neither script-src nor default-src, so scripts load from anywhere.',
        evidence: textEvidence(`content-security-policy: ${csp}`),
      },
    ]
  const hasNonceOrHash = scripts.some((s) => /^'(nonce-|sha(256|384|512)-)/i.test(s))
  const bad = scripts.filter((s) => {
    const v = s.toLowerCase()
    if (v === "'unsafe-inline'") return !hasNonceOrHash // ignored by browsers when a nonce/hash is present
    return v === "'unsafe-eval'" || v === '*' || v === 'http:' || v === 'https:' || v === 'data:'
  })
  if (!bad.length) return []
  return [
    { check: cspUnsafe, detail: `Unsafe script sources: ${bad.join(' ')}.`, evidence: textEvidence(`content-security-policy: ${csp}`) },
  ]
}

export function detectHstsMissing(p: PageObs): Hit[] {
  if (!p.url.startsWith('https:') || p.headers['strict-transport-security']) return []
  return [{ check: hstsMissing, evidence: textEvidence(`GET ${p.url} → ${p.status}\n${headerLines(p, ['strict-transport-security'])}`) }]
}

export function detectHstsWeak(p: PageObs): Hit[] {
  const v = p.headers['strict-transport-security']
  if (!p.url.startsWith('https:') || !v) return []
  const m = /max-age\s*=\s*"?(\d+)"?/i.exec(v)
  const age = m ? Number(m[1]) : NaN
  if (Number.isFinite(age) && age >= HSTS_MIN_AGE) return []
  return [
    {
      check: hstsWeak,
      detail: Number.isFinite(age) ? `max-age is ${age} s (${(age / 86400).toFixed(1)} days).` : 'The header has no valid max-age.',
      evidence: textEvidence(`strict-transport-security: ${v}`),
    },
  ]
}

export function detectClickjacking(p: PageObs): Hit[] {
  if (!isHtml(p)) return []
  const xfo = (p.headers['x-frame-options'] ?? '').toLowerCase()
  const fa = parseCsp(p.headers['content-security-policy']).get('frame-ancestors')
  if (/deny|sameorigin/.test(xfo)) return []
  if (fa && !fa.includes('*')) return []
  return [
    {
      check: clickjacking,
      evidence: textEvidence(`GET ${p.url} → ${p.status}\n${headerLines(p, ['x-frame-options', 'content-security-policy'])}`),
    },
  ]
}

export function detectXcto(p: PageObs): Hit[] {
  if ((p.headers['x-content-type-options'] ?? '').toLowerCase().includes('nosniff')) return []
  return [{ check: xctoMissing, evidence: textEvidence(`GET ${p.url} → ${p.status}\n${headerLines(p, ['x-content-type-options'])}`) }]
}

const UNSAFE_REFERRER = new Set(['unsafe-url', 'no-referrer-when-downgrade'])

export function detectReferrerPolicy(p: PageObs): Hit[] {
  const v = p.headers['referrer-policy']
  // The last recognised token wins in browsers.
  const last = v
    ?.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
    .pop()
  if (last && !UNSAFE_REFERRER.has(last)) return []
  return [
    {
      check: referrerPolicyMissing,
      detail: last ? `The policy "${last}" sends full URLs to other sites.` : undefined,
      evidence: textEvidence(`GET ${p.url} → ${p.status}\n${headerLines(p, ['referrer-policy'])}`),
    },
  ]
}

export function detectPermissionsPolicy(p: PageObs): Hit[] {
  if (!isHtml(p) || p.headers['permissions-policy'] || p.headers['feature-policy']) return []
  return [
    { check: permissionsPolicyMissing, evidence: textEvidence(`GET ${p.url} → ${p.status}\n${headerLines(p, ['permissions-policy'])}`) },
  ]
}
