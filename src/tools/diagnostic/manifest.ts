// The Diagnostic's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { diagnosticParams } from './params.js'
import { diagnosticChecks } from './checks.js'

export const diagnosticManifest: ToolManifest<typeof diagnosticParams> = defineManifest({
  id: 9001,
  name: 'Diagnostic',
  description:
    "Records tests and findings over time without touching the network, so the engine's lifecycle can be tested and demonstrated.",
  params: diagnosticParams,
  checks: diagnosticChecks,
  load: async () => (await import('./run.js')).runDiagnostic,
})
