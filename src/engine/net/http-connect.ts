// HTTP CONNECT egress: every TCP connection is an HTTP `CONNECT host:port` tunnel through the profile's
// proxy URL, `http://[user:pass@]host:port` or `https://...` (TLS to the proxy, certificate verified).
// Host names go to the proxy unresolved. UDP cannot pass: `carriesUdp` is false and `udp()` throws.
import type net from 'node:net'
import { connectDirect, stripBrackets, tlsOver } from './direct.js'
import type { ConnectOptions, Egress } from '../../toolkit/egress.js'
import { proxyEgress, tunnel, type ProxyCheck, type ProxyScopes } from './socks5.js'
import { egressError, hostPort, parseProxyUrl, type ProxyEndpoint } from '../../toolkit/egress-profile.js'
export { parseProxyUrl }
import { ipVersion } from '../../toolkit/ip.js'
import type { Scope } from '../../toolkit/scope.js'
import { EGRESS_CHECK_TIMEOUT_MS } from '../../toolkit/timeouts.js'

export interface HttpConnectProfile {
  /** `http://[user:pass@]host:port` or `https://[user:pass@]host:port`; credentials percent-encoded. */
  url: string
  /** PEM CA certificate(s) trusted for an https:// proxy instead of the system store. */
  ca?: string | Buffer
}

// Proxy status → the socket error code a direct connection would most likely have produced. Proxies
// rarely tell "refused" from "unreachable": squid answers 503, most others 502 — both read as refused.
function codeForStatus(status: number): string {
  if (status === 502 || status === 503) return 'ECONNREFUSED'
  if (status === 504) return 'ETIMEDOUT'
  if (status === 403) return 'EPROXYDENIED'
  if (status === 407) return 'EPROXYAUTH'
  return 'EPROXY'
}

export function createHttpConnectEgress(p: HttpConnectProfile, scopes?: ProxyScopes): Egress {
  const proxy = parseProxyUrl(p.url)
  const dialProxy = dialerFor(proxy, p.ca, scopes?.vpnHost)
  const dial = (o: ConnectOptions) =>
    tunnel(o, proxy.label, dialProxy, async (socket) => {
      const host = stripBrackets(o.host)
      if (!/^[\x21-\x7e]{1,255}$/.test(host)) throw egressError('EINVAL', `cannot send host name ${JSON.stringify(host)} to an HTTP proxy`)
      const authority = hostPort(host, o.port)
      const answer = await connectRequest(socket, authority, proxy)
      if (answer.status >= 200 && answer.status < 300) return socket
      socket.destroy()
      if (answer.status === 407) throw authError(proxy)
      throw egressError(codeForStatus(answer.status), `${proxy.label} refused CONNECT ${authority}: ${answer.statusLine}`)
    })
  return proxyEgress('http_connect', dial, (signal) => checkHttpConnect(p, signal, undefined, scopes?.vpnHost), scopes?.target)
}

function dialerFor(proxy: ProxyEndpoint, ca: string | Buffer | undefined, vpnHost: Scope | undefined) {
  return async (timeoutMs: number, signal: AbortSignal): Promise<net.Socket> => {
    const socket = await connectDirect({ host: proxy.host, port: proxy.port, timeoutMs, signal }, vpnHost)
    if (!proxy.tls) return socket
    // The proxy's certificate IS verified (unlike targets'): the tunnel carries the credentials.
    const tlsOptions = { rejectUnauthorized: true, ca, host: proxy.host, servername: ipVersion(proxy.host) ? undefined : proxy.host }
    return tlsOver(socket, { host: proxy.host, port: proxy.port, timeoutMs, signal, tls: tlsOptions }).catch((err: Error) => {
      if (signal.aborted) throw err
      throw egressError('EPROXY', `${proxy.label}: TLS handshake failed: ${err.message}`)
    })
  }
}

const authError = (proxy: ProxyEndpoint) =>
  proxy.authorization
    ? egressError('EPROXYAUTH', `${proxy.label} rejected the credentials (407 Proxy Authentication Required)`)
    : egressError('EPROXYAUTH', `${proxy.label} requires authentication but the profile has no credentials`)

const MAX_HEAD = 64 * 1024

/**
 * Sends `CONNECT authority` and reads the proxy's response head. Reads with 'readable'/read() rather
 * than 'data' so that, once the listener is gone, the socket is back to its initial state (not
 * flowing, not paused): bytes that followed the head (a target's banner) are pushed back and reach
 * whoever reads next (TLS, undici, a banner reader).
 */
function connectRequest(socket: net.Socket, authority: string, proxy: ProxyEndpoint): Promise<{ status: number; statusLine: string }> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0)
    const cleanup = () => {
      socket.removeListener('readable', onReadable)
      socket.removeListener('error', onError)
      socket.removeListener('close', onClose)
    }
    const fail = (err: Error) => {
      cleanup()
      socket.destroy()
      reject(err)
    }
    const onError = (err: Error) => fail(egressError('EPROXY', `${proxy.label} failed during CONNECT: ${err.message}`))
    const onClose = () => fail(egressError('EPROXY', `${proxy.label} closed the connection without answering CONNECT`))
    function onReadable() {
      let chunk: Buffer | null
      while ((chunk = socket.read()) !== null) {
        head = Buffer.concat([head, chunk])
        const end = head.indexOf('\r\n\r\n')
        if (end < 0) {
          if (head.length > MAX_HEAD) return fail(egressError('EPROXY', `${proxy.label} sent an oversized response to CONNECT`))
          if (head.length >= 5 && !head.subarray(0, 5).equals(Buffer.from('HTTP/'))) return fail(notHttp(proxy, head))
          continue
        }
        const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1')
        const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine)
        if (!m) return fail(notHttp(proxy, head))
        cleanup()
        const rest = head.subarray(end + 4)
        if (rest.length) socket.unshift(rest)
        return resolve({ status: Number(m[1]), statusLine })
      }
    }
    socket.on('readable', onReadable)
    socket.once('error', onError)
    socket.once('close', onClose)
    const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`, 'User-Agent: Ward-Scanner/0.1']
    if (proxy.authorization) lines.push(`Proxy-Authorization: ${proxy.authorization}`)
    socket.write(lines.join('\r\n') + '\r\n\r\n')
  })
}

const notHttp = (proxy: ProxyEndpoint, head: Buffer) =>
  egressError('EPROXY', `${proxy.label} does not speak HTTP (answered ${JSON.stringify(head.subarray(0, 16).toString('latin1'))})`)

/** Host of the check's CONNECT: `.invalid` never resolves (RFC 6761), so the proxy cannot connect anywhere. */
export const CHECK_AUTHORITY = 'ward-egress-check.invalid:443'

/**
 * The proxy check: `CONNECT ward-egress-check.invalid:443` with the profile's credentials. Proxies
 * authenticate before they resolve or connect, so:
 *  - 407 → the credentials are missing or wrong;
 *  - any other HTTP answer (typically 502/503/504 "cannot resolve", or 403 by policy) → the proxy is up,
 *    speaks HTTP and accepted us; a 2xx (a proxy that fakes tunnels) is accepted too and closed at once;
 *  - no HTTP answer → the proxy is down or is not an HTTP proxy.
 * Port 443 because common configurations (squid's `CONNECT !SSL_ports`) deny other ports before auth.
 */
export const checkHttpConnect: ProxyCheck<HttpConnectProfile> = async (p, signal, timeoutMs = EGRESS_CHECK_TIMEOUT_MS, vpnHost) => {
  const proxy = parseProxyUrl(p.url)
  const socket = await tunnel(
    { host: proxy.host, port: proxy.port, timeoutMs, signal },
    proxy.label,
    dialerFor(proxy, p.ca, vpnHost),
    async (s) => {
      const answer = await connectRequest(s, CHECK_AUTHORITY, proxy)
      if (answer.status === 407) {
        s.destroy()
        throw authError(proxy)
      }
      return s
    },
    `the CONNECT check with the ${proxy.label}`,
  )
  socket.destroy()
}
