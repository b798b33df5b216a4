// Tool 350, Network Vulnerability Scanner: everything the engine imports.
import { defineTool } from '../tool.js'
import { netvulnParams } from './params.js'
import { portSpecProblem } from '../port-scanner/ports.js'
import { runNetvuln } from './run.js'

export const networkVulnScanner = defineTool({
  id: 350,
  name: 'Network Vulnerability Scanner',
  params: netvulnParams,
  validateParams: (p) => portSpecProblem(p.ports),
  supportsMaxScanTime: true,
  needs: {},
  restartable: true,
  run: runNetvuln,
})
