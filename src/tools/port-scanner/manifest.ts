// The TCP Port Scanner's manifest: what the API reads without loading the scanner.
import type { ToolManifest } from '../../toolkit/tool.js'
import { PortScannerParams } from './params.js'
import { portScannerChecks } from './checks.js'
import { portSpecProblem } from '../lib/ports/ports.js'

export const portScannerManifest: ToolManifest<typeof PortScannerParams> = {
  id: 70,
  name: 'TCP Port Scanner',
  description: 'TCP connect scan of the chosen ports, service and version detection on the open ones, and findings for open ports and services that should not face the network.',
  params: PortScannerParams,
  validateParams: (p) => portSpecProblem(p.ports),
  checks: portScannerChecks,
  supportsMaxScanTime: true,
  needs: {},
  restartable: true,
  load: async () => (await import('./index.js')).portScanner.run,
}
