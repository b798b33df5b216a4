// Matchers and extractors over one response's variables (nuclei semantics: part, condition,
// negative, case-insensitive, hex encoding, match-all; named extractor values become variables).
import type { Extractor, Matcher } from './model.js'
import { DslError, type Value } from './dsl-parse.js'
import { evalDsl, truthy, type EvalEnv } from './dsl-eval.js'
import { toStr } from './dsl-functions.js'
import { interpolate } from './interpolate.js'
import { parseJq, runJq } from './jq.js'
import { parseMarkup, parseXPath, runXPath } from './xpath.js'

export interface MatchOutcome {
  matched: boolean
  /** What matched (words, regex matches, status codes...), for evidence. */
  hits: string[]
}

const MAX_HITS = 20
const MAX_JSON = 4 << 20

/** A part by nuclei's name: body, header, all/response/raw, or any variable (status_code, a named extractor, body_2). */
export function partOf(env: EvalEnv, part: string): string {
  const name = part === 'all_headers' ? 'header' : part === 'all' || part === 'response' ? 'raw' : part
  const vars = env.vars
  const v = vars instanceof Map ? vars.get(name) : (vars as Record<string, Value>)[name]
  return v === undefined ? '' : toStr(v)
}

/**
 * A DSL matcher or extractor over a value the response did not give (an extractor that found
 * nothing, a step that got no answer) is false, as in nuclei; other errors stay errors.
 */
function evalOrMissing(e: string, env: EvalEnv): Value {
  try {
    return evalDsl(e, env)
  } catch (err) {
    if (err instanceof DslError && err.message.startsWith('unknown variable ')) return null
    throw err
  }
}

function combine(results: boolean[], condition: 'and' | 'or'): boolean {
  return condition === 'and' ? results.length > 0 && results.every(Boolean) : results.some(Boolean)
}

export function runMatcher(m: Matcher, env: EvalEnv, bodyBytes?: Buffer): MatchOutcome {
  const hits: string[] = []
  const text = () => partOf(env, m.part)
  let results: boolean[] = []
  switch (m.type) {
    case 'word': {
      const corpus = m.hex && m.part === 'body' && bodyBytes ? bodyBytes.toString('latin1') : text()
      const hay = m.caseInsensitive ? corpus.toLowerCase() : corpus
      results = m.words.map((w) => {
        let word = m.hex ? Buffer.from(w, 'hex').toString('latin1') : interpolate(w, env)
        if (m.caseInsensitive) word = word.toLowerCase()
        const ok = hay.includes(word)
        if (ok && hits.length < MAX_HITS) hits.push(word)
        return ok
      })
      break
    }
    case 'regex': {
      const corpus = text()
      results = m.regex.map((p) => {
        const found =
          m.matchAll || hits.length < MAX_HITS
            ? env.regex.findAll(m.caseInsensitive ? `(?i)${p}` : p, corpus, 0, m.matchAll ? MAX_HITS : 1)
            : []
        hits.push(...found.slice(0, MAX_HITS - hits.length))
        return found.length > 0
      })
      break
    }
    case 'binary': {
      const bytes = m.part === 'body' && bodyBytes ? bodyBytes : Buffer.from(text(), 'latin1')
      results = m.binary.map((h) => {
        const ok = bytes.includes(Buffer.from(h, 'hex'))
        if (ok) hits.push(h)
        return ok
      })
      break
    }
    case 'status': {
      const s = Number(partOf(env, 'status_code'))
      results = [m.status.includes(s)]
      if (results[0]) hits.push(String(s))
      break
    }
    case 'size': {
      const n = Number(partOf(env, 'content_length'))
      results = [m.size.includes(n)]
      if (results[0]) hits.push(`${n} bytes`)
      break
    }
    case 'dsl':
      results = m.dsl.map((e) => {
        const ok = truthy(evalOrMissing(e, env))
        if (ok) hits.push(e)
        return ok
      })
      break
  }
  // status and size test "any of the values" whatever the condition says.
  const matched = m.type === 'status' || m.type === 'size' ? results[0]! : combine(results, m.condition)
  return m.negative ? { matched: !matched, hits: [] } : { matched, hits }
}

export function runMatchers(
  ms: readonly Matcher[],
  condition: 'and' | 'or',
  env: EvalEnv,
  bodyBytes?: Buffer,
): MatchOutcome & { names: string[] } {
  const hits: string[] = []
  const names: string[] = []
  const results: boolean[] = []
  for (const m of ms) {
    const r = runMatcher(m, env, bodyBytes)
    results.push(r.matched)
    if (r.matched) {
      if (!m.internal) hits.push(...r.hits)
      if (m.name && !m.internal) names.push(m.name)
    } else if (condition === 'and') break
  }
  // No matchers (extractor-only templates): the template matched when an extractor found something.
  const matched = ms.length > 0 && (condition === 'and' ? results.length === ms.length && results.every(Boolean) : results.some(Boolean))
  return { matched, hits: hits.slice(0, MAX_HITS), names }
}

const jqCache = new Map<string, ReturnType<typeof parseJq>>()
const xpCache = new Map<string, ReturnType<typeof parseXPath>>()
const cached = <T>(c: Map<string, T>, k: string, f: (k: string) => T): T => {
  let v = c.get(k)
  if (v === undefined) {
    v = f(k)
    if (c.size > 2000) c.clear()
    c.set(k, v)
  }
  return v
}

export function runExtractor(x: Extractor, env: EvalEnv, headers: Record<string, string>, setCookies: string[]): string[] {
  const out: string[] = []
  const text = () => partOf(env, x.part)
  switch (x.type) {
    case 'regex':
      for (const p of x.regex) out.push(...env.regex.findAll(x.caseInsensitive ? `(?i)${p}` : p, text(), x.group, MAX_HITS))
      break
    case 'kval': {
      const cookies = Object.fromEntries(
        setCookies.map((c) => c.split(';')[0]!.split('=')).map(([k, ...v]) => [k!.trim().toLowerCase().replace(/-/g, '_'), v.join('=')]),
      )
      const hs = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.replace(/-/g, '_'), v]))
      for (const k of x.kval) {
        const key = k.toLowerCase().replace(/-/g, '_')
        const v = hs[key] ?? cookies[key]
        if (v !== undefined) out.push(v)
      }
      break
    }
    case 'json': {
      const t = text()
      if (t.length > MAX_JSON) break
      let doc: unknown
      try {
        doc = JSON.parse(t)
      } catch {
        break
      }
      for (const q of x.json)
        for (const v of runJq(cached(jqCache, q, parseJq), doc)) out.push(typeof v === 'string' ? v : JSON.stringify(v))
      break
    }
    case 'xpath': {
      const root = parseMarkup(text().slice(0, 1 << 20))
      for (const q of x.xpath) out.push(...runXPath(cached(xpCache, q, parseXPath), root, x.attribute))
      break
    }
    case 'dsl':
      for (const e of x.dsl) {
        const v = evalOrMissing(e, env)
        if (v !== null && v !== '' && v !== false) out.push(toStr(v))
      }
      break
  }
  return [...new Set(out)].slice(0, MAX_HITS)
}
