// The SharePoint Scanner's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { sharepointParams } from './params.js'
import { sharepointScannerChecks } from './checks.js'
import { versionChecks } from '../lib/versions/checks.js'

export const sharepointScannerManifest: ToolManifest<typeof sharepointParams> = defineManifest({
  id: 260,
  name: 'SharePoint Scanner',
  description:
    'Finds the SharePoint build (MicrosoftSharePointTeamServices, _vti_pvt files) and its product and ' +
    'update, checks it against known vulnerabilities by build (CVE-2019-0604, CVE-2023-29357, ToolShell ' +
    'among them; never exploited) and looks for _vti_bin web services, _api site users and lists and ' +
    '_layouts pages open to anonymous visitors.',
  params: sharepointParams,
  // Build problems report the shared version checks (cve.sharepoint-*, eol.sharepoint).
  checks: [...sharepointScannerChecks, ...versionChecks],
  load: async () => (await import('./run.js')).sharepointScanner.run,
})
