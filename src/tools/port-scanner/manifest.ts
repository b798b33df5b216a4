// The TCP Port Scanner's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { PortScannerParams } from './params.js'
import { portScannerChecks } from './checks.js'
import { portSpecProblem } from '../../toolkit/ports.js'
import { TCP_PORTS } from '../lib/ports/top-ports.js'
import { versionChecks } from '../lib/versions/checks.js'
import { serviceChecks } from '../lib/services/checks.js'

export const portScannerManifest: ToolManifest<typeof PortScannerParams> = defineManifest({
  id: 70,
  name: 'TCP Port Scanner',
  description:
    'TCP scan of the chosen ports (SYN from a raw socket where the worker may, else connects), service ' +
    'and version detection on the open ones, findings for open ports and services that should not face ' +
    'the network, and known CVEs and end-of-life releases of the versions detected.',
  params: PortScannerParams,
  validateParams: (p) => portSpecProblem(p.ports, TCP_PORTS),
  // Versions named by service detection report the shared version checks.
  checks: [...portScannerChecks, ...serviceChecks, ...versionChecks],
  load: async () => (await import('./run.js')).portScanner.run,
})
