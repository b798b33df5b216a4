// The Drupal Scanner's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { drupalParams } from './params.js'
import { drupalScannerChecks } from './checks.js'
import { versionChecks } from '../lib/versions/checks.js'

export const drupalScannerManifest: ToolManifest<typeof drupalParams> = defineManifest({
  id: 280,
  name: 'Drupal Scanner',
  description:
    'Finds the Drupal version, modules, themes and users of a site, checks the version against known ' +
    'vulnerabilities (Drupalgeddon 2 and 3 among them, by version only) and looks for update.php and ' +
    'install.php left open.',
  params: drupalParams,
  // Core version problems report the shared version checks (cve.drupal-*, eol.drupal).
  checks: [...drupalScannerChecks, ...versionChecks],
  load: async () => (await import('./run.js')).drupalScanner.run,
})
