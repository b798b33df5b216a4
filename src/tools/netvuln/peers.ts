// The parts of tool 70 (port discovery, service detection) and tool 450 (TLS analysis) this tool reuses:
// one import point, so the rest of the tool names only what it needs.
export { parsePorts, PORT_SPEC_PATTERN } from '../port-scanner/ports.js'
export { discoverTcpPorts, type PortState } from '../port-scanner/scan.js'
export { detectService, type ServiceInfo } from '../port-scanner/services.js'
export { scanTls, tlsFindings, type TlsReport } from '../tls-scanner/analyze.js'

import type { ServiceInfo } from '../port-scanner/services.js'

/** What this tool reads of tool 70's detection. */
export type DetectedService = Pick<ServiceInfo, 'service' | 'version' | 'product' | 'banner' | 'tls'>

/** Tool 450's analysis is part of this build (kept as a switch so the tool degrades to a skipped test without it). */
export const tlsAvailable: boolean = true
