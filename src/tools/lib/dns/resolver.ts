// Which DNS server the scan asks: tool_params.resolver, else WARD_DNS_RESOLVER, else the first
// nameserver of /etc/resolv.conf (read as a file: tools never use the system resolver API).
import { readFile } from 'node:fs/promises'
import { parseServer, type DnsServer } from './client.js'

/** `configured` is the service's setting (WARD_DNS_RESOLVER, read by the configuration). */
export async function chooseResolver(
  param: string | undefined,
  configured: { WARD_DNS_RESOLVER?: string | null } = {},
  resolvConf = '/etc/resolv.conf',
): Promise<{ server: DnsServer; source: string }> {
  if (param) return { server: parseServer(param), source: 'tool_params.resolver' }
  if (configured.WARD_DNS_RESOLVER) return { server: parseServer(configured.WARD_DNS_RESOLVER), source: 'WARD_DNS_RESOLVER' }
  const text = await readFile(resolvConf, 'utf8').catch(() => '')
  const first = /^\s*nameserver\s+(\S+)/m.exec(text)?.[1]
  if (!first) throw new Error('no DNS resolver: set tool_params.resolver or WARD_DNS_RESOLVER (no nameserver in /etc/resolv.conf)')
  // resolv.conf may carry a zone index (fe80::1%eth0); the scan cannot use it.
  return { server: parseServer(first.replace(/%.*$/, '')), source: resolvConf }
}
