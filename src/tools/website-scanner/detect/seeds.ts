// Crawl seeds a site declares itself: robots.txt names paths (Allow and Disallow alike: a scanner
// wants to know what is there; what robots.txt hides is judged separately, detect/info.ts) and sitemaps.
import { resolveLink } from '../../lib/http/url.js'

/** Paths of Allow/Disallow lines (wildcards cut at the first * or $) and Sitemap URLs. */
export function robotsSeeds(text: string, base: URL): { paths: URL[]; sitemaps: URL[] } {
  const paths: URL[] = []
  const sitemaps: URL[] = []
  for (const raw of text.split(/\r?\n/).slice(0, 5000)) {
    const line = raw.replace(/#.*$/, '').trim()
    const m = /^(allow|disallow|sitemap)\s*:\s*(\S+)/i.exec(line)
    if (!m) continue
    if (m[1]!.toLowerCase() === 'sitemap') {
      const u = resolveLink(m[2]!, base)
      if (u) sitemaps.push(u)
      continue
    }
    const path = m[2]!.split(/[*$]/)[0]!
    if (!path.startsWith('/') || path === '/') continue
    const u = resolveLink(path, base)
    if (u) paths.push(u)
  }
  return { paths, sitemaps }
}

/** <loc> entries of a sitemap: page URLs of a <urlset>, sitemap URLs of a <sitemapindex>. */
export function sitemapLocs(xml: string, base: URL): { urls: URL[]; sitemaps: URL[] } {
  const index = /<sitemapindex[\s>]/i.test(xml)
  const out: URL[] = []
  for (const m of xml.matchAll(/<loc>\s*(?:<!\[CDATA\[)?\s*([^<\]\s]+)\s*(?:\]\]>)?\s*<\/loc>/gi)) {
    const u = resolveLink(m[1]!.replace(/&amp;/g, '&'), base)
    if (u) out.push(u)
  }
  return index ? { urls: [], sitemaps: out } : { urls: out, sitemaps: [] }
}
