// Loads one template file: YAML → typed Template, or the reason it is skipped. A template that uses
// a feature Ward does not run is refused whole at load time (never half-run).
import { parse as parseYaml } from 'yaml'
import type { Attack, HttpBlock, Severity, Template, TemplateInfo } from './model.js'
import { DslError } from './dsl-parse.js'
import { RegexError } from './regex.js'
import { JqError } from './jq.js'
import { XPathError } from './xpath.js'
import { bool, checkMarkers, extractor, isObj, list, list2, matcher, Skip, skip, str } from './load-parts.js'
import { parseTcpBlock } from './tcp-load.js'
import { parseSslBlock } from './ssl-load.js'
import { parseDnsBlock } from './dns-load.js'
import { FlowError, parseFlow } from './flow.js'

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
    const other = otherBlocks(protocol, d)
    const template: Template = {
      id: id!,
      info: info(d.info as Record<string, unknown>),
      protocol,
      variables,
      http: blocks,
      ...other,
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

/** The blocks of a tcp/network, ssl or dns template (each protocol's loader in its own module). */
function otherBlocks(protocol: Template['protocol'], d: Record<string, unknown>): Partial<Template> {
  const of = <T>(v: unknown, parse: (b: Record<string, unknown>) => T): T[] => {
    const blocks = list2(v).map(parse)
    if (blocks.length === 0) skip(`${protocol}: has no request`)
    return blocks
  }
  if (protocol === 'tcp') return { tcp: of(d.tcp ?? d.network, parseTcpBlock) }
  if (protocol === 'ssl') return { ssl: of(d.ssl, parseSslBlock) }
  if (protocol === 'dns') return { dns: of(d.dns, parseDnsBlock) }
  return {}
}

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
