// Values a user gives for template variables are secrets (a password, a token): wherever a result
// would show them — request line, URL, matched text, extracted values, messages — they read `***`.
import type { TemplateMatch } from './http.js'

export type Mask = (text: string) => string

/** A function replacing every secret in a text (also percent-encoded, as it stands in a URL). */
export function secretMask(secrets: readonly string[]): Mask {
  const forms = [...new Set(secrets.flatMap((s) => [s, encodeURIComponent(s)]).filter((s) => s.length > 0))]
  // Longest first, so a secret that contains another is masked whole.
  forms.sort((a, b) => b.length - a.length)
  if (!forms.length) return (text) => text
  return (text) => forms.reduce((t, f) => t.split(f).join('***'), text)
}

export function maskMatch(m: TemplateMatch, mask: Mask): TemplateMatch {
  return {
    ...m,
    requestLine: mask(m.requestLine),
    url: mask(m.url),
    matcherNames: m.matcherNames.map(mask),
    hits: m.hits.map(mask),
    extracted: m.extracted.map(mask),
  }
}
