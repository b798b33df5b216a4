// Website Recon's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { websiteReconParams } from './params.js'
import { websiteReconChecks } from './checks.js'
import { versionChecks } from '../lib/versions/checks.js'
import { compileCatalogue, FingerprintError, type RawEntry } from './data/catalogue.js'

export const websiteReconManifest: ToolManifest<typeof websiteReconParams> = defineManifest({
  id: 310,
  name: 'Website Recon',
  description:
    'Fingerprints the technologies of a website (server, language, framework, CMS, JavaScript libraries, ' +
    'analytics, CDN, WAF, with versions) from its headers, cookies, markup, scripts and favicon, and ' +
    'reports outdated or end-of-life versions.',
  params: websiteReconParams,
  validateParams: (p) => fingerprintsProblem(p.fingerprints),
  checks: [...websiteReconChecks, ...versionChecks],
  load: async () => (await import('./run.js')).websiteRecon.run,
})

/** What is wrong with the user's catalogue entries (a bad pattern, a member of the wrong type), or undefined. */
function fingerprintsProblem(entries: Record<string, unknown>): string | undefined {
  try {
    compileCatalogue(entries as Record<string, RawEntry>)
    return undefined
  } catch (e) {
    if (e instanceof FingerprintError) return `fingerprints: ${e.message}`
    throw e
  }
}
