// Template regexes are user-supplied: they run on RE2 (re2js, a linear-time engine without
// backtracking, the same syntax as the Go regexp nuclei templates are written for), so a pattern
// like (a+)+$ cannot stall a scan. On top of that each template has a time budget for its regex
// work; spending it fails the template with a clear error. Another branch adds a shared
// toolkit/safe-regex.ts; this small adapter keeps the engine independent of it until they meet.
import { RE2JS } from 're2js'
import { TEMPLATE_REGEX_BUDGET_MS } from '../../../toolkit/timeouts.js'

export class RegexError extends Error {
  override name = 'RegexError'
}

export interface RegexRunner {
  test(pattern: string, input: string, caseInsensitive?: boolean): boolean
  /** Every match (group `group`, 0 = whole match), at most `max`. */
  findAll(pattern: string, input: string, group?: number, max?: number): string[]
  replaceAll(pattern: string, input: string, replacement: string): string
}

const MAX_PATTERN = 4096
const compiled = new Map<string, RE2JS>()

/** Compiles (cached) or throws a RegexError naming the pattern's problem. */
export function compileRegex(pattern: string, caseInsensitive = false): RE2JS {
  const key = (caseInsensitive ? 'i:' : ':') + pattern
  let re = compiled.get(key)
  if (re) return re
  if (pattern.length > MAX_PATTERN) throw new RegexError(`regex longer than ${MAX_PATTERN} characters`)
  try {
    re = RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0)
  } catch (e) {
    throw new RegexError(`regex ${JSON.stringify(pattern.slice(0, 80))} is not valid RE2 syntax: ${(e as Error).message}`)
  }
  if (compiled.size > 10_000) compiled.clear()
  compiled.set(key, re)
  return re
}

/** A runner whose regex work is bounded in total: past `budgetMs` every call throws a RegexError. */
export function createRegexRunner(budgetMs = TEMPLATE_REGEX_BUDGET_MS): RegexRunner & { spentMs(): number } {
  let spent = 0
  const timed = <T>(f: () => T): T => {
    if (spent > budgetMs) throw new RegexError(`regex time budget of ${budgetMs} ms spent`)
    const t = performance.now()
    let out: T
    try {
      out = f()
    } finally {
      spent += performance.now() - t
    }
    if (spent > budgetMs) throw new RegexError(`regex time budget of ${budgetMs} ms spent (${Math.round(spent)} ms)`)
    return out
  }
  return {
    spentMs: () => spent,
    test: (pattern, input, ci) => timed(() => compileRegex(pattern, ci).test(input)),
    findAll(pattern, input, group = 0, max = 100) {
      return timed(() => {
        const re = compileRegex(pattern)
        if (group > re.groupCount()) throw new RegexError(`regex ${JSON.stringify(pattern.slice(0, 80))} has no group ${group}`)
        const m = re.matcher(input)
        const out: string[] = []
        let from = 0
        while (out.length < max && from <= input.length && m.find(from)) {
          out.push(m.group(group) ?? '')
          // An empty match must still move on.
          from = m.end() > m.start() ? m.end() : m.end() + 1
        }
        return out
      })
    },
    replaceAll: (pattern, input, replacement) => timed(() => compileRegex(pattern).matcher(input).replaceAll(replacement)),
  }
}
