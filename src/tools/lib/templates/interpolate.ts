// {{...}} markers in request text: a variable name, or a DSL expression over the variables
// ({{base64(username)}}). A marker that cannot be resolved fails the request, as nuclei does, rather
// than sending the marker literally.
import { evalDsl, type EvalEnv } from './dsl-eval.js'
import { DslError, type Value } from './dsl-parse.js'
import { randFrom, toStr } from './dsl-functions.js'

/** Where the marker opened at `open` closes (its `}}`), counting markers nested inside it; -1 if never. */
function closing(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length - 1; i++) {
    if (text[i] === '{' && text[i + 1] === '{') {
      depth++
      i++
    } else if (text[i] === '}' && text[i + 1] === '}') {
      depth--
      if (depth === 0) return i
      i++
    }
  }
  return -1
}

/** Whether position `at` of a DSL expression lies inside one of its quoted strings (and which quote). */
function quoteAt(expr: string, at: number): string | null {
  let q: string | null = null
  for (let i = 0; i < at; i++) {
    const c = expr[i]!
    if (q && c === '\\') i++
    else if (q && c === q) q = null
    else if (!q && (c === '"' || c === "'" || c === '`')) q = c
  }
  return q
}

/** Each marker of `text` replaced by `place(value, text so far)`, the value being `sub` of its (literalised) expression. */
function mapMarkers(text: string, sub: (expr: string) => string, place: (value: string, before: string) => string): string {
  let out = ''
  let i = 0
  for (let open = text.indexOf('{{'); open >= 0; open = text.indexOf('{{', i)) {
    const end = closing(text, open)
    if (end < 0) break
    out += text.slice(i, open)
    out += place(sub(literalise(text.slice(open + 2, end), sub)), out)
    i = end + 2
  }
  return out + text.slice(i)
}

/**
 * Replaces each {{...}} marker of `text` by `sub(expression)`. Markers may nest, as templates write
 * them ({{md5({{num}})}}): the inner one is resolved first and enters the outer expression as a string
 * literal, or as plain text where it stands inside one of the outer expression's quoted strings.
 */
export const replaceMarkers = (text: string, sub: (expr: string) => string): string => mapMarkers(text, sub, (v) => v)

function literalise(expr: string, sub: (expr: string) => string): string {
  if (!expr.includes('{{')) return expr
  return mapMarkers(expr, sub, (value, before) => {
    const q = quoteAt(before, before.length)
    return q ? value.replace(/\\/g, '\\\\').replaceAll(q, `\\${q}`) : JSON.stringify(value)
  })
}

/** The expressions inside the {{...}} markers of a text (nested ones too, innermost first). */
export function markersOf(text: string): string[] {
  const found: string[] = []
  replaceMarkers(text, (e) => {
    found.push(e.trim())
    return 'x'
  })
  return found
}

/**
 * Variables of one template run: `randstr` and `randstr_<x>` are made on first use and stay the
 * same for the whole template (a request and the matcher that looks for its echo agree).
 */
export class RunVars extends Map<string, Value> {
  override get(name: string): Value | undefined {
    const v = super.get(name)
    if (v !== undefined || !/^randstr(?:_\w+)?$/.test(name)) return v
    const r = randFrom('abcdefghijklmnopqrstuvwxyz0123456789', 27)
    this.set(name, r)
    return r
  }
  override has(name: string): boolean {
    return this.get(name) !== undefined
  }
}

export class UnresolvedError extends Error {
  override name = 'UnresolvedError'
  /** The variable that had no value, when that was the reason. */
  constructor(
    message: string,
    readonly variable?: string,
  ) {
    super(message)
  }
}

export function interpolate(text: string, env: EvalEnv): string {
  if (!text.includes('{{') && !text.includes('§')) return text
  const sub = (expr: string) => {
    try {
      return toStr(evalDsl(expr.trim(), env))
    } catch (e) {
      if (e instanceof DslError)
        throw new UnresolvedError(
          `cannot resolve {{${expr.trim().slice(0, 60)}}}: ${e.message}`,
          /^unknown variable (\S+)$/.exec(e.message)?.[1],
        )
      throw e
    }
  }
  // §name§ is the payload marker of raw requests (Burp's notation, which templates also use).
  return replaceMarkers(text, sub).replace(/§([A-Za-z0-9_-]+)§/g, (_, e: string) => sub(e))
}
