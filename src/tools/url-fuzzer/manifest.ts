// The URL Fuzzer's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { authenticationProblem } from '../lib/http/auth/markers.js'
import { urlFuzzerParams } from './params.js'
import { urlFuzzerChecks } from './checks.js'

export const urlFuzzerManifest: ToolManifest<typeof urlFuzzerParams> = defineManifest({
  id: 90,
  name: 'URL Fuzzer',
  description:
    'Requests words from a wordlist under the target URL and reports what exists: version-control ' +
    'folders, backups, configuration files, admin panels, debug endpoints and other paths.',
  params: urlFuzzerParams,
  // A marker the linear-time engine cannot run is refused here, naming it (a 400).
  validateParams: (p) => authenticationProblem(p.authentication),
  checks: urlFuzzerChecks,
  load: async () => (await import('./run.js')).urlFuzzer.run,
})
