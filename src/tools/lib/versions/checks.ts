// Version checks: one check per family of the catalogue (vuln_id `cve.<family id>`), shared by every tool
// that matches product versions, so one problem has one vuln_id whichever tool saw the version.
import { OWASP, type Check } from '../../../toolkit/check.js'
import { PRODUCTS } from '../services/products.js'
import { CATALOGUE, type CveFamily } from './catalogue.js'
import { riskFromCvss } from './match.js'

export const familyCheckId = (f: CveFamily) => `cve.${f.id}`

export const productLabel = (f: CveFamily) => PRODUCTS[f.product].label

/** The family's check: its title, CWE and the risk of its worst CVE (a finding carries the risk of the CVEs that match). */
function familyCheck(f: CveFamily): Check {
  return {
    id: familyCheckId(f),
    name: `${productLabel(f)}: ${f.title} (${f.cves.map((c) => c.id).join(', ')})`,
    description: f.description,
    impact: f.impact,
    risk: riskFromCvss(Math.max(...f.cves.map((c) => c.cvss))),
    cwe: [f.cwe],
    owasp: OWASP.vulnerableComponents,
    recommendation: `Upgrade to ${f.fixed}. The version was read from a banner or header, so check whether the vendor backported the fix before closing this.`,
    references: f.references,
    tags: ['cve', 'version', f.product],
  }
}

export const versionChecks: readonly Check[] = CATALOGUE.families.map(familyCheck)
const byId = new Map(versionChecks.map((c) => [c.id, c]))
export const checkForFamily = (f: CveFamily): Check => byId.get(familyCheckId(f))!
