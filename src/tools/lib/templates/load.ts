// Loads one template file: YAML → typed Template, or the reason it is skipped. A template that uses
// a feature Ward does not run is refused whole at load time (never half-run).
import { parse as parseYaml } from 'yaml'
import type { Attack, Extractor, HttpBlock, Matcher, Severity, Template, TemplateInfo } from './model.js'
import { compileDsl } from './dsl-eval.js'
import { callsOf, DslError } from './dsl-parse.js'
import { DSL_FUNCTIONS } from './dsl-functions.js'
import { compileRegex, RegexError } from './regex.js'
import { markersOf } from './interpolate.js'
import { FlowError, parseFlow } from './flow.js'
import { JqError, parseJq } from './jq.js'
import { parseXPath, XPathError } from './xpath.js'

export type LoadResult = { ok: true; template: Template; files: Record<string, string> } | { ok: false; reason: string; id?: string }

export interface LoadOptions {
  /** The file's path inside the imported tree (for messages and relative payload files). */
  path: string
  /** Reads a payload file a template names (relative to the template or the tree); null when absent. */
  readFile?: (ref: string) => string | null
}

/** Bounds of what one template may ask for. */
export const TEMPLATE_LIMITS = {
  fileBytes: 512 * 1024,
  requestsPerBlock: 50,
  payloadValues: 10_000,
  payloadFileBytes: 1 << 20,
}

class Skip extends Error {}
const skip = (reason: string): never => {
  throw new Skip(reason)
}

const UNSUPPORTED_PROTOCOLS: Record<string, string> = {
  code: 'code protocol (runs local code) is not supported',
  headless: 'headless (browser) protocol is not supported',
  javascript: 'javascript protocol is not supported',
  file: 'file protocol (reads local files) is not supported',
  workflows: 'workflows are not supported',
  websocket: 'websocket protocol is not supported',
  whois: 'whois protocol is not supported',
}
const PROTOCOL_KEYS: Record<string, Template['protocol']> = {
  http: 'http',
  requests: 'http',
  tcp: 'tcp',
  network: 'tcp',
  dns: 'dns',
  ssl: 'ssl',
}
const SEVERITIES = new Set(['info', 'low', 'medium', 'high', 'critical', 'unknown'])
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string =>
  v == null ? '' : typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : ''
/** A string or a list of strings (also comma-separated strings, as `tags` and `author` are written). */
const list = (v: unknown, comma = false): string[] => {
  const items = Array.isArray(v) ? v.map(str) : v == null ? [] : [str(v)]
  return (comma ? items.flatMap((s) => s.split(',')) : items).map((s) => s.trim()).filter(Boolean)
}
const bool = (v: unknown) => v === true || v === 'true'

export function loadTemplate(text: string, o: LoadOptions): LoadResult {
  let id: string | undefined
  try {
    if (Buffer.byteLength(text) > TEMPLATE_LIMITS.fileBytes) skip(`file larger than ${TEMPLATE_LIMITS.fileBytes} bytes`)
    let doc: unknown
    try {
      doc = parseYaml(text, { maxAliasCount: 100, prettyErrors: false })
    } catch (e) {
      skip(`not valid YAML: ${(e as Error).message.split('\n')[0]}`)
    }
    if (!isObj(doc)) skip('not a template (no YAML mapping)')
    const d = doc as Record<string, unknown>
    if (typeof d.id !== 'string' || !ID.test(d.id)) skip('missing or invalid id')
    id = d.id as string
    if (!isObj(d.info)) skip('missing info')
    for (const k of Object.keys(UNSUPPORTED_PROTOCOLS)) if (k in d && UNSUPPORTED_PROTOCOLS[k]) skip(UNSUPPORTED_PROTOCOLS[k]!)
    if (bool(d['self-contained'])) skip('self-contained templates (requests to fixed hosts, not the target) are not supported')
    // The interaction URL or an interactsh part (a description that only mentions it does not count).
    if (/\{\{\s*interactsh-url|interactsh_(?:protocol|request|response)/.test(text))
      skip('needs an out-of-band interaction server (interactsh); Ward has none configured')
    const protocols = [
      ...new Set(
        Object.keys(d)
          .filter((k) => k in PROTOCOL_KEYS)
          .map((k) => PROTOCOL_KEYS[k]!),
      ),
    ]
    if (protocols.length === 0) skip('no supported protocol (http, tcp/network, dns, ssl)')
    if (protocols.length > 1) skip(`several protocols in one template (${protocols.join(', ')}) are not supported`)
    const protocol = protocols[0]!
    const files: Record<string, string> = {}
    const variables: Record<string, string> = {}
    if (isObj(d.variables)) for (const [k, v] of Object.entries(d.variables)) variables[k] = str(v)
    checkMarkers(Object.values(variables))
    const blocks = protocol === 'http' ? list2(d.http ?? d.requests).map((b) => httpBlock(b, o, files)) : []
    if (protocol === 'http' && blocks.length === 0) skip('http: has no request')
    const template: Template = {
      id: id!,
      info: info(d.info as Record<string, unknown>),
      protocol,
      variables,
      http: blocks,
      stopAtFirstMatch: bool(d['stop-at-first-match']),
      flow: 'flow' in d ? parseFlow(str(d.flow), blocks.length) : null,
      path: o.path,
    }
    return { ok: true, template, files }
  } catch (e) {
    if (e instanceof Skip) return { ok: false, reason: e.message, id }
    if (e instanceof DslError || e instanceof FlowError || e instanceof RegexError || e instanceof JqError || e instanceof XPathError)
      return { ok: false, reason: e.message, id }
    throw e
  }
}

const list2 = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObj) : [])

function info(i: Record<string, unknown>): TemplateInfo {
  const sev = str(i.severity).toLowerCase() || 'unknown'
  if (!SEVERITIES.has(sev)) skip(`unknown severity ${JSON.stringify(sev.slice(0, 20))}`)
  const c = isObj(i.classification) ? i.classification : {}
  const numOrNull = (v: unknown) => (v == null || v === '' || Number.isNaN(Number(v)) ? null : Number(v))
  return {
    name: str(i.name).trim() || skip('info.name is missing'),
    author: list(i.author, true),
    severity: sev as Severity,
    tags: list(i.tags, true).map((t) => t.toLowerCase()),
    description: str(i.description).trim(),
    reference: list(i.reference),
    remediation: str(i.remediation).trim(),
    classification: {
      cveId: list(c['cve-id'], true).map((s) => s.toUpperCase()),
      cweId: list(c['cwe-id'], true).map((s) => s.toUpperCase()),
      cvssMetrics: str(c['cvss-metrics']) || null,
      cvssScore: numOrNull(c['cvss-score']),
      epssScore: numOrNull(c['epss-score']),
      cpe: str(c.cpe) || null,
    },
  }
}

const KNOWN = new Set(Object.keys(DSL_FUNCTIONS))
function checkDsl(expr: string) {
  for (const f of callsOf(compileDsl(expr))) if (!KNOWN.has(f)) skip(`DSL function ${f} is not supported`)
}
/** Every {{...}} marker must parse, and call only known helpers. */
function checkMarkers(texts: string[]) {
  for (const t of texts) for (const m of markersOf(t)) checkDsl(m)
}

function httpBlock(b: Record<string, unknown>, o: LoadOptions, files: Record<string, string>): HttpBlock {
  if (bool(b.unsafe)) skip('unsafe raw requests (sent byte for byte) are not supported')
  if (bool(b.race) || b['race_count'] != null) skip('race requests are not supported')
  if ('fuzzing' in b) skip('fuzzing rules are not supported')
  if (bool(b.pipeline)) skip('pipelined requests are not supported')
  const paths = list(b.path)
  const raw = list(b.raw)
  if (paths.length + raw.length === 0) skip('an http request has neither path nor raw')
  if (paths.length + raw.length > TEMPLATE_LIMITS.requestsPerBlock)
    skip(`more than ${TEMPLATE_LIMITS.requestsPerBlock} requests in one block`)
  const headers: Record<string, string> = {}
  if (isObj(b.headers)) for (const [k, v] of Object.entries(b.headers)) headers[k] = str(v)
  const attack = (str(b.attack) || 'batteringram').toLowerCase()
  if (!['batteringram', 'pitchfork', 'clusterbomb'].includes(attack)) skip(`unknown payload attack ${JSON.stringify(attack.slice(0, 20))}`)
  const payloads: Record<string, string[]> = {}
  if (isObj(b.payloads))
    for (const [k, v] of Object.entries(b.payloads)) {
      if (Array.isArray(v)) payloads[k] = v.map(str)
      else {
        const ref = str(v)
        const content = o.readFile?.(ref)
        if (content == null) skip(`payload file ${ref} is not in the imported tree`)
        if (Buffer.byteLength(content!) > TEMPLATE_LIMITS.payloadFileBytes)
          skip(`payload file ${ref} is larger than ${TEMPLATE_LIMITS.payloadFileBytes} bytes`)
        files[ref] = content!
        payloads[k] = content!.split(/\r?\n/).filter((l) => l !== '')
      }
      if (payloads[k]!.length > TEMPLATE_LIMITS.payloadValues) skip(`payload ${k} has more than ${TEMPLATE_LIMITS.payloadValues} values`)
    }
  const block: HttpBlock = {
    method: (str(b.method) || 'GET').toUpperCase(),
    paths,
    raw,
    headers,
    body: str(b.body),
    redirects: bool(b.redirects) || bool(b['host-redirects']),
    hostRedirects: bool(b['host-redirects']),
    maxRedirects: Math.min(Number(b['max-redirects'] ?? 10) || 10, 10),
    disableCookie: bool(b['disable-cookie']),
    stopAtFirstMatch: bool(b['stop-at-first-match']),
    reqCondition: bool(b['req-condition']) || numberedResponseParts(b),
    matchersCondition: str(b['matchers-condition']).toLowerCase() === 'and' ? 'and' : 'or',
    matchers: list2(b.matchers).map(matcher),
    extractors: list2(b.extractors).map(extractor),
    payloads,
    attack: attack as Attack,
  }
  if (!/^[A-Z]{1,16}$/.test(block.method)) skip(`invalid method ${JSON.stringify(block.method.slice(0, 20))}`)
  checkMarkers([...paths, ...raw, ...Object.values(headers), block.body])
  if (block.matchers.length === 0 && block.extractors.length === 0) skip('an http request has no matchers and no extractors')
  return block
}

/**
 * Whether matchers or extractors name a numbered response (status_code_1, body_2): nuclei then turns
 * req-condition on by itself, and community templates rely on it.
 */
function numberedResponseParts(b: Record<string, unknown>): boolean {
  const exprs = [...list2(b.matchers), ...list2(b.extractors)].flatMap((m) => [...list(m.dsl), str(m.part)])
  return exprs.some((e) => /\b(?:status_code|body|header|all_headers|response|raw|content_length|content_type|duration)_\d+\b/.test(e))
}

const MATCHER_TYPES = new Set(['word', 'regex', 'status', 'size', 'binary', 'dsl'])
function matcher(m: Record<string, unknown>): Matcher {
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
function extractor(x: Record<string, unknown>): Extractor {
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
