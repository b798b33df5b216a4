// What speaks on one open port: service detection's probes, and for plain FTP the anonymous login
// attempt the risk rules need. Returns the facts; the caller merges them into the port.
import type { Egress } from '../../../toolkit/egress.js'
import { detectService, ftpAnonymousLogin, type ServiceInfo } from '../../lib/services/services.js'

export interface ServiceFacts extends ServiceInfo {
  /** FTP only: result of the anonymous login attempt (null: not tried or inconclusive). */
  ftpAnonymous?: boolean | null
}

export async function probeService(
  net: Egress,
  host: string,
  port: number,
  o: { signal: AbortSignal; timeoutMs: number; onProbe: (tried: number, planned: number) => void },
): Promise<ServiceFacts> {
  const info: ServiceFacts = await detectService(net, host, port, o)
  if (info.service === 'ftp' && !info.tls && !o.signal.aborted)
    info.ftpAnonymous = await ftpAnonymousLogin(net, host, port, { signal: o.signal, timeoutMs: o.timeoutMs })
  return info
}
