// The Website Scanner's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { authenticationProblem } from '../lib/http/auth/markers.js'
import { websiteParams } from './params.js'
import { websiteScannerChecks } from './checks.js'
import { versionChecks } from '../lib/versions/checks.js'

export const websiteScannerManifest: ToolManifest<typeof websiteParams> = defineManifest({
  id: 170,
  name: 'Website Scanner',
  description:
    'Light (passive) and deep (crawl and active injection checks) web scans: security headers, cookies, ' +
    'CORS, disclosure, sensitive files, known vulnerable versions, XSS, SQL injection and more.',
  params: websiteParams,
  // A marker the linear-time engine cannot run is refused here, naming it (a 400).
  validateParams: (p) => authenticationProblem(p.authentication),
  // Known-vulnerable versions report the shared version checks (one vuln_id per CVE family).
  checks: [...websiteScannerChecks, ...versionChecks],
  load: async () => (await import('./run.js')).websiteScanner.run,
})
