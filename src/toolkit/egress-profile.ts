// How a scan's traffic leaves (a VPN profile's connection settings) and the pure parsing both the
// profile rules (domain) and the egress implementations (engine) need: proxy URLs, "host:port", the
// error shape. No sockets here, so reading or validating a profile loads no network code.
import { ipVersion, stripBrackets } from './ip.js'

export type EgressProfile =
  | { type: 'socks5'; host: string; port: number; username?: string | null; password?: string | null }
  | { type: 'http_connect'; url: string; ca?: string | null }

/** An Error with the socket-style `code` egress callers switch on. */
export const egressError = (code: string, message: string) => Object.assign(new Error(message), { code })

/** "host:port" with IPv6 bracketed. */
export const hostPort = (host: string, port: number) => (ipVersion(host) === 6 ? `[${stripBrackets(host)}]:${port}` : `${host}:${port}`)

export interface ProxyEndpoint {
  tls: boolean
  host: string
  port: number
  /** The Proxy-Authorization header value, when the URL carries credentials. */
  authorization?: string
  label: string
}

/** Parses the proxy URL. Errors never repeat the URL: it may hold the password. */
export function parseProxyUrl(url: string): ProxyEndpoint {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    throw egressError('EINVAL', 'the HTTP CONNECT proxy URL is not a valid URL (expected http://[user:pass@]host:port)')
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw egressError('EINVAL', `the HTTP CONNECT proxy URL must start with http:// or https:// (got ${u.protocol}//)`)
  if ((u.pathname !== '/' && u.pathname !== '') || u.search || u.hash)
    throw egressError('EINVAL', 'the HTTP CONNECT proxy URL must not have a path, query or fragment')
  const tls = u.protocol === 'https:'
  const host = stripBrackets(u.hostname)
  const port = u.port ? Number(u.port) : tls ? 443 : 80
  let authorization: string | undefined
  if (u.username || u.password) {
    const user = decodeURIComponent(u.username)
    if (user.includes(':')) throw egressError('EINVAL', 'the HTTP CONNECT proxy username must not contain ":"')
    authorization = `Basic ${Buffer.from(`${user}:${decodeURIComponent(u.password)}`).toString('base64')}`
  }
  return { tls, host, port, authorization, label: `${tls ? 'HTTPS' : 'HTTP'} proxy ${hostPort(host, port)}` }
}
