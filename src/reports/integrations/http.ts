// Ward's own HTTP requests to integration receivers, through the callback scope's guarded dispatcher
// (the CLI hands it in: reports does not reach the engine's network code). Redirects are not
// followed; answers are read up to a bound; a refusal the receiver will repeat (401, 403, 404) is
// told apart from one worth retrying (network error, 429, 5xx).
import type { Dispatcher } from 'undici'
import type net from 'node:net'
import { parseRetryAfter } from '../callback-signing.js'

export interface IntegrationTransport {
  /** The callback scope's guarded dispatcher. */
  dispatcher(): Promise<Dispatcher>
  /** A TCP connection to host:port, through the callback scope guard (SMTP). */
  connect(host: string, port: number): Promise<net.Socket>
  close?(): Promise<void>
}

export type Verdict = 'delivered' | 'retry' | 'refused' | 'failed'
export interface Outcome {
  verdict: Verdict
  statusCode: number | null
  answer: string | null
  error: string | null
  retryAfter?: string | null
}

/** A receiver's answer that ends the delivery's work (thrown by multi-request channels). */
export class ReceiverError extends Error {
  constructor(readonly outcome: Outcome) {
    super(outcome.error ?? `HTTP ${outcome.statusCode}`)
  }
}

export function verdictOf(status: number): Verdict {
  if (status >= 200 && status <= 299) return 'delivered'
  if (status === 401 || status === 403 || status === 404) return 'refused'
  if (status === 429 || status >= 500) return 'retry'
  return 'failed'
}

export interface HttpAnswer {
  status: number
  text: string
  json: unknown
  retryAfter: string | null
}

const ANSWER_MAX = 64 * 1024

export async function httpRequest(
  t: IntegrationTransport,
  timeoutMs: number,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  o: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<HttpAnswer> {
  const { request } = await import('undici')
  const res = await request(url, {
    dispatcher: await t.dispatcher(),
    method,
    headers: { 'user-agent': 'Ward-Integrations/1', ...o.headers },
    body: o.body,
    signal: AbortSignal.timeout(timeoutMs),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  })
  const chunks: Buffer[] = []
  let size = 0
  for await (const c of res.body) {
    if (size < ANSWER_MAX) chunks.push(c as Buffer)
    size += (c as Buffer).length
  }
  const text = Buffer.concat(chunks).toString('utf8').slice(0, ANSWER_MAX)
  let json: unknown = null
  try {
    json = text ? JSON.parse(text) : null
  } catch {
    json = null
  }
  const ra = res.headers['retry-after']
  return { status: res.statusCode, text, json, retryAfter: Array.isArray(ra) ? (ra[0] ?? null) : (ra ?? null) }
}

/** The start of an answer, for the delivery log (never a request: those may hold secrets). */
export const answerText = (s: string) => (s.length > 500 ? `${s.slice(0, 500)}…` : s)

export const outcomeOf = (a: HttpAnswer, what: string): Outcome => {
  const verdict = verdictOf(a.status)
  const why =
    verdict === 'refused'
      ? `${what}: the receiver answered HTTP ${a.status}; not retried (check the address and credentials)`
      : verdict === 'delivered'
        ? null
        : `${what}: the receiver answered HTTP ${a.status}`
  return {
    verdict,
    statusCode: a.status,
    answer: answerText(a.text),
    error: why,
    retryAfter: parseRetryAfter(a.retryAfter) !== null ? a.retryAfter : null,
  }
}

/** Throws unless the answer is 2xx: the delivery ends (or is retried) with that outcome. */
export function expectOk(a: HttpAnswer, what: string): HttpAnswer {
  if (a.status >= 200 && a.status <= 299) return a
  throw new ReceiverError(outcomeOf(a, what))
}
