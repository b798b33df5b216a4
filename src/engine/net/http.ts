// HTTP(S) over the egress dialer, with undici doing the protocol work.
import type net from 'node:net'
import type tls from 'node:tls'
import { Agent, type buildConnector, type Dispatcher } from 'undici'
import type { ConnectOptions, HttpRequest, HttpResponse, TlsConnectOptions } from '../../toolkit/egress.js'
import { HTTP_TIMEOUT_MS } from '../../toolkit/timeouts.js'

const DEFAULT_MAX_BODY = 2 * 1024 * 1024

export function createHttpClient(
  dial: (o: ConnectOptions) => Promise<net.Socket>,
  tlsConnect: (o: TlsConnectOptions) => Promise<tls.TLSSocket>,
) {
  // undici asks this function for every new connection; we hand it sockets from the egress.
  const agent = new Agent({
    keepAliveTimeout: 4000,
    connections: 256, // above the URL fuzzer's highest concurrency (200)
    // Every request has its own whole-request timer (InFlight); undici's per-request header and body
    // timers would only duplicate it, at a cost per request.
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: (opts: buildConnector.Options, cb: buildConnector.Callback) => {
      const host: string = opts.hostname
      const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80)
      const p =
        opts.protocol === 'https:'
          ? tlsConnect({ host, port, servername: opts.servername || undefined, timeoutMs: HTTP_TIMEOUT_MS })
          : dial({ host, port, timeoutMs: HTTP_TIMEOUT_MS })
      p.then(
        (s) => cb(null, s),
        (e) => cb(e, null),
      )
    },
  })

  // Requests go straight to the agent with a handler that collects the body into buffers: no stream
  // per response, no AbortController per request, one abort listener per caller signal (not per
  // request). At fuzzing rates that per-request machinery cost more CPU than the HTTP parsing.
  const watched = new WeakMap<AbortSignal, Set<InFlight>>()
  function watch(signal: AbortSignal, f: InFlight): void {
    let set = watched.get(signal)
    if (!set) {
      const mine = new Set<InFlight>()
      watched.set(signal, (set = mine))
      signal.addEventListener(
        'abort',
        () => {
          for (const x of mine) x.fail(signal.reason instanceof Error ? signal.reason : abortReason(signal.reason))
          mine.clear()
        },
        { once: true },
      )
    }
    set.add(f)
  }

  function doRequest(url: string, req: HttpRequest = {}): Promise<HttpResponse> {
    if (req.signal?.aborted) return Promise.reject(req.signal.reason instanceof Error ? req.signal.reason : abortReason(req.signal.reason))
    let u: URL
    try {
      u = new URL(url)
    } catch (e) {
      return Promise.reject(e)
    }
    return new Promise<HttpResponse>((resolve, reject) => {
      const f = new InFlight(url, req, resolve, reject, () => watched.get(req.signal!)?.delete(f))
      if (req.signal) watch(req.signal, f)
      try {
        agent.dispatch(
          {
            origin: u.origin,
            path: u.pathname + u.search,
            method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
            headers: { 'user-agent': 'Ward-Scanner/0.1', ...req.headers },
            body: req.body ?? null,
          },
          f,
        )
      } catch (e) {
        f.fail(e as Error)
      }
    })
  }

  return { request: doRequest, close: () => agent.close() }
}

/** Lower-case header names, remembered: servers send the same few names on every answer. */
const LOWER = new Map<string, string>()
function lowerName(raw: Buffer | string): string {
  const k = raw.toString('latin1')
  let v = LOWER.get(k)
  if (v === undefined) {
    v = k.toLowerCase()
    if (LOWER.size < 512) LOWER.set(k, v)
  }
  return v
}

const abortReason = (reason: unknown) => Object.assign(new Error(String(reason ?? 'aborted')), { name: 'AbortError', code: 'ABORT_ERR' })

/**
 * One request as an undici dispatch handler: settles once (answer, error, timeout or the caller's abort),
 * and aborts the connection when it settles early. undici does not abort while a connection is being
 * set up; the promise settles anyway and the request is aborted as soon as undici hands over `abort`.
 */
class InFlight implements Dispatcher.DispatchHandlers {
  private readonly started = performance.now()
  private readonly timer: NodeJS.Timeout
  private readonly max: number
  private abortFn: ((err: Error) => void) | null = null
  private done = false
  private status = 0
  private headers: Record<string, string> = {}
  private setCookies: string[] = []
  private chunks: Buffer[] = []
  private size = 0

  constructor(
    private readonly url: string,
    req: HttpRequest,
    private readonly resolve: (r: HttpResponse) => void,
    private readonly reject: (e: Error) => void,
    private readonly unwatch: () => void,
  ) {
    const timeoutMs = req.timeoutMs ?? HTTP_TIMEOUT_MS
    this.max = req.maxBodyBytes ?? DEFAULT_MAX_BODY
    this.timer = setTimeout(
      () => this.fail(Object.assign(new Error(`HTTP request to ${url} timed out after ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
      timeoutMs,
    )
  }

  private settle(): boolean {
    if (this.done) return false
    this.done = true
    clearTimeout(this.timer)
    this.unwatch()
    return true
  }

  fail(err: Error): void {
    if (!this.settle()) return
    this.abortFn?.(err)
    this.reject(err)
  }

  private finish(truncated: boolean): void {
    if (!this.settle()) return
    // A copy: the chunks are views of undici's socket reads, which a kept body would pin.
    const body = Buffer.concat(this.chunks, this.size)
    this.chunks = []
    this.resolve({
      url: this.url,
      status: this.status,
      headers: this.headers,
      setCookies: this.setCookies,
      body,
      truncated,
      elapsedMs: performance.now() - this.started,
      text: () => body.toString('utf8'),
    })
  }

  onConnect(abort: (err?: Error) => void): void {
    if (this.done) abort(new Error('request settled before its connection was ready'))
    else this.abortFn = abort
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[] | string[] | null): boolean {
    if (statusCode < 200) return true // 1xx: the final answer follows
    this.status = statusCode
    const h: Record<string, string> = {}
    const raw = rawHeaders ?? []
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const k = lowerName(raw[i]!)
      const v = raw[i + 1]!.toString('utf8')
      if (k === 'set-cookie') this.setCookies.push(v)
      else h[k] = k in h ? `${h[k]}, ${v}` : v
    }
    this.headers = h
    return true
  }

  onData(chunk: Buffer): boolean {
    if (this.done) return false
    if (this.size + chunk.length > this.max) {
      this.chunks.push(chunk.subarray(0, this.max - this.size))
      this.size = this.max
      const abort = this.abortFn
      this.finish(true)
      abort?.(new Error('body limit reached'))
      return false
    }
    this.chunks.push(chunk)
    this.size += chunk.length
    return true
  }

  onComplete(): void {
    this.finish(false)
  }

  onError(err: Error): void {
    if (this.done) return
    this.settle()
    this.reject(err)
  }
}
