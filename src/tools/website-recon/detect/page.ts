// What a page shows for fingerprinting, read in one pass with htmlparser2: meta tags, script sources,
// inline scripts, link hrefs, the favicon link, the title. Pure.
import { Parser } from 'htmlparser2'

export interface PageFacts {
  meta: Array<[string, string]>
  scripts: string[]
  scriptText: string[]
  links: string[]
  icon: string | null
  title: string
}

const MAX_HTML = 512 * 1024
const MAX_INLINE = 64 * 1024

export function readPage(html: string): PageFacts {
  const f: PageFacts = { meta: [], scripts: [], scriptText: [], links: [], icon: null, title: '' }
  let inScript = false
  let inTitle = false
  let text = ''
  const p = new Parser(
    {
      onopentag(name, a) {
        if (name === 'meta') {
          const key = (a.name ?? a.property ?? a['http-equiv'] ?? '').toLowerCase()
          if (key && a.content !== undefined) f.meta.push([key, a.content])
        } else if (name === 'script') {
          if (a.src) f.scripts.push(a.src)
          else inScript = true
          text = ''
        } else if (name === 'link' && a.href) {
          f.links.push(a.href)
          if (!f.icon && /(^|\s)(shortcut )?icon(\s|$)/i.test(a.rel ?? '')) f.icon = a.href
        } else if (name === 'title') inTitle = true
      },
      ontext(t) {
        if (inScript && text.length < MAX_INLINE) text += t
        if (inTitle) f.title += t
      },
      onclosetag(name) {
        if (name === 'script' && inScript) {
          inScript = false
          if (text.trim()) f.scriptText.push(text)
        }
        if (name === 'title') inTitle = false
      },
    },
    { decodeEntities: true },
  )
  p.write(html.slice(0, MAX_HTML))
  p.end()
  f.title = f.title.trim()
  return f
}
