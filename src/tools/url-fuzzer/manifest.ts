// The URL Fuzzer's manifest: what the API reads without loading the scanner.
import type { ToolManifest } from '../../toolkit/tool.js'
import { urlFuzzerParams } from './params.js'
import { urlFuzzerChecks } from './checks.js'

export const urlFuzzerManifest: ToolManifest<typeof urlFuzzerParams> = {
  id: 90,
  name: 'URL Fuzzer',
  description: 'Requests words from a wordlist under the target URL and reports what exists: version-control folders, backups, configuration files, admin panels, debug endpoints and other paths.',
  params: urlFuzzerParams,
  checks: urlFuzzerChecks,
  supportsMaxScanTime: true,
  needs: {},
  restartable: true,
  load: async () => (await import('./index.js')).urlFuzzer.run,
}
