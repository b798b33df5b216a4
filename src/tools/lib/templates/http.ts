// Runs the http requests of one template against one target: builds each request (paths or raw,
// variables, payloads), sends it through the tool's egress (scope guard, per-host rate, timeout,
// body bound), follows redirects by the scan's policy, keeps cookies, and evaluates matchers and
// extractors (per request, or over all of a block's responses with req-condition).
import { ipVersion, stripBrackets } from '../../../toolkit/ip.js'
import type { HttpResponse } from '../../../toolkit/egress.js'
import type { RedirectLevel } from '../../../toolkit/tool.js'
import { redirectAllowed } from '../http/redirect-policy.js'
import type { HttpBlock, Template } from './model.js'
import type { Value } from './dsl-parse.js'
import type { EvalEnv } from './dsl-eval.js'
import { interpolate, RunVars, UnresolvedError } from './interpolate.js'
import { combinations } from './payloads.js'
import { evalFlow } from './flow.js'
import { responseVars, toTemplateResponse, type TemplateResponse } from './response.js'
import { runExtractor, runMatchers } from './match.js'
import type { RequestCluster } from './cluster.js'
import type { RegexRunner } from './regex.js'

export interface HttpSendRequest {
  method: string
  headers: Record<string, string>
  body?: string
}

export interface TemplateHttpEnv {
  /** Where the templates run ({{BaseURL}}). */
  target: URL
  /** One request through the scan's egress; throws on refusal, timeout, scope block. */
  send(url: string, req: HttpSendRequest): Promise<HttpResponse>
  redirectLevel: RedirectLevel
  cluster?: RequestCluster
  signal: AbortSignal
  /** Values the user gave for variables templates leave open ({{username}}): they win over a template's defaults. */
  variables?: Readonly<Record<string, string>>
}

export interface TemplateMatch {
  requestLine: string
  url: string
  /** Names of the matchers that matched (named matchers report sub-findings). */
  matcherNames: string[]
  hits: string[]
  extracted: string[]
  truncated: boolean
}

export class TemplateScopeError extends Error {
  override name = 'TemplateScopeError'
}

/** The target's variables: {{BaseURL}}, {{RootURL}}, {{Hostname}}, {{Host}}, {{Port}}, {{Path}}, {{File}}, {{Scheme}}. */
export function targetVars(u: URL): Record<string, string> {
  const port = u.port || (u.protocol === 'https:' ? '443' : '80')
  const path = u.pathname.replace(/\/+$/, '')
  return {
    BaseURL: u.href.replace(/\/+$/, '').replace(/\/(?=[?#])/, ''),
    RootURL: u.origin,
    Hostname: u.host,
    Host: u.hostname.replace(/^\[|\]$/g, ''),
    Port: port,
    Path: path,
    File: path.split('/').pop() ?? '',
    Scheme: u.protocol.replace(':', ''),
    // The address connected to, where the target names one (a name's address is the egress's to resolve).
    ...(ipVersion(stripBrackets(u.hostname)) ? { ip: stripBrackets(u.hostname) } : {}),
  }
}

interface Built {
  url: string
  method: string
  headers: Record<string, string>
  body: string
}

/** A raw request after interpolation → method, URL (relative to the target's root) and headers. */
function parseRaw(raw: string, root: string): Built {
  const text = stripAnnotations(raw.replace(/^\s+/, '').replace(/\r\n/g, '\n'), root)
  const split = text.indexOf('\n\n')
  const head = split < 0 ? text : text.slice(0, split)
  const body = split < 0 ? '' : text.slice(split + 2)
  const [line, ...lines] = head.split('\n')
  const m = /^([A-Za-z]+)\s+(\S+)(?:\s+HTTP\/[\d.]+)?\s*$/.exec(line ?? '')
  if (!m) throw new Error(`raw request line ${JSON.stringify((line ?? '').slice(0, 80))} is not METHOD PATH HTTP/x`)
  const headers: Record<string, string> = {}
  for (const l of lines) {
    const i = l.indexOf(':')
    if (i <= 0) continue
    const k = l.slice(0, i).trim()
    // The connection decides these; the egress writes its own.
    if (/^(host|content-length|connection|transfer-encoding)$/i.test(k)) continue
    headers[k] = l.slice(i + 1).trim()
  }
  const target = /^https?:\/\//i.test(m[2]!) ? m[2]! : root + (m[2]!.startsWith('/') ? '' : '/') + m[2]!
  return { method: m[1]!.toUpperCase(), url: target, headers, body: body.replace(/\n/g, '\r\n') }
}

/**
 * Leading request annotations (`@timeout: 10s`, `@Host: ...`, `@tls-sni: ...`) are dropped: Ward's own
 * request timeout bounds every request, and `@Host` may only name the target itself.
 */
function stripAnnotations(text: string, root: string): string {
  let rest = text
  for (let m = /^@([\w-]+):?[ \t]*([^\n]*)\n/.exec(rest); m; m = /^@([\w-]+):?[ \t]*([^\n]*)\n/.exec(rest)) {
    if (m[1]!.toLowerCase() === 'host') {
      const value = m[2]!.trim()
      const host = /^[a-z][\w+.-]*:\/\//i.test(value) ? new URL(value).hostname : value.replace(/:\d+$/, '')
      if (host.toLowerCase() !== new URL(root).hostname.toLowerCase())
        throw new TemplateScopeError(`request to ${host.slice(0, 100)} refused: templates only reach the target ${new URL(root).host}`)
    }
    rest = rest.slice(m[0].length)
  }
  return rest
}

const requestCount = (block: HttpBlock) => block.paths.length + block.raw.length

/**
 * Request `i` of a block (paths, then raw), interpolated with the run's variables at the time it is
 * sent, so a step can use what an earlier step extracted.
 */
function buildRequest(block: HttpBlock, i: number, env: EvalEnv, root: string): Built {
  const p = block.paths[i]
  if (p === undefined) return parseRaw(interpolate(block.raw[i - block.paths.length]!, env), root)
  const headers = Object.fromEntries(Object.entries(block.headers).map(([k, v]) => [k, interpolate(v, env)]))
  return { method: block.method, url: interpolate(p, env), headers, body: interpolate(block.body, env) }
}

/** The names the template's extractors give their values (variables of later steps). */
export const extractorNames = (t: Template): Set<string> =>
  new Set(t.http.flatMap((b) => b.extractors.flatMap((x) => (x.name ? [x.name] : []))))

const sameHost = (a: URL, b: URL) => a.hostname.toLowerCase() === b.hostname.toLowerCase()

export interface HttpRunStats {
  requests: number
  failures: string[]
}

/** What one run of a template keeps across its requests: variables, cookies, counts. */
interface TemplateRun {
  t: Template
  env: TemplateHttpEnv
  regex: RegexRunner
  stats: HttpRunStats
  vars: RunVars
  evalEnv: EvalEnv
  jar: Map<string, string>
  root: string
}

/**
 * Runs a template's http blocks. Returns what matched (empty: nothing did). Throws for template
 * errors (unresolvable variable, regex budget, payload cap, a request aimed off the target).
 */
export async function runHttpTemplate(
  t: Template,
  env: TemplateHttpEnv,
  regex: RegexRunner,
  stats: HttpRunStats = { requests: 0, failures: [] },
): Promise<TemplateMatch[]> {
  const vars = new RunVars(Object.entries(targetVars(env.target)))
  const evalEnv: EvalEnv = { vars, regex }
  for (const [k, v] of Object.entries(env.variables ?? {})) vars.set(k, v)
  // Template variables may refer to each other, to the target's and to the user's: resolved in order.
  for (const [k, v] of Object.entries(t.variables)) if (!env.variables?.[k]) vars.set(k, interpolate(v, evalEnv))
  const run: TemplateRun = { t, env, regex, stats, vars, evalEnv, jar: new Map(), root: targetVars(env.target).RootURL! }
  const matches: TemplateMatch[] = []
  if (t.flow) {
    await evalFlow(t.flow, async (n) => {
      let any = false
      for (const block of n === null ? t.http : [t.http[n - 1]!]) {
        const found: TemplateMatch[] = []
        await runBlock(run, block, found)
        any ||= found.length > 0
        // A block whose matchers are all internal is a precondition (is this the product?): not reported.
        if (block.matchers.some((m) => !m.internal) || block.matchers.length === 0) matches.push(...found)
      }
      return any
    })
    return matches
  }
  for (const block of t.http) if (await runBlock(run, block, matches)) return matches
  return matches
}

/** One block over its payload combinations; true when the run ends here (aborted, or stopped at a match). */
async function runBlock(run: TemplateRun, block: HttpBlock, matches: TemplateMatch[]): Promise<boolean> {
  for (const combo of combinations(block.payloads, block.attack)) {
    if (run.env.signal.aborted) return true
    for (const [k, v] of Object.entries(combo)) run.vars.set(k, v)
    if (await runRequests(run, block, matches)) return true
  }
  return false
}

/**
 * The requests of one block for one payload combination, each matched on its own or, with
 * req-condition, all of them together after the last. Adds to `matches`; true when the run ends here
 * (aborted, or a match where the block or template stops at the first).
 */
async function runRequests(run: TemplateRun, block: HttpBlock, matches: TemplateMatch[]): Promise<boolean> {
  const { env, t } = run
  const responses: TemplateResponse[] = []
  for (let i = 0; i < requestCount(block); i++) {
    if (env.signal.aborted) return true
    let built: Built
    try {
      built = buildRequest(block, i, run.evalEnv, run.root)
    } catch (e) {
      // A value an earlier step was to extract is missing: the target is not what this sequence
      // needs, so it ends here unmatched (as nuclei skips such a request).
      if (e instanceof UnresolvedError && e.variable && extractorNames(t).has(e.variable)) return false
      throw e
    }
    let r: TemplateResponse
    try {
      r = await sendRequest(run, built, block)
    } catch (e) {
      if (e instanceof TemplateScopeError || env.signal.aborted) throw e
      run.stats.failures.push((e as Error).message)
      // A request that got no answer ends this sequence (later steps depend on it).
      if (block.reqCondition) break
      continue
    }
    responses.push(r)
    if (block.reqCondition) {
      // Responses are named by their step: status_code_1, body_2 ...; the latest also unsuffixed.
      const all = responseVars(r, `_${i + 1}`)
      for (const [k, v] of Object.entries(all)) run.vars.set(k, v)
      continue
    }
    const { m, extracted } = matchResponse(run, block, r, true)
    if (m.matched) {
      matches.push({ requestLine: r.requestLine, url: r.url, matcherNames: m.names, hits: m.hits, extracted, truncated: r.truncated })
      if (block.stopAtFirstMatch || t.stopAtFirstMatch) return true
    }
  }
  if (block.reqCondition && responses.length) {
    const last = responses[responses.length - 1]!
    const { m, extracted } = matchResponse(run, block, last, false)
    if (m.matched) {
      matches.push({
        requestLine: responses.map((x) => x.requestLine).join(' → '),
        url: last.url,
        matcherNames: m.names,
        hits: m.hits,
        extracted,
        truncated: responses.some((x) => x.truncated),
      })
      if (block.stopAtFirstMatch || t.stopAtFirstMatch) return true
    }
  }
  return false
}

/**
 * The match step over one response: extractors, then matchers (none: a match when something was
 * extracted). `shareExtracted` makes the run's variables, extracted ones included, visible to the matchers.
 */
function matchResponse(run: TemplateRun, block: HttpBlock, r: TemplateResponse, shareExtracted: boolean) {
  const rv = new RunVars(run.vars)
  for (const [k, v] of Object.entries(responseVars(r))) rv.set(k, v as Value)
  const e: EvalEnv = { vars: rv, regex: run.regex }
  const extracted = extract(run, block, r, e)
  if (shareExtracted) for (const [k, v] of run.vars) if (!rv.has(k)) rv.set(k, v)
  const m = block.matchers.length
    ? runMatchers(block.matchers, block.matchersCondition, e, r.bodyBytes)
    : { matched: extracted.length > 0, hits: [], names: [] }
  return { m, extracted }
}

function extract(run: TemplateRun, block: HttpBlock, r: TemplateResponse, e: EvalEnv): string[] {
  const shown: string[] = []
  for (const x of block.extractors) {
    const vals = runExtractor(x, e, r.headers, r.setCookies)
    // Named values feed later requests ({{name}}); internal ones are never shown.
    if (x.name && vals.length) run.vars.set(x.name, vals[0]!)
    if (!x.internal) shown.push(...vals)
  }
  return shown
}

/** One request of a block, with the run's cookies, following redirects by the scan's policy. */
async function sendRequest(run: TemplateRun, b: Built, block: HttpBlock): Promise<TemplateResponse> {
  const { env, stats, jar, t } = run
  let url = new URL(b.url)
  if (!sameHost(url, env.target))
    throw new TemplateScopeError(`request to ${url.host.slice(0, 100)} refused: templates only reach the target ${env.target.host}`)
  const requestLine = `${b.method} ${url.pathname}${url.search} HTTP/1.1`
  const headers = { ...b.headers }
  if (!block.disableCookie && jar.size && !Object.keys(headers).some((h) => h.toLowerCase() === 'cookie'))
    headers.Cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const req: HttpSendRequest = { method: b.method, headers, body: b.body || undefined }
  let res: HttpResponse
  for (let hop = 0; ; hop++) {
    stats.requests++
    const u = url.href
    const key = `${req.method} ${u}\n${JSON.stringify(Object.entries(req.headers).sort())}\n${req.body ?? ''}`
    res =
      env.cluster && (req.method === 'GET' || req.method === 'HEAD')
        ? await env.cluster.get(key, t.id, () => env.send(u, req))
        : await env.send(u, req)
    if (!block.disableCookie)
      for (const c of res.setCookies) {
        const [nv] = c.split(';')
        const i = nv!.indexOf('=')
        if (i > 0) jar.set(nv!.slice(0, i).trim(), nv!.slice(i + 1).trim())
      }
    const loc = res.headers['location']
    if (!block.redirects || res.status < 300 || res.status > 399 || !loc || hop >= block.maxRedirects) break
    let next: URL
    try {
      next = new URL(loc, url)
    } catch {
      break
    }
    // Redirects follow the scan's one policy; host-redirects keep to the same host on top.
    if (
      !redirectAllowed(env.redirectLevel === 'none' ? 'same_host' : env.redirectLevel, url, next) ||
      (block.hostRedirects && !sameHost(next, url))
    )
      break
    url = next
    if (res.status !== 307 && res.status !== 308) {
      req.method = req.method === 'HEAD' ? 'HEAD' : 'GET'
      req.body = undefined
    }
  }
  return toTemplateResponse(res, requestLine)
}
