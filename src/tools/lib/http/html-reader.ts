// Reading target-supplied HTML in linear time: htmlparser2's tokenizer (a state machine, one pass)
// instead of regexes such as /<a\b[^>]*>/g, which retry from every `<` to the end of an unclosed
// tag and take quadratic time on a page of 512 KB of `<a ` (issue 25, fault 3).
// Tag and attribute names come lower case, attribute values with their entities decoded.
import { Parser } from 'htmlparser2'

export type Attrs = Readonly<Record<string, string>>

export interface HtmlVisitor {
  /** A start tag; return false to stop reading. */
  open?(name: string, attrs: Attrs): boolean | void
  /** An end tag (written or implied); return false to stop reading. */
  close?(name: string): boolean | void
  /** Text between tags (entities decoded), possibly in several pieces. */
  text?(text: string): void
}

/** Feeds `html` through the tokenizer to `v`, in document order, until the end or a `false`. */
export function readHtml(html: string, v: HtmlVisitor): void {
  let stopped = false
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
