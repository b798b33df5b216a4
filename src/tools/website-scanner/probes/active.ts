// Active checks of the deep scan: each injection point × check is one test; each parameter of the
// point gets the check's payloads until one is proven. Proof rules live in detect/active.ts.
import type { Check } from '../../../toolkit/check.js'
import * as C from '../checks.js'
import { textEvidence } from '../../../toolkit/evidence.js'
import type { HttpResponse } from '../../../toolkit/egress.js'
import type { Fetcher } from '../../lib/http/fetch.js'
import type { InjectionPoint } from './crawl.js'
import * as A from '../detect/active.js'
import type { Hit } from '../detect/types.js'
import { LIMITS } from '../params.js'

interface Sent {
  answer: A.Answer
  /** The request as evidence shows it. */
  request: string
  url: string
}

export interface ActiveEnv {
  fetch: Fetcher
  signal: AbortSignal
  log: (line: string) => void
  /** Milliseconds left for time-based probes (shared by the whole scan). */
  sleepBudget: { ms: number }
}

/** Sends the point with `param` set to `value` (all other parameters unchanged). */
export async function send(
  env: ActiveEnv,
  p: InjectionPoint,
  param: string,
  value: string,
  timeoutMs: number = LIMITS.requestTimeoutMs,
): Promise<Sent | null> {
  const params = new URLSearchParams({ ...p.params, [param]: value })
  let r: HttpResponse | null
  let url = p.url
  let request: string
  if (p.method === 'GET') {
    const u = new URL(p.url)
    u.search = params.toString()
    url = u.href
    request = `GET ${url}`
    r = await env.fetch(url, { timeoutMs, maxBodyBytes: LIMITS.bodyBytes })
  } else {
    request = `POST ${url}\ncontent-type: application/x-www-form-urlencoded\n\n${params.toString()}`
    r = await env.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: params.toString(),
      timeoutMs,
      maxBodyBytes: LIMITS.bodyBytes,
    })
  }
  if (!r) return null
  return {
    url,
    request,
    answer: {
      status: r.status,
      contentType: r.headers['content-type'] ?? '',
      location: r.headers.location,
      body: r.text(),
      elapsedMs: r.elapsedMs,
    },
  }
}

const hit = (check: Check, p: InjectionPoint, param: string, s: Sent, proof: string, detail: string): Hit => ({
  check,
  url: p.url,
  location: `${p.method} ${param}`,
  confirmed: true,
  detail: `Parameter "${param}" (${p.method}): ${detail}`,
  evidence: textEvidence(
    `Request:\n${s.request}\n\nResponse: ${s.answer.status}${s.answer.location ? `\nlocation: ${s.answer.location}` : ''}\n\nProof:\n${proof}`,
  ),
})

type Tester = (env: ActiveEnv, p: InjectionPoint, param: string, baseline: Sent) => Promise<Hit | null>

const xss: Tester = async (env, p, param) => {
  const s = await send(env, p, param, A.XSS_PAYLOAD)
  const proof = s && A.xssProof(s.answer)
  return s && proof
    ? hit(C.xssReflected, p, param, s, proof, `the markup ${A.XSS_PAYLOAD} is reflected unencoded into the HTML page.`)
    : null
}

const sqliError: Tester = async (env, p, param, base) => {
  const v = p.params[param] ?? ''
  for (const q of ["'", '"', "')"]) {
    const s = await send(env, p, param, v + q)
    const proof = s && A.sqlErrorProof(s.answer, base.answer)
    if (s && proof) return hit(C.sqliError, p, param, s, proof, `appending ${q} makes the application print a database syntax error.`)
  }
  return null
}

const sqliBoolean: Tester = async (env, p, param, base) => {
  const v = p.params[param] ?? ''
  const numeric = /^-?\d+$/.test(v)
  const forms = numeric
    ? [
        [`${v} AND 1=1`, `${v} AND 1=2`],
        [`${v} AND 2=2`, `${v} AND 2=3`],
      ]
    : [
        [`${v}' AND '1'='1`, `${v}' AND '1'='2`],
        [`${v}' AND 'b'='b`, `${v}' AND 'b'='c`],
      ]
  const proofs: string[] = []
  let last: Sent | null = null
  for (const [t, f] of forms) {
    const st = await send(env, p, param, t!)
    const sf = st && (await send(env, p, param, f!))
    if (!st || !sf || !A.booleanDiffers(base.answer, st.answer, sf.answer, [t!, f!, v])) return null
    proofs.push(
      `"${t}" → same page as the original value (${st.answer.status}, ${st.answer.body.length} ` +
        `bytes); "${f}" → different page (${sf.answer.status}, ${sf.answer.body.length} bytes)`,
    )
    last = sf
  }
  return last
    ? hit(
        C.sqliBoolean,
        p,
        param,
        last,
        proofs.join('\n'),
        'an always-true condition keeps the page, an always-false one changes it (confirmed twice).',
      )
    : null
}

const traversal: Tester = async (env, p, param, base) => {
  for (const payload of A.TRAVERSAL_PAYLOADS) {
    const s = await send(env, p, param, payload)
    const proof = s && A.traversalProof(s.answer, base.answer)
    if (s && proof) return hit(C.pathTraversal, p, param, s, proof, `the value ${payload} returns the server's /etc/passwd.`)
  }
  return null
}

const openRedirect: Tester = async (env, p, param) => {
  for (const payload of A.REDIRECT_PAYLOADS) {
    const s = await send(env, p, param, payload)
    const proof = s && A.openRedirectProof(s.answer, s.url)
    if (s && proof)
      return hit(C.openRedirect, p, param, s, proof, `the site redirects to the external host given in the parameter (${A.REDIRECT_HOST}).`)
  }
  return null
}

const osCommand: Tester = async (env, p, param, base) => {
  const v = p.params[param] ?? ''
  const secs = LIMITS.sleepSeconds
  const baselineMs = [base.answer.elapsedMs]
  const again = await send(env, p, param, v)
  if (again) baselineMs.push(again.answer.elapsedMs)
  // Every probe here may wait for seconds: they draw on the scan's shared time budget.
  const timed = async (value: string) => {
    const t0 = performance.now()
    const s = await send(env, p, param, value, LIMITS.sleepTimeoutMs)
    env.sleepBudget.ms -= performance.now() - t0
    return s
  }
  for (const sep of A.CMD_SEPARATORS) {
    if (env.sleepBudget.ms <= 0) {
      env.log(`os-command: time budget of ${LIMITS.sleepBudgetMs / 1000} s used up, ${p.method} ${p.url} ${param} not tested further`)
      return null
    }
    const s = await timed(A.cmdPayload(v, sep, secs))
    if (!s || !A.delayed(s.answer.elapsedMs, baselineMs, secs)) continue
    // Confirm: sleep 0 answers fast, and sleep N is late again (not a one-off slow answer).
    const zero = await timed(A.cmdPayload(v, sep, 0))
    if (!zero || A.delayed(zero.answer.elapsedMs, baselineMs, secs)) continue
    const s2 = await timed(A.cmdPayload(v, sep, secs))
    if (!s2 || !A.delayed(s2.answer.elapsedMs, baselineMs, secs)) continue
    const proof =
      `baseline ${baselineMs.map((m) => `${Math.round(m)} ms`).join(', ')}; "sleep ${secs}" → ` +
      `${Math.round(s.answer.elapsedMs)} ms and ${Math.round(s2.answer.elapsedMs)} ms; "sleep 0" → ` +
      `${Math.round(zero.answer.elapsedMs)} ms`
    return hit(C.osCommand, p, param, s2, proof, `the shell separator "${sep}" followed by sleep ${secs} delays the answer by ${secs} s.`)
  }
  return null
}

const ssti: Tester = async (env, p, param, base) => {
  for (const { payload, confirm } of A.SSTI_PAYLOADS) {
    const s = await send(env, p, param, payload)
    const proof = s && A.sstiProof(s.answer, base.answer)
    if (!s || !proof) continue
    const c = await send(env, p, param, confirm)
    const proof2 = c && A.sstiProof(c.answer, base.answer, A.SSTI_CONFIRM)
    if (c && proof2)
      return hit(
        C.ssti,
        p,
        param,
        c,
        `${payload} → …${proof}…\n${confirm} → …${proof2}…`,
        `the expression ${payload} is evaluated to ${A.SSTI_RESULT}.`,
      )
  }
  return null
}

export const ACTIVE: readonly { check: Check; run: Tester; what: string }[] = [
  { check: C.xssReflected, run: xss, what: 'injects an HTML marker and looks for it unencoded' },
  { check: C.sqliError, run: sqliError, what: 'appends quotes and looks for database errors' },
  { check: C.sqliBoolean, run: sqliBoolean, what: 'compares always-true and always-false SQL conditions' },
  { check: C.pathTraversal, run: traversal, what: 'asks for ../../etc/passwd and looks for its content' },
  { check: C.openRedirect, run: openRedirect, what: 'passes an external URL and checks the redirect target' },
  { check: C.osCommand, run: osCommand, what: `appends "; sleep ${LIMITS.sleepSeconds}" and compares timing with the baseline` },
  { check: C.ssti, run: ssti, what: 'sends {{7*191}}-style expressions and looks for 1337' },
]

/** Runs one active check over every parameter of a point; first proof per parameter wins. */
export async function runActive(
  env: ActiveEnv,
  t: (typeof ACTIVE)[number],
  p: InjectionPoint,
  baselines: Map<string, Sent>,
): Promise<Hit[]> {
  const hits: Hit[] = []
  for (const param of Object.keys(p.params).slice(0, LIMITS.maxParamsPerPoint)) {
    if (env.signal.aborted) break
    const base = baselines.get(param)
    if (!base) continue
    const h = await t.run(env, p, param, base)
    if (h) hits.push(h)
  }
  return hits
}

/** One unchanged request per point (the parameter's own value): what "normal" looks like. */
export async function baselineOf(env: ActiveEnv, p: InjectionPoint): Promise<Map<string, Sent>> {
  const m = new Map<string, Sent>()
  const first = Object.keys(p.params)[0]
  if (!first) return m
  const s = await send(env, p, first, p.params[first]!)
  if (s) for (const k of Object.keys(p.params)) m.set(k, s)
  return m
}
