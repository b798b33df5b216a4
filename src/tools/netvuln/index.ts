// Tool 350, Network Vulnerability Scanner: everything the engine imports.
import { defineTool } from '../../toolkit/tool.js'
import { netvulnManifest } from './manifest.js'
import { netvulnParams } from './params.js'
import { runNetvuln } from './run.js'

export const networkVulnScanner = defineTool(netvulnManifest, runNetvuln)
