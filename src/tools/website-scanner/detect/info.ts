// Informational: security.txt presence, robots.txt disclosures.
import { tableEvidence, textEvidence } from '../../../toolkit/evidence.js'
import { robotsDisclosure, securityTxtMissing } from '../checks.js'
import type { Hit, PageObs } from './types.js'

/** security.txt answers at /.well-known/security.txt and /security.txt (null when unreachable). */
export function detectSecurityTxtMissing(answers: (PageObs | null)[], base: string): Hit[] {
  const ok = answers.some((a) => a && a.status === 200 && /^\s*Contact\s*:/im.test(a.body) && !/<html/i.test(a.body.slice(0, 500)))
  if (ok) return []
  return [
    {
      check: securityTxtMissing,
      evidence: textEvidence(
        answers
          .map((a) => (a ? `GET ${a.url} → ${a.status}` : ''))
          .filter(Boolean)
          .join('\n') || `no answer for ${base}.well-known/security.txt`,
      ),
    },
  ]
}

export function robotsEntries(body: string): { directive: string; path: string }[] {
  const out: { directive: string; path: string }[] = []
  for (const line of body.split(/\r?\n/)) {
    const m = /^\s*(Disallow|Allow|Sitemap)\s*:\s*(\S+)/i.exec(line.replace(/#.*/, ''))
    if (m && !(m[1]!.toLowerCase() !== 'sitemap' && m[2] === '/')) out.push({ directive: m[1]!, path: m[2]! })
    if (out.length >= 200) break
  }
  return out
}

export function detectRobots(robots: PageObs | null): Hit[] {
  if (robots?.status !== 200 || /<html/i.test(robots.body.slice(0, 500))) return []
  const hidden = robotsEntries(robots.body).filter((e) => e.directive.toLowerCase() === 'disallow')
  if (!hidden.length) return []
  return [
    {
      check: robotsDisclosure,
      url: robots.url,
      detail: `robots.txt disallows ${hidden.length} path(s): ${hidden
        .slice(0, 10)
        .map((e) => e.path)
        .join(', ')}${hidden.length > 10 ? ', …' : ''}.`,
      evidence: tableEvidence(
        ['Directive', 'Path'],
        hidden.slice(0, 50).map((e) => [e.directive, e.path]),
      ),
    },
  ]
}
