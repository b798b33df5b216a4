// What a CMS scanner reads from a page, in one linear pass: the generator meta tag and the URLs of
// its stylesheets, scripts, images and links (with their ?ver= query, where CMSs put versions).
import { readHtml } from '../http/html-reader.js'

export interface PageFacts {
  generators: string[]
  /** Absolute URLs of link href, script src and img src, in page order (at most MAX_URLS). */
  assets: string[]
  /** Absolute URLs of <a href> (at most MAX_URLS). */
  links: string[]
}

const MAX_URLS = 2000

export function pageFacts(html: string, base: string): PageFacts {
  const facts: PageFacts = { generators: [], assets: [], links: [] }
  const push = (list: string[], raw: string | undefined) => {
    if (!raw || list.length >= MAX_URLS) return
    try {
      list.push(new URL(raw.trim(), base).href)
    } catch {
      // not a URL: ignored
    }
  }
  readHtml(html, {
    open(name, a) {
      if (name === 'meta' && (a.name ?? '').toLowerCase() === 'generator' && a.content) facts.generators.push(a.content.trim())
      else if (name === 'link') push(facts.assets, a.href)
      else if (name === 'script' || name === 'img') push(facts.assets, a.src)
      else if (name === 'a') push(facts.links, a.href)
    },
  })
  return facts
}

/** The ?ver= of an asset URL, when it looks like a version. */
export function assetVersion(url: string): string | null {
  try {
    const v = new URL(url).searchParams.get('ver') ?? new URL(url).searchParams.get('v')
    return v && /^\d+(\.\d+)*[a-z0-9.-]*$/i.test(v) ? v : null
  } catch {
    return null
  }
}

/** The version most sources agree on (ties: the first seen); null for none. */
export function mostVoted(versions: readonly (string | null | undefined)[]): string | null {
  const votes = new Map<string, number>()
  for (const v of versions) if (v) votes.set(v, (votes.get(v) ?? 0) + 1)
  let best: string | null = null
  for (const [v, n] of votes) if (best === null || n > votes.get(best)!) best = v
  return best
}
