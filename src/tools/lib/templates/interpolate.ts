// {{...}} markers in request text: a variable name, or a DSL expression over the variables
// ({{base64(username)}}). A marker that cannot be resolved fails the request, as nuclei does, rather
// than sending the marker literally.
import { evalDsl, type EvalEnv } from './dsl-eval.js'
import { DslError, type Value } from './dsl-parse.js'
import { randFrom, toStr } from './dsl-functions.js'

const MARKER = /\{\{([\s\S]+?)\}\}/g

/** The expressions inside the {{...}} markers of a text. */
export const markersOf = (text: string): string[] => [...text.matchAll(MARKER)].map((m) => m[1]!.trim())

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
}

export function interpolate(text: string, env: EvalEnv): string {
  if (!text.includes('{{') && !text.includes('§')) return text
  const sub = (expr: string) => {
    try {
      return toStr(evalDsl(expr.trim(), env))
    } catch (e) {
      if (e instanceof DslError) throw new UnresolvedError(`cannot resolve {{${expr.trim().slice(0, 60)}}}: ${e.message}`)
      throw e
    }
  }
  // §name§ is the payload marker of raw requests (Burp's notation, which templates also use).
  return text.replace(MARKER, (_, e: string) => sub(e)).replace(/§([A-Za-z0-9_-]+)§/g, (_, e: string) => sub(e))
}
