// Proof rules of the active (deep-scan) checks: pure decisions over responses to injected payloads.
// Every payload is harmless: markers, quotes, arithmetic, reads of /etc/passwd, "sleep".

export const XSS_TAG = 'wardxss1337'
export const XSS_PAYLOAD = `"'><${XSS_TAG}>`
export const REDIRECT_HOST = 'ward-redirect-probe.example'
export const REDIRECT_PAYLOADS = [`https://${REDIRECT_HOST}/`, `//${REDIRECT_HOST}/`]
export const TRAVERSAL_PAYLOADS = [
  '../../../../../../../../etc/passwd',
  '/etc/passwd',
  '....//....//....//....//....//etc/passwd',
  '..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
]
export const SSTI_PAYLOADS = [
  { payload: '{{7*191}}', confirm: '{{7*1913}}' },
  { payload: '${7*191}', confirm: '${7*1913}' },
  { payload: '<%= 7*191 %>', confirm: '<%= 7*1913 %>' },
  { payload: '#{7*191}', confirm: '#{7*1913}' },
]
export const SSTI_RESULT = '1337'
export const SSTI_CONFIRM = '13391'
/** Shell separators tried before `sleep N`. */
export const CMD_SEPARATORS = [';', '|', '&&', '$(', '`'] as const
export const cmdPayload = (value: string, sep: (typeof CMD_SEPARATORS)[number], seconds: number) =>
  sep === '$(' ? `${value}$(sleep ${seconds})` : sep === '`' ? `${value}\`sleep ${seconds}\`` : `${value}${sep}sleep ${seconds}`

export interface Answer {
  status: number
  contentType: string
  location?: string
  body: string
  elapsedMs: number
}

/** An excerpt around the first occurrence of `needle` (for evidence). */
export function around(body: string, needle: string | RegExp, width = 80): string {
  const i = typeof needle === 'string' ? body.indexOf(needle) : body.search(needle)
  if (i < 0) return ''
  return body
    .slice(Math.max(0, i - width), i + width + (typeof needle === 'string' ? needle.length : 0))
    .replace(/\s+/g, ' ')
    .trim()
}

export function xssProof(a: Answer): string | null {
  if (!/html/i.test(a.contentType) && a.contentType !== '') return null
  return a.body.includes(`<${XSS_TAG}>`) ? around(a.body, `<${XSS_TAG}>`) : null
}

const SQL_ERRORS: RegExp[] = [
  /You have an error in your SQL syntax/i,
  /SQL syntax.{0,80}MySQL/i,
  /Warning.{0,40}\bmysqli?_/i,
  /Unclosed quotation mark after the character string/i,
  /Microsoft OLE DB Provider for (SQL Server|ODBC)/i,
  /unterminated quoted string at or near/i,
  /syntax error at or near/i,
  /\bPG::SyntaxError\b|\bpsycopg2\.errors\b|pg_query\(\)/i,
  /SQLITE_ERROR|SQLite3::|sqlite3\.OperationalError|unrecognized token: "'/i,
  /near "[^"]{0,40}": syntax error/i,
  /ORA-0(0933|0921|1756)\b|quoted string not properly terminated/i,
  /\bSQLSTATE\[\w+\]/,
]

/** A database error message present in the injected answer and absent from the baseline. */
export function sqlErrorProof(a: Answer, baseline: Answer): string | null {
  for (const r of SQL_ERRORS) if (r.test(a.body) && !r.test(baseline.body)) return around(a.body, r, 100)
  return null
}

/** The body without reflections of the payload, whitespace folded: what "the same page" compares. */
export function normalisedBody(body: string, payloads: string[]): string {
  let b = body
  for (const p of payloads) {
    if (!p) continue
    for (const form of new Set([p, encodeURIComponent(p), escapeHtml(p)])) b = b.split(form).join('')
  }
  return b.replace(/\s+/g, ' ').trim()
}

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

export function samePage(a: Answer, b: Answer, payloads: string[]): boolean {
  if (a.status !== b.status) return false
  const x = normalisedBody(a.body, payloads)
  const y = normalisedBody(b.body, payloads)
  if (x === y) return true
  return (
    Math.abs(x.length - y.length) <= Math.max(8, Math.min(x.length, y.length) * 0.01) &&
    x.length > 0 &&
    y.length > 0 &&
    commonPrefix(x, y) > 0.9 * Math.min(x.length, y.length)
  )
}

function commonPrefix(a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return i
}

/** Boolean-based SQLi: the true condition keeps the baseline page, the false one changes it. */
export function booleanDiffers(baseline: Answer, whenTrue: Answer, whenFalse: Answer, payloads: string[]): boolean {
  return samePage(baseline, whenTrue, payloads) && !samePage(baseline, whenFalse, payloads)
}

const PASSWD = /root:[^:\r\n]*:0:0:[^\r\n]*/

export function traversalProof(a: Answer, baseline: Answer): string | null {
  const m = PASSWD.exec(a.body)
  if (!m || PASSWD.test(baseline.body)) return null
  return m[0]
}

export function openRedirectProof(a: Answer, requestUrl: string): string | null {
  if (a.status < 300 || a.status >= 400 || !a.location) return null
  try {
    return new URL(a.location, requestUrl).hostname === REDIRECT_HOST ? `${a.status} location: ${a.location}` : null
  } catch {
    return null
  }
}

/** Time-based: the sleep answer is late by nearly the requested delay, compared to the slowest baseline. */
export function delayed(elapsedMs: number, baselineMs: number[], seconds: number): boolean {
  const slowest = Math.max(0, ...baselineMs)
  return elapsedMs >= seconds * 1000 * 0.9 && elapsedMs - slowest >= seconds * 1000 * 0.8
}

export function sstiProof(a: Answer, baseline: Answer, expected = SSTI_RESULT): string | null {
  if (!a.body.includes(expected) || baseline.body.includes(expected)) return null
  return around(a.body, expected)
}
