// Reading target-supplied HTML in linear time: htmlparser2's tokenizer (a state machine, one pass)
// instead of regexes such as /<a\b[^>]*>/g, which retry from every `<` to the end of an unclosed
// tag and take quadratic time on a page of 512 KB of `<a ` (any scanned site could stall Ward with one).
// Tag and attribute names come lower case, attribute values with their entities decoded.
import { Parser } from 'htmlparser2'

export type Attrs = Readonly<Record<string, string>>

export interface HtmlVisitor {
  /** A start tag; return false to stop reading. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a visitor is a void function that may return false to stop
  open?(name: string, attrs: Attrs): boolean | void
  /** An end tag (written or implied); return false to stop reading. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a visitor is a void function that may return false to stop
  close?(name: string): boolean | void
  /** Text between tags (entities decoded), possibly in several pieces. */
  text?(text: string): void
}

/** Feeds `html` through the tokenizer to `v`, in document order, until the end or a `false`. */
export function readHtml(html: string, v: HtmlVisitor): void {
  let stopped = false
  // biome-ignore lint/suspicious/noConfusingVoidType: a visitor is a void function that may return false to stop
  const stop = (r: boolean | void) => {
    if (r === false && !stopped) {
      stopped = true
      parser.pause()
    }
  }
  const parser = new Parser(
    {
      onopentag: (name, attrs) => void (stopped || stop(v.open?.(name, attrs))),
      onclosetag: (name) => void (stopped || stop(v.close?.(name))),
      ontext: (text) => void (stopped || v.text?.(text)),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.write(html)
  if (!stopped) parser.end()
}

export interface HtmlFormField {
  /** input, select, textarea or button. */
  tag: string
  /** The input's type (lower case, `text` when absent), else the tag name. */
  type: string
  name: string | undefined
  value: string
}
export interface HtmlForm {
  attrs: Attrs
  fields: HtmlFormField[]
}

const FIELD_TAGS = new Set(['input', 'select', 'textarea', 'button'])

/** The page's forms with their fields, at most `limit` (a form inside a form is part of the outer one, as browsers read it). */
export function htmlForms(html: string, limit = 50): HtmlForm[] {
  const out: HtmlForm[] = []
  let current: HtmlForm | null = null
  readHtml(html, {
    open(name, attrs) {
      if (name === 'form') current ??= { attrs, fields: [] }
      else if (current && FIELD_TAGS.has(name)) {
        const type = name === 'input' ? (attrs.type ?? 'text').toLowerCase() : name
        current.fields.push({ tag: name, type, name: attrs.name, value: attrs.value ?? '' })
      }
    },
    close(name) {
      if (name !== 'form' || !current) return
      out.push(current)
      current = null
      return out.length < limit
    },
  })
  return out
}
