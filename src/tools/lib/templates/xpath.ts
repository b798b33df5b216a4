// A small XPath subset over a tolerant HTML/XML tree, for xpath extractors: absolute and descendant
// steps (/html/head/title, //title, //*), predicates [@a], [@a='v'], [contains(@a,'v')], [n], a final
// /@attr or /text() step. The tree is built in one linear pass; malformed markup never throws.
export class XPathError extends Error {
  override name = 'XPathError'
}

interface El {
  tag: string
  attrs: Record<string, string>
  children: Array<El | string>
  parent: El | null
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr'])
const RAW = new Set(['script', 'style'])

export function parseMarkup(src: string): El {
  const root: El = { tag: '#root', attrs: {}, children: [], parent: null }
  let cur = root
  const tagRe =
    /<(\/?)([A-Za-z][A-Za-z0-9:_-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>|<!--[\s\S]*?-->|<![^>]*>|<\?[^>]*\?>/g
  let last = 0
  let m: RegExpExecArray | null
  while ((m = tagRe.exec(src))) {
    if (m.index > last) cur.children.push(decode(src.slice(last, m.index)))
    last = tagRe.lastIndex
    if (!m[2]) continue
    const tag = m[2].toLowerCase()
    if (m[1]) {
      // Close the nearest open element of that name; a stray end tag is ignored.
      for (let e: El | null = cur; e && e !== root; e = e.parent)
        if (e.tag === tag) {
          cur = e.parent!
          break
        }
      continue
    }
    const attrs: Record<string, string> = {}
    for (const a of (m[3] ?? '').matchAll(/([^\s=>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g))
      attrs[a[1]!.toLowerCase()] = decode(a[2] ?? a[3] ?? a[4] ?? '')
    const el: El = { tag, attrs, children: [], parent: cur }
    cur.children.push(el)
    if (RAW.has(tag)) {
      const end = src.toLowerCase().indexOf(`</${tag}`, last)
      const stop = end < 0 ? src.length : end
      el.children.push(src.slice(last, stop))
      tagRe.lastIndex = last = stop
      continue
    }
    if (!m[4] && !VOID.has(tag)) cur = el
  }
  if (last < src.length) cur.children.push(decode(src.slice(last)))
  return root
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
const textOf = (e: El): string => e.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('')

type Pred = { k: 'has'; a: string } | { k: 'eq'; a: string; v: string } | { k: 'contains'; a: string; v: string } | { k: 'nth'; n: number }
type Step = { desc: boolean; name: string; preds: Pred[] }
export interface XPath {
  steps: Step[]
  final: { k: 'attr'; a: string } | { k: 'text' } | null
}

export function parseXPath(src: string): XPath {
  const s = src.trim()
  const steps: Step[] = []
  let final: XPath['final'] = null
  const re = /(\/\/?)(@[A-Za-z_][\w:-]*|text\(\)|\*|[A-Za-z_][\w:.-]*)((?:\[[^\]]*\])*)/y
  let i = 0
  while (i < s.length) {
    re.lastIndex = i
    const m = re.exec(s)
    if (!m || final) throw new XPathError(`xpath ${JSON.stringify(src.slice(0, 60))} uses more than the supported subset`)
    i = re.lastIndex
    if (m[2]!.startsWith('@')) final = { k: 'attr', a: m[2]!.slice(1).toLowerCase() }
    else if (m[2] === 'text()') final = { k: 'text' }
    else
      steps.push({
        desc: m[1] === '//',
        name: m[2]!.toLowerCase(),
        preds: [...m[3]!.matchAll(/\[([^\]]*)\]/g)].map((p) => pred(p[1]!, src)),
      })
  }
  if (steps.length === 0) throw new XPathError(`xpath ${JSON.stringify(src.slice(0, 60))} selects no element`)
  return { steps, final }
}

function pred(p: string, src: string): Pred {
  let m: RegExpExecArray | null
  if ((m = /^\s*(\d+)\s*$/.exec(p))) return { k: 'nth', n: Number(m[1]) }
  if ((m = /^\s*@([\w:-]+)\s*$/.exec(p))) return { k: 'has', a: m[1]!.toLowerCase() }
  if ((m = /^\s*@([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')\s*$/.exec(p))) return { k: 'eq', a: m[1]!.toLowerCase(), v: m[2] ?? m[3]! }
  if ((m = /^\s*contains\(\s*@([\w:-]+)\s*,\s*(?:"([^"]*)"|'([^']*)')\s*\)\s*$/.exec(p)))
    return { k: 'contains', a: m[1]!.toLowerCase(), v: m[2] ?? m[3]! }
  throw new XPathError(`xpath predicate [${p.slice(0, 40)}] of ${JSON.stringify(src.slice(0, 60))} is not supported`)
}

const elements = (e: El): El[] => e.children.filter((c): c is El => typeof c !== 'string')
function descendants(e: El, out: El[] = []): El[] {
  for (const c of elements(e)) {
    out.push(c)
    descendants(c, out)
  }
  return out
}

export function runXPath(x: XPath, root: El, attribute?: string): string[] {
  let set: El[] = [root]
  for (const st of x.steps) {
    const next: El[] = []
    for (const e of set) {
      let cands = (st.desc ? descendants(e) : elements(e)).filter((c) => st.name === '*' || c.tag === st.name)
      for (const p of st.preds) {
        if (p.k === 'nth') cands = cands[p.n - 1] ? [cands[p.n - 1]!] : []
        else
          cands = cands.filter((c) =>
            p.k === 'has' ? p.a in c.attrs : p.k === 'eq' ? c.attrs[p.a] === p.v : (c.attrs[p.a] ?? '').includes(p.v),
          )
      }
      next.push(...cands)
    }
    set = [...new Set(next)]
  }
  const attr = x.final?.k === 'attr' ? x.final.a : attribute?.toLowerCase()
  return set.map((e) => (attr ? e.attrs[attr] : textOf(e).trim())).filter((v): v is string => v !== undefined)
}
