// The TLS analysis of one endpoint (the handshakes themselves live in tools/lib/tls, which the
// Network Vulnerability Scanner runs too): the report, or TargetUnreachableError when no TCP
// connection could be made.
import type { Egress } from '../../../toolkit/egress.js'
import { TargetUnreachableError } from '../../../toolkit/errors.js'
import { scanTls, type ScanTlsOptions, type TlsReport } from '../../lib/tls/analyze.js'

/** The report; null when the scan was stopped before a connection was made. */
export async function analyzeEndpoint(net: Egress, host: string, port: number, o: ScanTlsOptions): Promise<TlsReport | null> {
  const report = await scanTls(net, host, port, o)
  if (report.reachable) return report
  if (o.signal.aborted) return null
  throw new TargetUnreachableError(`Cannot connect to ${host}:${port}`)
}
