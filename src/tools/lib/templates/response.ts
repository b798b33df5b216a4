// One response as the parts and DSL variables matchers and extractors read (nuclei's names).
import type { HttpResponse } from '../../../toolkit/egress.js'
import type { Value } from './dsl-parse.js'

export interface TemplateResponse {
  /** The request line sent ("GET /path HTTP/1.1"), for evidence. */
  requestLine: string
  url: string
  status: number
  /** Header block as a server sends it ("Name: value" lines, Go's canonical name case). */
  headerText: string
  headers: Record<string, string>
  setCookies: string[]
  body: string
  bodyBytes: Buffer
  truncated: boolean
  durationMs: number
}

/** Content-Type → Content-Type, x-powered-by → X-Powered-By (Go's CanonicalMIMEHeaderKey). */
export const canonicalHeader = (name: string) =>
  name.toLowerCase().replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase())

export function toTemplateResponse(r: HttpResponse, requestLine: string): TemplateResponse {
  const lines: string[] = []
  for (const [k, v] of Object.entries(r.headers)) if (k !== 'set-cookie') lines.push(`${canonicalHeader(k)}: ${v}`)
  for (const c of r.setCookies) lines.push(`Set-Cookie: ${c}`)
  return {
    requestLine,
    url: r.url,
    status: r.status,
    headerText: `HTTP/1.1 ${r.status}\r\n${lines.join('\r\n')}\r\n`,
    headers: r.headers,
    setCookies: r.setCookies,
    body: r.body.toString('utf8'),
    bodyBytes: r.body,
    truncated: r.truncated,
    durationMs: r.elapsedMs,
  }
}

/** DSL variables of a response; `suffix` ('_2') names them for req-condition templates. */
export function responseVars(r: TemplateResponse, suffix = ''): Record<string, Value> {
  const v: Record<string, Value> = {
    status_code: r.status,
    body: r.body,
    header: r.headerText,
    all_headers: r.headerText,
    response: r.headerText + '\r\n' + r.body,
    raw: r.headerText + '\r\n' + r.body,
    all: r.headerText + '\r\n' + r.body,
    content_length: Number(r.headers['content-length'] ?? r.bodyBytes.length) || r.bodyBytes.length,
    content_type: r.headers['content-type'] ?? '',
    duration: r.durationMs / 1000,
    location: r.headers['location'] ?? '',
  }
  // Every header is a variable too: x-powered-by → x_powered_by.
  for (const [k, val] of Object.entries(r.headers)) {
    const name = k.replace(/-/g, '_')
    if (!(name in v)) v[name] = val
  }
  if (!suffix) return v
  return Object.fromEntries(Object.entries(v).map(([k, val]) => [k + suffix, val]))
}
