// A matched check template as every tool reports it: its catalogue entry (from the template's info
// block) and the hit with the match as evidence. Pure.
import type { Check, Risk } from '../../../toolkit/check.js'
import { tableEvidence } from '../../../toolkit/evidence.js'
import type { Hit } from '../../../toolkit/hit.js'
import type { Template } from './model.js'
import type { TemplateMatch } from './http.js'

const RISK: Record<string, Risk> = { info: 'info', low: 'low', medium: 'medium', high: 'high', critical: 'critical', unknown: 'info' }
const MAX_CELL = 500

/** The catalogue entry of a template: what its finding means, from its info block. */
export function templateCheck(t: Template): Check {
  const i = t.info
  return {
    id: `template.${t.id}`,
    name: i.name,
    description: i.description || `The check template ${t.id} matched.`,
    impact: i.description || `The condition the template ${t.id} (${i.name}) looks for is present.`,
    risk: RISK[i.severity] ?? 'info',
    cwe: i.classification.cweId.filter((c): c is `CWE-${number}` => /^CWE-\d+$/.test(c)),
    owasp: {},
    recommendation: i.remediation || `Review what the check template ${t.id} (${i.name}) found and fix or accept it.`,
    references: i.reference.filter((r) => /^https?:\/\//i.test(r)),
    cve: i.classification.cveId.filter((c) => /^CVE-\d{4}-\d+$/.test(c)),
    tags: i.tags,
  }
}

const cut = (s: string) => (s.length > MAX_CELL ? s.slice(0, MAX_CELL) + '…' : s)

export function templateHit(t: Template, m: TemplateMatch): Hit {
  const rows: string[][] = [['request', cut(m.requestLine)]]
  if (m.matcherNames.length) rows.push(['matchers', cut(m.matcherNames.join(', '))])
  for (const h of m.hits.slice(0, 10)) rows.push(['matched', cut(h)])
  for (const x of m.extracted.slice(0, 10)) rows.push(['extracted', cut(x)])
  if (m.truncated) rows.push(['note', 'the response was longer than the 4 MiB read; only its first 4 MiB were matched'])
  const c = t.info.classification
  return {
    check: templateCheck(t),
    url: m.url,
    evidence: tableEvidence(['part', 'value'], rows),
    cvss: c.cvssScore !== null ? { score: c.cvssScore, vector: c.cvssMetrics } : null,
    epss: c.epssScore !== null && c.epssScore >= 0 && c.epssScore <= 1 ? c.epssScore : null,
    confirmed: false,
  }
}
