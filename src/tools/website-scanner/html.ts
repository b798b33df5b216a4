// Just enough HTML reading for a scanner: links, forms, meta generator, title. Regex-based on
// purpose (bounded bodies, no DOM): missing an exotic link costs a little coverage, never a hang.

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

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? '') : undefined
}

export function decodeEntities(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&apos;/g, "'")
    .replace(/&#x2f;/gi, '/')
}

export function metaGenerator(html: string): string | undefined {
  for (const m of html.matchAll(/<meta\b[^>]*>/gi)) {
    if ((attr(m[0], 'name') ?? '').toLowerCase() === 'generator') return attr(m[0], 'content')
  }
  return undefined
}

export function title(html: string): string {
  return decodeEntities(/<title[^>]*>([\s\S]{0,300}?)<\/title>/i.exec(html)?.[1]?.trim() ?? '')
}

/** href/src values of anchors, areas, links, frames (in order, duplicates kept out). */
export function links(html: string, limit = 500): string[] {
  const out = new Set<string>()
  for (const m of html.matchAll(/<(?:a|area|link|frame|iframe)\b[^>]*>/gi)) {
    const v = attr(m[0], 'href') ?? attr(m[0], 'src')
    if (v && !/^(javascript|mailto|tel|data):/i.test(v.trim())) out.add(v)
    if (out.size >= limit) break
  }
  return [...out]
}

export function forms(html: string, limit = 50): Form[] {
  const out: Form[] = []
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const open = `<form ${m[1]}>`
    const fields: FormField[] = []
    for (const f of m[2]!.matchAll(/<(input|select|textarea|button)\b[^>]*>/gi)) {
      const name = attr(f[0], 'name')
      if (!name) continue
      const type = (f[1]!.toLowerCase() === 'input' ? attr(f[0], 'type') ?? 'text' : f[1]!).toLowerCase()
      if (type === 'submit' || type === 'button' || type === 'image' || type === 'file') continue
      fields.push({ name, value: attr(f[0], 'value') ?? '', type })
    }
    out.push({ action: attr(open, 'action') ?? '', method: (attr(open, 'method') ?? 'get').toUpperCase() === 'POST' ? 'POST' : 'GET', fields })
    if (out.length >= limit) break
  }
  return out
}
