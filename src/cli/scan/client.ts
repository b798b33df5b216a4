// A small client of the v2 interface for the CI command: bearer key, {"data": ...} bodies, retries.
// Transient failures (network errors, 502/503/504) are retried with exponential backoff and jitter; a
// 429 waits for Retry-After. A POST is retried only when it cannot have reached the server
// (connection refused, name not found, 429, 503), so a retry never starts a second scan.

export class ServerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** The server could not be reached after all retries. */
export class NetworkError extends Error {}

export interface ClientOptions {
  /** Attempts for one request (first try included). */
  attempts?: number
  /** First backoff delay; doubles each retry. */
  backoffMs?: number
  /** Longest wait a Retry-After may impose. */
  maxRetryAfterMs?: number
  /** Called before each wait, for the progress output. */
  onRetry?: (why: string, waitMs: number) => void
  sleep?: (ms: number) => Promise<void>
}

/** An answer: its status, the JSON body when there is one (v2 bodies carry `data`, errors `message`), and the text. */
export type ApiAnswer = { status: number; json: { data?: unknown; message?: unknown } | null; text: string }

const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])

function errorCode(e: unknown): string {
  let cur = e as { code?: unknown; cause?: unknown } | null | undefined
  for (let i = 0; i < 4 && cur; i++) {
    if (typeof cur.code === 'string') return cur.code
    cur = cur.cause as typeof cur
  }
  return ''
}

/** Retry-After: delay-seconds or an HTTP date. */
export function retryAfterMs(h: string | null, now = Date.now()): number | null {
  if (!h) return null
  const t = h.trim()
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000)
  const d = Date.parse(t)
  return Number.isNaN(d) ? null : Math.max(0, d - now)
}

export class V2Client {
  readonly base: string
  private readonly o: Required<Omit<ClientOptions, 'onRetry'>> & Pick<ClientOptions, 'onRetry'>

  constructor(
    server: string,
    private readonly key: string,
    o: ClientOptions = {},
  ) {
    const u = new URL(server)
    // Accept the server root, or any URL that already ends in /api/v2.
    const path = u.pathname.replace(/\/+$/, '')
    u.pathname = path.endsWith('/api/v2') ? path : `${path}/api/v2`
    this.base = u.toString().replace(/\/+$/, '')
    this.o = { attempts: 5, backoffMs: 500, maxRetryAfterMs: 120_000, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), ...o }
  }

  /** Sends a request; resolves with status and parsed JSON (null for no/non-JSON body), or the raw text. */
  async request(method: string, path: string, opts: { body?: unknown; accept?: string; raw?: boolean } = {}): Promise<ApiAnswer> {
    let attempt = 0
    let waits429 = 0
    for (;;) {
      attempt++
      let res: Response
      try {
        res = await fetch(this.base + path, {
          method,
          headers: {
            authorization: `Bearer ${this.key}`,
            accept: opts.accept ?? 'application/json',
            ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
          signal: AbortSignal.timeout(60_000),
        })
      } catch (e) {
        const code = errorCode(e)
        const retriable = method === 'GET' || NOT_SENT.has(code)
        const why = code || plain((e as { cause?: Error }).cause?.message ?? (e as Error).message) || 'network error'
        if (!retriable || attempt >= this.o.attempts) throw new NetworkError(`cannot reach the server (${why})`)
        await this.wait(`${why}`, this.backoff(attempt))
        continue
      }
      if (res.status === 429) {
        const ms = retryAfterMs(res.headers.get('retry-after')) ?? this.backoff(attempt)
        await res.arrayBuffer().catch(() => null)
        if (++waits429 > 20) throw new ServerError(429, 'rate limited: too many 429 answers in a row')
        attempt--
        await this.wait('rate limited (429)', Math.min(ms, this.o.maxRetryAfterMs))
        continue
      }
      if ([502, 503, 504].includes(res.status) && (method === 'GET' || res.status === 503) && attempt < this.o.attempts) {
        await res.arrayBuffer().catch(() => null)
        const ms = retryAfterMs(res.headers.get('retry-after')) ?? this.backoff(attempt)
        await this.wait(`server answered ${res.status}`, Math.min(ms, this.o.maxRetryAfterMs))
        continue
      }
      const text = opts.raw ? '' : await res.text()
      let json: ApiAnswer['json'] = null
      try {
        json = text ? (JSON.parse(text) as ApiAnswer['json']) : null
      } catch {
        json = null
      }
      return { status: res.status, json, text }
    }
  }

  /** The request's `data`, or a ServerError with the server's message. */
  async data<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await this.request(method, path, { body })
    if (r.status >= 200 && r.status < 300) return (r.json?.data ?? null) as T
    throw new ServerError(r.status, serverMessage(r))
  }

  private backoff(attempt: number) {
    const base = this.o.backoffMs * 2 ** (attempt - 1)
    return Math.min(30_000, Math.round(base * (0.75 + Math.random() * 0.5)))
  }

  private async wait(why: string, ms: number) {
    this.o.onRetry?.(why, ms)
    await this.o.sleep(ms)
  }
}

/** The error body's message (decisions.md: {"status", "message"}), made safe to print. */
export function serverMessage(r: ApiAnswer): string {
  const m = typeof r.json?.message === 'string' ? r.json.message : r.text.slice(0, 200)
  return `HTTP ${r.status}${m ? `: ${plain(m)}` : ''}`
}

/** Text from the server, printable on one line: control characters (ANSI escapes included) removed. */
export const plain = (s: unknown) =>
  String(s ?? '')
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .trim()
