// The web endpoints of the target: a URL target's own scheme and port, else each tool_params.ports
// port that completes a TLS handshake (https) or answers HTTP (http).
import { CONNECT_TIMEOUT_MS } from '../../../toolkit/timeouts.js'
import type { Egress } from '../../../toolkit/egress.js'
import type { ScanContext } from '../../../toolkit/tool.js'
import { stripBrackets, targetHost } from '../../../toolkit/ip.js'
import { portOf, urlHost } from '../../lib/http/url.js'

export interface Endpoint {
  scheme: 'http' | 'https'
  /** The host connected to: the target's name or address. */
  host: string
  port: number
}

export const endpointUrl = (e: Endpoint, path = '/') => `${e.scheme}://${urlHost(e.host)}:${e.port}${path}`

export async function findEndpoints(
  ctx: Pick<ScanContext, 'net' | 'target' | 'signal' | 'log'>,
  ports: readonly number[],
): Promise<Endpoint[]> {
  const { net, target, signal } = ctx
  if (target.type === 'url' || /^https?:\/\//i.test(target.name)) {
    const u = new URL(target.name)
    return [{ scheme: u.protocol === 'https:' ? 'https' : 'http', host: stripBrackets(u.hostname), port: portOf(u) }]
  }
  const host = targetHost(target.name)
  const found: Endpoint[] = []
  for (const port of ports) {
    if (signal.aborted) break
    const e = await probePort(net, host, port, signal)
    if (e) found.push(e)
    else ctx.log(`${host}:${port}: neither HTTPS nor HTTP answers`)
  }
  return found
}

async function probePort(net: Egress, host: string, port: number, signal: AbortSignal): Promise<Endpoint | null> {
  try {
    const s = await net.tlsConnect({ host, port, timeoutMs: CONNECT_TIMEOUT_MS, signal })
    s.destroy()
    return { scheme: 'https', host, port }
  } catch {
    // Not TLS (or closed): an HTTP answer of any status makes it an HTTP endpoint.
  }
  try {
    await net.http(endpointUrl({ scheme: 'http', host, port }), { timeoutMs: CONNECT_TIMEOUT_MS, signal, maxBodyBytes: 1024 })
    return { scheme: 'http', host, port }
  } catch {
    return null
  }
}
