// The WordPress Scanner's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { wordpressParams } from './params.js'
import { wordpressScannerChecks } from './checks.js'
import { versionChecks } from '../lib/versions/checks.js'

export const wordpressScannerManifest: ToolManifest<typeof wordpressParams> = defineManifest({
  id: 270,
  name: 'WordPress Scanner',
  description:
    'Finds the WordPress version, plugins, themes and users of a site and checks them against known vulnerabilities, with XML-RPC, wp-cron, ' +
    'debug log, uploads listing, configuration backups, leftover installers and open registration.',
  params: wordpressParams,
  // Core version problems report the shared version checks (cve.wordpress-*, eol.wordpress).
  checks: [...wordpressScannerChecks, ...versionChecks],
  load: async () => (await import('./run.js')).wordpressScanner.run,
})
