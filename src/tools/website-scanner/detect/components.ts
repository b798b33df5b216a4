// Client-side libraries and their versions: from script and stylesheet URLs (local or CDN, never
// fetched when off-site) and from the banner comments at the top of the site's own script files
// ("/*! jQuery v1.8.3", "@license AngularJS v1.5.8"). Matched against the one version catalogue
// like server software (disclosure.ts).
import type { Component } from './types.js'
import { resolveLink, sameOrigin } from '../../lib/http/url.js'
import { readHtml } from '../../lib/http/html-reader.js'

const V = String.raw`v?(\d+\.\d+\.\d+)`

interface Library {
  /** Product label (the vocabulary's, lib/services/products.ts). */
  product: string
  /** Version in a script/stylesheet URL: name-1.2.3.min.js, name/1.2.3/, name@1.2.3, ?ver=1.2.3 of name.js. */
  url: RegExp[]
  /** Version in the file's own banner comment or header code (first kilobytes of the file). */
  banner: RegExp[]
}

// Order matters where names overlap: jQuery UI before jQuery, React DOM is React's version.
const LIBRARIES: readonly Library[] = [
  {
    product: 'jQuery UI',
    url: [
      new RegExp(String.raw`jquery[.-]?ui[-.@/]${V}`, 'i'),
      new RegExp(String.raw`jqueryui/${V}/`, 'i'),
      new RegExp(String.raw`/ui/${V}/jquery-ui`, 'i'),
    ],
    banner: [new RegExp(String.raw`jQuery UI - ${V}`)],
  },
  {
    product: 'jQuery',
    url: [
      new RegExp(String.raw`(?:^|/)jquery[-.@/]${V}`, 'i'),
      new RegExp(String.raw`/jquery/${V}/`, 'i'),
      new RegExp(String.raw`(?:^|/)jquery(?:\.min)?\.js\?ver=${V}`, 'i'),
    ],
    banner: [new RegExp(String.raw`jQuery (?:JavaScript Library )?${V}(?![\s\S]{0,20}UI)`), new RegExp(String.raw`jQuery v${V.slice(2)}`)],
  },
  {
    product: 'Bootstrap',
    url: [new RegExp(String.raw`bootstrap[-.@/]${V}`, 'i'), new RegExp(String.raw`twitter-bootstrap/${V}/`, 'i')],
    banner: [new RegExp(String.raw`Bootstrap ${V} \(`), new RegExp(String.raw`Bootstrap v${V.slice(2)}`)],
  },
  {
    product: 'AngularJS',
    url: [
      new RegExp(String.raw`angular(?:js|\.js)?/${V}/angular`, 'i'),
      new RegExp(String.raw`angular@(1\.\d+\.\d+)`, 'i'),
      new RegExp(String.raw`(?:^|/)angular[-.](1\.\d+\.\d+)(?:\.min)?\.js`, 'i'),
    ],
    banner: [new RegExp(String.raw`AngularJS ${V}`)],
  },
  {
    product: 'Vue.js',
    url: [
      new RegExp(String.raw`vue@${V}`, 'i'),
      new RegExp(String.raw`vue(?:\.js)?/${V}/vue`, 'i'),
      new RegExp(String.raw`(?:^|/)vue[-.]${V}(?:\.min)?\.js`, 'i'),
    ],
    banner: [new RegExp(String.raw`Vue\.js ${V}`)],
  },
  {
    product: 'React',
    url: [new RegExp(String.raw`react(?:-dom)?@${V}`, 'i'), new RegExp(String.raw`react(?:-dom)?/${V}/umd`, 'i')],
    banner: [new RegExp(String.raw`@license React ${V}`)],
  },
  {
    product: 'Lodash',
    url: [new RegExp(String.raw`lodash(?:\.js)?[@/]${V}`, 'i'), new RegExp(String.raw`(?:^|/)lodash[-.]${V}(?:\.min)?\.js`, 'i')],
    banner: [
      new RegExp(String.raw`lodash[^\n]{0,80}\n[\s\S]{0,1500}?VERSION\s*=\s*['"]${V}['"]`, 'i'),
      new RegExp(String.raw`@license Lodash ${V}`, 'i'),
    ],
  },
  {
    product: 'Moment.js',
    url: [new RegExp(String.raw`moment(?:\.js)?[@/]${V}`, 'i'), new RegExp(String.raw`(?:^|/)moment[-.]${V}(?:\.min)?\.js`, 'i')],
    banner: [new RegExp(String.raw`moment\.js\s*\n\s*//! version : ${V}`, 'i')],
  },
  {
    product: 'Handlebars',
    url: [new RegExp(String.raw`handlebars(?:\.js)?[@/-]${V}`, 'i')],
    banner: [new RegExp(String.raw`handlebars ${V}`, 'i')],
  },
  { product: 'DOMPurify', url: [new RegExp(String.raw`dompurify[@/]${V}`, 'i')], banner: [new RegExp(String.raw`DOMPurify ${V}`)] },
]

/** src of <script> and href of <link> tags naming a .css file, in document order (tokenizer: linear in the page). */
export function assetUrls(body: string, limit = 200): string[] {
  const out: string[] = []
  readHtml(body, {
    open(name, a) {
      const url = name === 'script' ? a.src : name === 'link' && /\.css/i.test(a.href ?? '') ? a.href : undefined
      if (url?.trim()) out.push(url.trim())
      return out.length < limit
    },
  })
  return out
}

/** Libraries named with a version in the page's script and stylesheet URLs. */
export function urlComponents(body: string): Component[] {
  const out: Component[] = []
  for (const src of assetUrls(body)) {
    const path = src.replace(/#.*$/, '')
    for (const lib of LIBRARIES) {
      const m = lib.url.map((r) => r.exec(path)).find(Boolean)
      if (m) {
        out.push({ product: lib.product, version: m[1]!, source: `script URL ${clip(src)}` })
        break // one library per URL ("jquery-ui" is not also jQuery)
      }
    }
  }
  return out
}

/** Libraries whose banner is in the first bytes of a script file the site serves. */
export function sourceComponents(url: string, source: string): Component[] {
  const head = source.slice(0, 16 * 1024)
  for (const lib of LIBRARIES) {
    const m = lib.banner.map((r) => r.exec(head)).find(Boolean)
    if (m) return [{ product: lib.product, version: m[1]!, source: `banner of ${clip(url)}` }]
  }
  return []
}

/** Same-origin script files worth reading for a banner (URL without a recognised version), at most `max`. */
export function scriptsToRead(body: string, page: URL, max = 8): string[] {
  const out = new Set<string>()
  for (const src of assetUrls(body)) {
    if (!/\.js(\?|$)/i.test(src)) continue
    const u = resolveLink(src, page)
    if (!u || !sameOrigin(u, page)) continue
    if (LIBRARIES.some((l) => l.url.some((r) => r.test(src)))) continue
    out.add(u.href)
    if (out.size >= max) break
  }
  return [...out]
}

/** One component per product and version (the first source wins). */
export function uniqueComponents(cs: Component[]): Component[] {
  const seen = new Set<string>()
  return cs.filter((c) => {
    const k = `${c.product.toLowerCase()} ${c.version}`
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}...` : s)
