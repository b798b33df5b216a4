// Network egress: the one module through which every tool connection leaves Ward.
// `direct` dials from this host; VPN profiles (socks5, http_connect) tunnel TCP through a proxy.
// Tools never import node:net/tls/dgram or undici themselves (enforced by test/architecture/egress-rule.test.ts).
import type { Socket } from 'node:net'
import type { TLSSocket, ConnectionOptions } from 'node:tls'
import type { Socket as UdpSocket } from 'node:dgram'

export interface ConnectOptions {
  host: string
  port: number
  timeoutMs?: number
  signal?: AbortSignal
}

export interface TlsConnectOptions extends ConnectOptions {
  /** SNI; defaults to the host when it is a name. */
  servername?: string
  /** Extra TLS options (minVersion, maxVersion, ciphers, ...). Certificates are never verified here. */
  tls?: ConnectionOptions
}

export interface HttpRequest {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** Whole-request time limit (default 10 s). */
  timeoutMs?: number
  signal?: AbortSignal
  /** Body bytes kept; the rest is discarded and `truncated` is set (default 2 MiB). */
  maxBodyBytes?: number
}

export interface HttpResponse {
  url: string
  status: number
  /** Lower-case names; repeated headers are joined with ", " except set-cookie (an array). */
  headers: Record<string, string>
  setCookies: string[]
  body: Buffer
  truncated: boolean
  elapsedMs: number
  text(): string
}

export type RawPortState = 'open' | 'closed' | 'filtered'

export type NativeScanMethod = 'syn' | 'connect'

export interface NativeScanOptions {
  method: NativeScanMethod
  ports: readonly number[]
  /** Longest wait for an answer to one probe (ms); the adaptive timeout never exceeds it. */
  timeoutMs: number
  /** Most probes (SYNs, connects) awaiting an answer. */
  window: number
  /** Resends of a port that stayed silent (default 1). */
  retries?: number
  /** Most probes sent per second (absent: no limit beyond the window). */
  rate?: number
  signal: AbortSignal
  onProgress?(done: number, total: number): void
  onOpen?(port: number): void
}

export interface NativeScanResult {
  /** Every port whose state is known, sorted by port. */
  states: Array<{ port: number; state: RawPortState }>
  sent: number
  received: number
}

/**
 * Whole-range TCP scans done natively, only where packets leave from this host (direct egress):
 * half-open SYNs from a raw socket, or connects with a worker thread's own sockets.
 */
export interface NativePortScanner {
  /** Null when `method` can run here; otherwise why not (no CAP_NET_RAW, addon not built...). */
  unavailable(method: NativeScanMethod): string | null
  /**
   * Scans a host, IPv4 or IPv6 (literal or name, checked against the scope like every connection).
   * A zoned IPv6 address is refused with code EAFNOSUPPORT so the caller can fall back to Node's sockets.
   */
  scan(host: string, o: NativeScanOptions): Promise<NativeScanResult>
}

export interface Egress {
  readonly kind: 'direct' | 'socks5' | 'http_connect'
  /** Whether UDP can leave through this egress. */
  readonly carriesUdp: boolean
  /** A connected TCP socket. Rejects on refusal, timeout or abort (error `code` kept). */
  connect(o: ConnectOptions): Promise<Socket>
  /** A TLS socket after the handshake, certificate not verified (scanners look at bad certs). */
  tlsConnect(o: TlsConnectOptions): Promise<TLSSocket>
  /**
   * TLS over a socket this egress connected, after a plain-text prelude (SMTP STARTTLS): the handshake
   * as for tlsConnect; `o.host`/`o.port` name the peer. The caller stops reading `socket` first.
   */
  startTls(socket: Socket, o: TlsConnectOptions): Promise<TLSSocket>
  /** One HTTP(S) request; never follows redirects. */
  http(url: string, req?: HttpRequest): Promise<HttpResponse>
  /** An unbound UDP socket; throws when the egress cannot carry UDP. */
  udp(type?: 'udp4' | 'udp6'): UdpSocket
  /** Native SYN and connect scans, on the direct egress only. */
  readonly portScan?: NativePortScanner
  /** Proves the egress works (for a proxy: a handshake with it). Rejects with a clear message. */
  check(signal?: AbortSignal): Promise<void>
  close(): Promise<void>
}
