// Tool 350, Network Vulnerability Scanner: everything the engine imports.
import { defineTool } from '../../toolkit/tool.js'
import { netvulnParams } from './params.js'
import { runNetvuln } from './run.js'

export const networkVulnScanner = defineTool({
  id: 350,
  name: 'Network Vulnerability Scanner',
  params: netvulnParams,
  supportsMaxScanTime: true,
  needs: {},
  restartable: true,
  run: runNetvuln,
})
