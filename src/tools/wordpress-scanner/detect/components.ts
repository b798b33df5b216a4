// Plugins and themes: slugs and versions named by page assets, plugin readmes and theme stylesheets. Pure.
import { assetVersion, type PageFacts } from '../../lib/cms/page.js'

export interface SeenComponent {
  slug: string
  version: string | null
  source: string
}

const SLUG = /\/wp-content\/(plugins|themes)\/([a-z0-9][a-z0-9_-]{0,99})\//i

/** Plugins and themes whose files a page links to, with the ?ver= of those files (a plugin's own version, usually). */
export function componentsInPage(facts: PageFacts): { plugins: SeenComponent[]; themes: SeenComponent[] } {
  const plugins: SeenComponent[] = []
  const themes: SeenComponent[] = []
  for (const url of [...facts.assets, ...facts.links]) {
    const m = SLUG.exec(url)
    if (!m) continue
    const list = m[1]!.toLowerCase() === 'plugins' ? plugins : themes
    list.push({ slug: m[2]!.toLowerCase(), version: assetVersion(url), source: 'page assets' })
  }
  return { plugins, themes }
}

/** A plugin readme: "Stable tag: 5.1.1", else the first version of "== Changelog ==". Null when it is no readme. */
export function readmeTxtVersion(text: string): { version: string | null; source: string } | null {
  const body = text.slice(0, 65536)
  if (!/^===[^\n]*===/m.test(body.slice(0, 2000)) && !/Stable tag:/i.test(body)) return null
  const stable = /^[ \t]*Stable tag:[ \t]*(\d+(?:\.\d+)*)[ \t]*\r?$/im.exec(body)
  if (stable) return { version: stable[1]!, source: 'readme.txt Stable tag' }
  const at = body.search(/==\s*Changelog\s*==/i)
  if (at >= 0) {
    const v = /^[ \t]*=+[ \t]*v?(\d+(?:\.\d+)+)/m.exec(body.slice(at + 10, at + 2000))
    if (v) return { version: v[1]!, source: 'readme.txt changelog' }
  }
  return { version: null, source: 'readme.txt' }
}

/** A theme stylesheet header: "Version: 1.2". Null when it is no theme stylesheet. */
export function styleCssVersion(body: string): string | null {
  const head = body.slice(0, 4000)
  if (!/Theme Name:/i.test(head)) return null
  return /^[ \t*]*Version:[ \t]*(\d+(?:\.\d+)*)/im.exec(head)?.[1] ?? null
}

/** One entry per slug: the first version found wins, in the order given (readme before page assets). */
export function mergeComponents(list: readonly SeenComponent[]): SeenComponent[] {
  const bySlug = new Map<string, SeenComponent>()
  for (const c of list) {
    const had = bySlug.get(c.slug)
    if (!had || (!had.version && c.version)) bySlug.set(c.slug, c)
  }
  return [...bySlug.values()].sort((a, b) => a.slug.localeCompare(b.slug))
}
