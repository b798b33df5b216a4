// The certificate an HTTPS endpoint presents (for the target's own name when it has one).
import { CONNECT_TIMEOUT_MS } from '../../../toolkit/timeouts.js'
import type { Egress } from '../../../toolkit/egress.js'
import type { Endpoint } from './endpoints.js'

export interface PresentedCertificate {
  subject: string
  subjectAltName: string | undefined
}

/** The leaf certificate's subject and subjectAltName; null when the handshake fails. */
export async function presentedCertificate(
  net: Egress,
  e: Endpoint,
  servername: string | undefined,
  signal: AbortSignal,
): Promise<PresentedCertificate | null> {
  try {
    const s = await net.tlsConnect({ host: e.host, port: e.port, servername, timeoutMs: CONNECT_TIMEOUT_MS, signal })
    try {
      const c = s.getPeerX509Certificate()
      return c ? { subject: c.subject, subjectAltName: c.subjectAltName } : null
    } finally {
      s.destroy()
    }
  } catch {
    return null
  }
}
