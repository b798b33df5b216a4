// Which DNS server the scan asks: tool_params.resolver, else WARD_DNS_RESOLVER, else the first
// nameserver of /etc/resolv.conf (read as a file: tools never use the system resolver API).
import { readFile } from 'node:fs/promises'
import { parseServer, type DnsServer } from '../dns/client.js'

export async function chooseResolver(param: string | undefined, env = process.env, resolvConf = '/etc/resolv.conf'): Promise<{ server: DnsServer; source: string }> {
  if (param) return { server: parseServer(param), source: 'tool_params.resolver' }
  if (env.WARD_DNS_RESOLVER) return { server: parseServer(env.WARD_DNS_RESOLVER), source: 'WARD_DNS_RESOLVER' }
  const text = await readFile(resolvConf, 'utf8').catch(() => '')
  const first = /^\s*nameserver\s+(\S+)/m.exec(text)?.[1]
  if (!first) throw new Error('no DNS resolver: set tool_params.resolver or WARD_DNS_RESOLVER (no nameserver in /etc/resolv.conf)')
  // resolv.conf may carry a zone index (fe80::1%eth0); the scan cannot use it.
  return { server: parseServer(first.replace(/%.*$/, '')), source: resolvConf }
}
