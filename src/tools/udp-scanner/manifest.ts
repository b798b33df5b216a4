// The UDP Port Scanner's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { udpScannerParams } from './params.js'
import { udpScannerChecks } from './checks.js'
import { UDP_PORTS } from './data/ports.js'
import { portSpecProblem } from '../../toolkit/ports.js'

export const udpScannerManifest: ToolManifest<typeof udpScannerParams> = defineManifest({
  id: 80,
  name: 'UDP Port Scanner',
  description:
    'UDP scan with protocol-specific probes: open ports, and exposed amplification-prone services (DNS, NTP, SNMP, SSDP, memcached, NetBIOS, TFTP).',
  params: udpScannerParams,
  validateParams: (p) => portSpecProblem(p.ports, UDP_PORTS),
  checks: udpScannerChecks,
  needs: { udp: true },
  load: async () => (await import('./run.js')).udpScanner.run,
})
