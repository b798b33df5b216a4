// Find Virtual Hosts' manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { vhostFinderParams } from './params.js'
import { vhostFinderChecks } from './checks.js'

export const vhostFinderManifest: ToolManifest<typeof vhostFinderParams> = defineManifest({
  id: 160,
  name: 'Find Virtual Hosts',
  description:
    "Sends candidate names (from the target's certificate, reverse DNS, names known in the workspace and a prefix word list) " +
    "as Host to the target's address and reports the names that answer with a site of their own, internal-looking ones as findings.",
  params: vhostFinderParams,
  checks: vhostFinderChecks,
  load: async () => (await import('./run.js')).vhostFinder.run,
})
