// User-supplied regular expressions (login markers; the template engine's matchers) run on RE2's
// automaton (re2js, a pure-JS port: no native build), whose time is linear in the text whatever
// the pattern: `/(a+)+$/` on "aaaa…!" costs its length, where V8's backtracking engine takes
// exponential time and holds its thread. What RE2 cannot express
// (backreferences, lookaround) is refused when the pattern is given, naming it (UnsafePatternError).
import { RE2JS } from 're2js'

export interface SafeRegex {
  readonly source: string
  readonly flags: string
  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean
  /** The first match and its groups (undefined for a group that did not take part), or null. */
  exec(text: string): (string | undefined)[] | null
}

export class UnsafePatternError extends Error {
  override name = 'UnsafePatternError'
}

// JS flags → RE2's: i, m and s change what matches; g, y, d, u (RE2 reads Unicode anyway) do not
// change whether or where the first match is.
const FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, g: 0, y: 0, d: 0, u: 0 }

/** Compiles `source` for RE2; throws UnsafePatternError (with RE2's reason) when it cannot be. */
export function safeRegex(source: string, flags = ''): SafeRegex {
  let bits = 0
  for (const f of flags) {
    if (!(f in FLAGS)) throw new UnsafePatternError(`flag "${f}" is not supported`)
    bits |= FLAGS[f]!
  }
  let re: RE2JS
  try {
    re = RE2JS.compile(source, bits)
  } catch (e) {
    throw new UnsafePatternError(reason(source, e))
  }
  return {
    source,
    flags,
    test: (text) => re.test(text),
    exec(text) {
      const m = re.exec(text) as (string | null | undefined)[] | null
      return m ? Array.from(m, (g) => g ?? undefined) : null
    },
  }
}

/** Why RE2 refused the pattern, in words for an API answer. */
function reason(source: string, e: unknown): string {
  if (/\\[1-9]|\\k</.test(source)) return 'backreferences are not supported (patterns run on a linear-time engine)'
  if (/\(\?<?[=!]/.test(source)) return 'lookahead and lookbehind are not supported (patterns run on a linear-time engine)'
  return `not a supported regular expression: ${(e as Error).message}`
}

/** A marker "/regex/flags" → its source and flags; other text → null (matched as plain text). */
export function regexMarker(marker: string): { source: string; flags: string } | null {
  const m = /^\/(.+)\/([a-z]*)$/s.exec(marker)
  return m ? { source: m[1]!, flags: m[2]! } : null
}
