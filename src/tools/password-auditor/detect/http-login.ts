// Web logins: which login a page offers (HTTP Basic/Digest, or the form of a known product), and what
// the answer to a login attempt means. Pure; HTML is read with htmlparser2's tokenizer, linearly.
import { Parser } from 'htmlparser2'
import { saysLocked } from './lockout.js'

export type WebProduct = 'tomcat' | 'jenkins' | 'grafana' | 'phpmyadmin'

export type LoginSurface =
  | { kind: 'basic' | 'digest'; url: string; realm: string; product: WebProduct | null }
  | { kind: 'form'; url: string; product: Exclude<WebProduct, 'tomcat'> }

/** What an HTTP answer holds that a verdict needs. */
export interface WebAnswer {
  url: string
  status: number
  headers: Record<string, string>
  setCookies: string[]
  body: string
}

/** Paths requested on every web port to find the logins of known products. */
export const LOGIN_PATHS = ['/', '/manager/html', '/host-manager/html', '/login', '/phpmyadmin/'] as const

/** The inputs of the page's forms (name → value) and its title, read in one pass. */
export function readPage(html: string): { inputs: Record<string, string>; title: string } {
  const inputs: Record<string, string> = {}
  let title = ''
  let inTitle = false
  const p = new Parser({
    onopentag(name, attrs) {
      if (name === 'input' && attrs.name) inputs[attrs.name] = attrs.value ?? ''
      if (name === 'title') inTitle = true
    },
    ontext(t) {
      if (inTitle) title += t
    },
    onclosetag(name) {
      if (name === 'title') inTitle = false
    },
  })
  p.write(html.slice(0, 512 * 1024))
  p.end()
  return { inputs, title: title.trim() }
}

function challenge(a: WebAnswer): { kind: 'basic' | 'digest'; realm: string } | null {
  const h = a.headers['www-authenticate'] ?? ''
  const realm = /realm\s*=\s*"([^"]*)"/i.exec(h)?.[1] ?? ''
  if (/\bDigest\b/i.test(h)) return { kind: 'digest', realm }
  if (/\bBasic\b/i.test(h)) return { kind: 'basic', realm }
  return null
}

/** The logins the answers to LOGIN_PATHS show, each once. */
export function loginSurfaces(answers: readonly WebAnswer[]): LoginSurface[] {
  const out: LoginSurface[] = []
  const have = new Set<string>()
  const add = (s: LoginSurface) => {
    // One protection space (scheme and realm) is one login, however many paths it guards.
    const key = s.kind === 'form' ? `form ${s.product}` : `${s.kind} ${s.realm}`
    if (!have.has(key)) {
      have.add(key)
      out.push(s)
    }
  }
  for (const a of answers) {
    const path = new URL(a.url).pathname
    const c = a.status === 401 ? challenge(a) : null
    if (c) {
      const tomcat = /^\/(host-)?manager\//.test(path) || /tomcat/i.test(c.realm)
      add({ ...c, url: a.url, product: tomcat ? 'tomcat' : null })
      continue
    }
    if (a.status !== 200) continue
    const page = readPage(a.body)
    if (a.headers['x-jenkins'] !== undefined || ('j_username' in page.inputs && /jenkins/i.test(a.body)))
      add({ kind: 'form', product: 'jenkins', url: new URL('/j_spring_security_check', a.url).href })
    else if (/grafana/i.test(page.title) || a.body.includes('grafanaBootData'))
      add({ kind: 'form', product: 'grafana', url: new URL('/login', a.url).href })
    else if ('pma_username' in page.inputs) add({ kind: 'form', product: 'phpmyadmin', url: a.url })
  }
  return out
}

type Verdict = { result: 'success' | 'failure' | 'locked' | 'error'; note: string }

const lockedAnswer = (a: WebAnswer): Verdict | null =>
  a.status === 429 || a.status === 423
    ? { result: 'locked', note: `HTTP ${a.status}` }
    : saysLocked(a.body.slice(0, 20000))
      ? { result: 'locked', note: `HTTP ${a.status}, the page says locked` }
      : null

/** Basic or Digest: 401 rejected, 2xx/3xx accepted. */
export function authHeaderVerdict(a: WebAnswer): Verdict {
  const locked = lockedAnswer(a)
  if (locked) return locked
  if (a.status === 401 || a.status === 403) return { result: 'failure', note: `HTTP ${a.status}` }
  if (a.status < 400) return { result: 'success', note: `HTTP ${a.status}` }
  return { result: 'error', note: `HTTP ${a.status}` }
}

/** Grafana's POST /login: 200 {"message":"Logged in"}; 401 invalid; "temporarily blocked" after too many. */
export function grafanaVerdict(a: WebAnswer): Verdict {
  const locked = lockedAnswer(a)
  if (locked) return locked
  if (a.status === 200 && /logged in/i.test(a.body)) return { result: 'success', note: 'Logged in' }
  if (a.status === 401 || a.status === 400) return { result: 'failure', note: `HTTP ${a.status}` }
  return { result: 'error', note: `HTTP ${a.status}` }
}

/** Jenkins' j_spring_security_check: a redirect to loginError on failure, elsewhere on success. */
export function jenkinsVerdict(a: WebAnswer): Verdict {
  const locked = lockedAnswer(a)
  if (locked) return locked
  const to = a.headers.location ?? ''
  if (a.status >= 300 && a.status < 400)
    return /loginError|\/login\b/.test(to)
      ? { result: 'failure', note: 'redirect to loginError' }
      : { result: 'success', note: 'redirect past the login' }
  if (a.status === 401) return { result: 'failure', note: 'HTTP 401' }
  return { result: 'error', note: `HTTP ${a.status}` }
}

/** phpMyAdmin's cookie login: a pmaAuth-1 cookie with a value is a session; the login form again is a refusal. */
export function phpMyAdminVerdict(a: WebAnswer): Verdict {
  const locked = lockedAnswer(a)
  if (locked) return locked
  const auth = a.setCookies.find((c) => /^pmaAuth-\d+=/.test(c))
  const value = auth
    ? auth
        .slice(auth.indexOf('=') + 1)
        .split(';')[0]!
        .trim()
    : ''
  if (value && value !== 'deleted') return { result: 'success', note: 'pmaAuth cookie set' }
  if (a.status < 500) return { result: 'failure', note: `HTTP ${a.status}` }
  return { result: 'error', note: `HTTP ${a.status}` }
}

/** "a=1; b=2" from Set-Cookie headers (name=value only). */
export const cookieHeader = (setCookies: readonly string[]): string =>
  setCookies
    .map((c) => c.split(';')[0]!.trim())
    .filter(Boolean)
    .join('; ')
