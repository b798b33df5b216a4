// The Subdomain Finder's manifest: what the API reads without loading the scanner.
import { defineManifest, type ToolManifest } from '../../toolkit/tool.js'
import { subdomainFinderParams } from './params.js'
import { subdomainFinderChecks } from './checks.js'
import { parseServer } from '../lib/dns/client.js'

export const subdomainFinderManifest: ToolManifest<typeof subdomainFinderParams> = defineManifest({
  id: 20,
  name: 'Subdomain Finder',
  description:
    "Finds the subdomains of a domain by DNS brute force, zone transfer and the domain's own records, " +
    'and checks email anti-spoofing policy (SPF, DMARC) and subdomain takeover risk.',
  params: subdomainFinderParams,
  validateParams: (p) => {
    if (p.resolver === undefined) return undefined
    try {
      parseServer(p.resolver)
      return undefined
    } catch (e) {
      return `resolver: ${(e as Error).message}`
    }
  },
  checks: subdomainFinderChecks,
  load: async () => (await import('./run.js')).subdomainFinder.run,
})
