// Which technologies a site shows, from its answer (headers, cookies, page facts, favicon hash) and the
// catalogue. Confidence adds up per technology (capped at 100); implied technologies follow. Pure.
import type { Pattern, Technology } from '../data/catalogue.js'
import type { PageFacts } from './page.js'

export interface Observation {
  url: string
  /** Lower-case names. */
  headers: Record<string, string>
  cookies: Array<[name: string, value: string]>
  html: string
  page: PageFacts
  /** Shodan's mmh3 of the favicon and its sha256 hex, when one was fetched. */
  favicon: { mmh3: number; sha256: string } | null
}

export interface Detected {
  name: string
  version: string | null
  categories: string[]
  confidence: number
  evidence: string
}

const clip = (s: string, n = 120) => (s.length > n ? `${s.slice(0, n)}…` : s)

function versionOf(p: Pattern, m: RegExpExecArray): string | null {
  if (!p.version) return null
  const first = m.slice(1).find((g) => g)
  const v = p.version.replace(/\\(\d)/g, (_, n: string) => m[Number(n)] ?? first ?? '').trim()
  return /^\d[\w.-]*$/.test(v) ? v : null
}

const cookieMatches = (key: string, name: string) => name === key || (/[_-]$/.test(key) && name.startsWith(key))

export function detectTechnologies(o: Observation, catalogue: readonly Technology[]): Detected[] {
  const found = new Map<
    string,
    { tech: Technology | null; version: string | null; versionConfidence: number; confidence: number; evidence: string[] }
  >()
  const hit = (t: Technology, p: Pattern, s: string, what: string) => {
    const m = p.re.exec(s)
    if (!m) return
    const f = found.get(t.name) ?? { tech: t, version: null, versionConfidence: 0, confidence: 0, evidence: [] }
    // The version of the surest pattern wins (a generator tag over an asset's ?ver=).
    const v = versionOf(p, m)
    if (v && p.confidence > f.versionConfidence) {
      f.version = v
      f.versionConfidence = p.confidence
    }
    f.confidence = Math.min(100, f.confidence + p.confidence)
    if (f.evidence.length < 3) f.evidence.push(what)
    found.set(t.name, f)
  }
  const cookies = o.cookies.map(([n, v]) => [n.toLowerCase(), v] as const)
  for (const t of catalogue) {
    for (const [name, p] of t.headers)
      if (o.headers[name] !== undefined) hit(t, p, o.headers[name]!, `header ${name}: ${clip(o.headers[name]!)}`)
    for (const [key, p] of t.cookies) for (const [name, value] of cookies) if (cookieMatches(key, name)) hit(t, p, value, `cookie ${name}`)
    for (const [key, p] of t.meta)
      for (const [name, content] of o.page.meta) if (name === key) hit(t, p, content, `meta ${name}: ${clip(content)}`)
    for (const p of t.scripts) for (const src of o.page.scripts) hit(t, p, src, `script ${clip(src)}`)
    for (const p of t.scriptText) for (const text of o.page.scriptText) hit(t, p, text, 'inline script')
    for (const p of t.links) for (const href of o.page.links) hit(t, p, href, `link ${clip(href)}`)
    for (const p of t.html) hit(t, p, o.html, 'page markup')
    if (o.favicon && t.favicon.some((h) => h === String(o.favicon!.mmh3) || h.toLowerCase() === `sha256:${o.favicon!.sha256}`))
      hit(t, { re: /^/, version: null, confidence: 100 }, '', `favicon hash ${o.favicon.mmh3}`)
  }
  // Implied technologies (WordPress → PHP), transitively, at the confidence of what implies them.
  const byName = new Map(catalogue.map((t) => [t.name, t]))
  for (let changed = true; changed; ) {
    changed = false
    for (const [name, f] of [...found]) {
      for (const implied of f.tech?.implies ?? []) {
        if (found.has(implied)) continue
        found.set(implied, {
          tech: byName.get(implied) ?? null,
          version: null,
          versionConfidence: 0,
          confidence: f.confidence,
          evidence: [`implied by ${name}`],
        })
        changed = true
      }
    }
  }
  return [...found]
    .map(([name, f]) => ({
      name,
      version: f.version,
      categories: f.tech?.cats ?? [],
      confidence: f.confidence,
      evidence: f.evidence.join('; '),
    }))
    .sort((a, b) => a.name.localeCompare(b.name))
}
