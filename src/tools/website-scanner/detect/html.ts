// Just enough HTML reading for a scanner: links, forms, meta generator, title. Through the linear
// tokenizer of lib/http/html-reader.ts (no DOM, no regex over the page: a hostile page costs its
// length, never its length squared).
import { htmlForms, readHtml } from '../../lib/http/html-reader.js'

export interface FormField {
  name: string
  value: string
  type: string
}
export interface Form {
  action: string
  method: 'GET' | 'POST'
  fields: FormField[]
}

export function metaGenerator(html: string): string | undefined {
  let found: string | undefined
  readHtml(html, {
    open(name, a) {
      if (name !== 'meta' || (a.name ?? '').toLowerCase() !== 'generator') return
      found = a.content
      return false
    },
  })
  return found
}

/** The first <title> of at most 300 characters, trimmed ('' when none). */
export function title(html: string): string {
  let text: string | null = null
  let found = ''
  readHtml(html, {
    open: (name) => void (name === 'title' && (text = '')),
    text: (t) => void (text !== null && (text += t)),
    close(name) {
      if (name !== 'title' || text === null) return
      if (text.length <= 300) {
        found = text.trim()
        return false
      }
      text = null
    },
  })
  return found
}

const LINKING = new Set(['a', 'area', 'link', 'frame', 'iframe'])

/** href/src values of anchors, areas, links, frames (in order, duplicates kept out). */
export function links(html: string, limit = 500): string[] {
  const out = new Set<string>()
  readHtml(html, {
    open(name, a) {
      if (!LINKING.has(name)) return
      const v = a.href ?? a.src
      if (v && !/^(javascript|mailto|tel|data):/i.test(v.trim())) out.add(v)
      return out.size < limit
    },
  })
  return [...out]
}

const NOT_SENT = new Set(['submit', 'button', 'image', 'file'])

export function forms(html: string, limit = 50): Form[] {
  return htmlForms(html, limit).map((f) => ({
    action: f.attrs.action ?? '',
    method: (f.attrs.method ?? 'get').toUpperCase() === 'POST' ? 'POST' : 'GET',
    fields: f.fields
      .filter((x): x is typeof x & { name: string } => !!x.name && !NOT_SENT.has(x.type))
      .map((x) => ({ name: x.name, value: x.value, type: x.type })),
  }))
}
