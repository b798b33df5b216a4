// Runs the tcp/network blocks of one template against one open port of the target: connects through
// the scan's egress (TLS when the template asks), sends each input, reads with a timeout and a byte
// bound, and matches the bytes read. A host other than the target is refused.
import type { HostLimiters } from '../http/rate-limit.js'
import type { Egress } from '../../../toolkit/egress.js'
import { CONNECT_TIMEOUT_MS, EXCHANGE_TIMEOUT_MS } from '../../../toolkit/timeouts.js'
import type { TcpBlock, Template } from './model.js'
import type { EvalEnv } from './dsl-eval.js'
import type { RegexRunner } from './regex.js'
import { interpolate, RunVars } from './interpolate.js'
import { TemplateScopeError, type TemplateMatch } from './http.js'
import { hostPort, matchProtoResponse, shown, splitHostPort } from './proto-match.js'
import { TCP_LIMITS } from './tcp-load.js'

export interface TemplateTcpEnv {
  net: Egress
  /** The target host (name or IP) and the open port this run is for. */
  host: string
  port: number
  signal: AbortSignal
  /** Longest wait for the first bytes of a read (default 5 s). */
  readTimeoutMs?: number
  /** The scan's per-host pace (tool_params.rate_limit): each connection waits for its slot. */
  limiter?: HostLimiters
}

export interface ProtoRunStats {
  requests: number
  failures: string[]
}

type Sock = Awaited<ReturnType<Egress['connect']>>

/** A quiet gap that ends a read once bytes have come. */
const IDLE_MS = 300
const IDLE_ALL_MS = 1000

/** Whether the template is meant for `port` (its ports, or any port when it names none). */
export function tcpTemplateFits(t: Template, port: number): boolean {
  return (t.tcp ?? []).some((b) => !b.excludePorts.includes(port) && (b.ports.length === 0 || b.ports.includes(port)))
}

export async function runTcpTemplate(t: Template, env: TemplateTcpEnv, regex: RegexRunner, stats: ProtoRunStats): Promise<TemplateMatch[]> {
  const vars = new RunVars(
    Object.entries({
      Hostname: hostPort(env.host, env.port),
      Host: env.host,
      Port: String(env.port),
      BaseURL: hostPort(env.host, env.port),
    }),
  )
  const evalEnv: EvalEnv = { vars, regex }
  for (const [k, v] of Object.entries(t.variables)) vars.set(k, interpolate(v, evalEnv))
  const matches: TemplateMatch[] = []
  for (const block of t.tcp ?? []) {
    if (block.excludePorts.includes(env.port) || (block.ports.length && !block.ports.includes(env.port))) continue
    for (const h of block.hosts) {
      if (env.signal.aborted) return matches
      const addr = interpolate(h, evalEnv)
      const tls = block.tls || /^tls:\/\//i.test(addr)
      const { host, port } = splitHostPort(addr.replace(/^tls:\/\//i, ''))
      if (host.toLowerCase() !== env.host.toLowerCase())
        throw new TemplateScopeError(`connection to ${host.slice(0, 100)} refused: templates only reach the target ${env.host}`)
      if (port !== null && port !== env.port) continue
      const m = await exchange(block, env, tls, vars, regex, stats)
      if (m) {
        matches.push(m)
        if (t.stopAtFirstMatch) return matches
        break
      }
    }
  }
  return matches
}

/** One connection: the inputs in order, then the block's read, then the match. */
async function exchange(block: TcpBlock, env: TemplateTcpEnv, tls: boolean, vars: RunVars, regex: RegexRunner, stats: ProtoRunStats) {
  stats.requests++
  const o = { host: env.host, port: env.port, timeoutMs: CONNECT_TIMEOUT_MS, signal: env.signal }
  await env.limiter?.take(env.host, env.signal)
  let sock: Sock
  try {
    sock = tls ? await env.net.tlsConnect(o) : await env.net.connect(o)
  } catch (e) {
    if (env.signal.aborted) throw e
    stats.failures.push(`${hostPort(env.host, env.port)}: ${(e as Error).message}`)
    return null
  }
  const reader = socketReader(sock, env.signal, env.readTimeoutMs ?? EXCHANGE_TIMEOUT_MS)
  const sent: string[] = []
  const reads: Buffer[] = []
  const named: Record<string, string> = {}
  try {
    for (const input of block.inputs) {
      const data = input.hex ? Buffer.from(input.data, 'hex') : Buffer.from(interpolate(input.data, { vars, regex }), 'latin1')
      sent.push(data.toString('latin1'))
      if (data.length) sock.write(data)
      if (input.read > 0) {
        const got = await reader.read(input.read, false)
        reads.push(got)
        if (input.name) named[input.name] = got.toString('latin1')
      }
    }
    reads.push(await reader.read(block.readAll ? TCP_LIMITS.readBytes : block.readSize, block.readAll))
  } finally {
    sock.destroy()
  }
  const data = Buffer.concat(reads)
  const text = data.toString('latin1')
  const request = sent.join('')
  const response = {
    ...named,
    data: text,
    body: text,
    raw: text,
    response: text,
    all: text,
    request,
    host: env.host,
    ip: env.host,
    port: String(env.port),
  }
  const where = `${tls ? 'tls' : 'tcp'}://${hostPort(env.host, env.port)}`
  return matchProtoResponse(block, vars, response, regex, {
    requestLine: `${where} sent ${request ? shown(request) : 'nothing'}, read ${data.length} bytes`,
    url: where,
    bytes: data,
    truncated: reader.truncated,
  })
}

/** Reads from a socket: up to n bytes, ending at the first quiet gap after data, the timeout or the close. */
function socketReader(sock: Sock, signal: AbortSignal, timeoutMs: number) {
  let buf = Buffer.alloc(0)
  let ended = false
  let truncated = false
  let wake: (() => void) | null = null
  sock.on('data', (c: Buffer) => {
    if (buf.length + c.length > TCP_LIMITS.readBytes) truncated = true
    else buf = Buffer.concat([buf, c])
    wake?.()
  })
  const end = () => {
    ended = true
    wake?.()
  }
  sock.on('end', end)
  sock.on('close', end)
  sock.on('error', end)
  const waitFor = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        wake = null
        resolve(false)
      }, ms)
      wake = () => {
        clearTimeout(timer)
        wake = null
        resolve(true)
      }
    })
  return {
    get truncated() {
      return truncated
    },
    async read(n: number, all: boolean): Promise<Buffer> {
      const deadline = Date.now() + timeoutMs
      while (buf.length < n && !ended && !signal.aborted) {
        const left = deadline - Date.now()
        if (left <= 0) break
        const grew = await waitFor(buf.length ? Math.min(all ? IDLE_ALL_MS : IDLE_MS, left) : left)
        if (!grew && buf.length) break
      }
      const out = buf.subarray(0, n)
      buf = buf.subarray(out.length)
      return Buffer.from(out)
    },
  }
}
