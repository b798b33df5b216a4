// The parts of a template every protocol shares, as the loader reads them: matchers, extractors,
// {{...}} markers, and the YAML value helpers. A feature Ward does not run throws Skip (the template is refused whole).
import type { Extractor, Matcher } from './model.js'
import { compileDsl } from './dsl-eval.js'
import { callsOf } from './dsl-parse.js'
import { DSL_FUNCTIONS } from './dsl-functions.js'
import { compileRegex } from './regex.js'
import { markersOf } from './interpolate.js'
import { parseJq } from './jq.js'
import { parseXPath } from './xpath.js'

export class Skip extends Error {}
export const skip = (reason: string): never => {
  throw new Skip(reason)
}

export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
export const str = (v: unknown): string =>
  v == null ? '' : typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : ''
/** A string or a list of strings (also comma-separated strings, as `tags` and `author` are written). */
export const list = (v: unknown, comma = false): string[] => {
  const items = Array.isArray(v) ? v.map(str) : v == null ? [] : [str(v)]
  return (comma ? items.flatMap((s) => s.split(',')) : items).map((s) => s.trim()).filter(Boolean)
}
export const bool = (v: unknown) => v === true || v === 'true'

export const list2 = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObj) : [])

const KNOWN = new Set(Object.keys(DSL_FUNCTIONS))
export function checkDsl(expr: string) {
  for (const f of callsOf(compileDsl(expr))) if (!KNOWN.has(f)) skip(`DSL function ${f} is not supported`)
}
/** Every {{...}} marker must parse, and call only known helpers. */
export function checkMarkers(texts: string[]) {
  for (const t of texts) for (const m of markersOf(t)) checkDsl(m)
}

const MATCHER_TYPES = new Set(['word', 'regex', 'status', 'size', 'binary', 'dsl'])
export function matcher(m: Record<string, unknown>): Matcher {
  const type = str(m.type)
  if (!MATCHER_TYPES.has(type)) skip(`matcher type ${JSON.stringify(type.slice(0, 20))} is not supported`)
  const enc = str(m.encoding)
  if (enc && enc !== 'hex') skip(`matcher encoding ${enc} is not supported`)
  const ci = bool(m['case-insensitive'])
  const r: Matcher = {
    type: type as Matcher['type'],
    name: str(m.name) || undefined,
    part: str(m.part) || 'body',
    condition: str(m.condition).toLowerCase() === 'and' ? 'and' : 'or',
    negative: bool(m.negative),
    caseInsensitive: ci,
    internal: bool(m.internal),
    matchAll: bool(m['match-all']),
    hex: enc === 'hex',
    words: list(m.words),
    regex: list(m.regex),
    status: list(m.status).map(Number).filter(Number.isFinite),
    size: list(m.size).map(Number).filter(Number.isFinite),
    binary: list(m.binary),
    dsl: list(m.dsl),
  }
  r.regex.forEach((p) => compileRegex(p, ci))
  r.dsl.forEach(checkDsl)
  checkMarkers(r.words)
  if (r.binary.some((h) => !/^(?:[0-9a-f]{2})*$/i.test(h)) || (r.hex && r.words.some((h) => !/^(?:[0-9a-f]{2})*$/i.test(h))))
    skip('a binary/hex matcher holds non-hex text')
  const values = { word: r.words, regex: r.regex, status: r.status, size: r.size, binary: r.binary, dsl: r.dsl }[r.type]
  if (values.length === 0) skip(`a ${r.type} matcher has no values`)
  return r
}

const EXTRACTOR_TYPES = new Set(['regex', 'kval', 'json', 'xpath', 'dsl'])
export function extractor(x: Record<string, unknown>): Extractor {
  const type = str(x.type)
  if (!EXTRACTOR_TYPES.has(type)) skip(`extractor type ${JSON.stringify(type.slice(0, 20))} is not supported`)
  const ci = bool(x['case-insensitive'])
  const r: Extractor = {
    type: type as Extractor['type'],
    name: str(x.name) || undefined,
    part: str(x.part) || 'body',
    internal: bool(x.internal),
    group: Number(x.group ?? 0) || 0,
    caseInsensitive: ci,
    regex: list(x.regex),
    kval: list(x.kval),
    json: list(x.json),
    xpath: list(x.xpath),
    attribute: str(x.attribute) || undefined,
    dsl: list(x.dsl),
  }
  r.regex.forEach((p) => compileRegex(p))
  r.dsl.forEach(checkDsl)
  r.json.forEach(parseJq)
  r.xpath.forEach(parseXPath)
  return r
}
