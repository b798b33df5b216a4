// Web logins: finding them (GET of LOGIN_PATHS) and one attempt on each kind (Basic, Digest, the forms
// of Jenkins, Grafana and phpMyAdmin). Requests go through the egress; redirects are never followed.
import type { Egress, HttpRequest, HttpResponse } from '../../../toolkit/egress.js'
import { digestAuthorization, parseDigestChallenge } from '../../lib/http/auth/digest.js'
import {
  LOGIN_PATHS,
  authHeaderVerdict,
  cookieHeader,
  grafanaVerdict,
  jenkinsVerdict,
  phpMyAdminVerdict,
  readPage,
  type LoginSurface,
  type WebAnswer,
} from '../detect/http-login.js'
import { timed, type Attempter } from './attempt.js'
import { HTTP_TIMEOUT_MS } from '../../../toolkit/timeouts.js'

const answer = (r: HttpResponse): WebAnswer => ({
  url: r.url,
  status: r.status,
  headers: r.headers,
  setCookies: r.setCookies,
  body: r.text(),
})

async function get(net: Egress, url: string, signal: AbortSignal, req: Omit<HttpRequest, 'signal'> = {}): Promise<WebAnswer> {
  return answer(await net.http(url, { timeoutMs: HTTP_TIMEOUT_MS, maxBodyBytes: 512 * 1024, ...req, signal }))
}

/** The answers of LOGIN_PATHS under `base`; paths that fail are left out. */
export async function fetchLoginPages(net: Egress, base: string, signal: AbortSignal): Promise<WebAnswer[]> {
  const out: WebAnswer[] = []
  for (const path of LOGIN_PATHS) {
    if (signal.aborted) break
    try {
      out.push(await get(net, new URL(path, base).href, signal))
    } catch {
      // No answer on this path: nothing to log in to there.
    }
  }
  return out
}

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`, 'utf8').toString('base64')}`

export function webLogin(net: Egress, s: LoginSurface): Attempter {
  return (user, password, signal) =>
    timed(async () => {
      if (s.kind === 'basic') return authHeaderVerdict(await get(net, s.url, signal, { headers: { authorization: basic(user, password) } }))
      if (s.kind === 'digest') {
        // A fresh challenge per attempt: nonces may be single-use.
        const first = await get(net, s.url, signal)
        const c = parseDigestChallenge(first.headers['www-authenticate'] ?? '')
        if (!c) return { result: 'error', note: 'no Digest challenge' }
        const uri = new URL(s.url).pathname + new URL(s.url).search
        return authHeaderVerdict(
          await get(net, s.url, signal, { headers: { authorization: digestAuthorization(c, user, password, 'GET', uri, 1) } }),
        )
      }
      if (s.product === 'grafana')
        return grafanaVerdict(
          await get(net, s.url, signal, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ user, password }),
          }),
        )
      if (s.product === 'jenkins') {
        const body = new URLSearchParams({ j_username: user, j_password: password, from: '/', Submit: 'Sign in' }).toString()
        return jenkinsVerdict(
          await get(net, s.url, signal, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
        )
      }
      // phpMyAdmin: its login form carries a token tied to the session cookie it sets.
      const page = await get(net, s.url, signal)
      const { inputs } = readPage(page.body)
      const form = new URLSearchParams({ ...inputs, pma_username: user, pma_password: password, server: inputs.server || '1' })
      const cookie = cookieHeader(page.setCookies)
      return phpMyAdminVerdict(
        await get(net, s.url, signal, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
          body: form.toString(),
        }),
      )
    })
}
