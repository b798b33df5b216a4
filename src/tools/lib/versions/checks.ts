// Version checks, shared by every tool that matches product versions, so one problem has one vuln_id
// whichever tool saw the version: one check per family of the catalogue (`cve.<family id>`), one per
// product with end-of-life branches (`eol.<product>`), and, built at scan time, one per imported NVD
// CVE outside the catalogue (`cve.<cve id in lower case>`, not listed in manifests: they come from data).
import { OWASP, type Check } from '../../../toolkit/check.js'
import type { KnownCve } from '../../../toolkit/vulns.js'
import { PRODUCTS, type ProductKey } from '../services/products.js'
import { CATALOGUE, type CveFamily } from './catalogue.js'
import { riskFromCvss } from './match.js'

const cweUrl = (n: number) => `https://cwe.mitre.org/data/definitions/${n}.html`

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

export const eolCheckId = (product: ProductKey) => `eol.${product}`

function eolCheck(product: ProductKey): Check {
  const label = PRODUCTS[product].label
  return {
    id: eolCheckId(product),
    name: `${label} version past end of life`,
    description: `The ${label} release branch in use is past its end of life: its maintainers no longer publish security fixes for it.`,
    impact: 'Vulnerabilities found after the end of life stay unfixed; public exploits for them keep working against this server.',
    risk: 'medium',
    cwe: ['CWE-1104'], // Use of Unmaintained Third Party Components
    owasp: OWASP.vulnerableComponents,
    recommendation:
      `Upgrade ${label} to a supported release branch. A distribution with extended support may still ` +
      'patch this branch: check its lifecycle before closing this.',
    references: [...new Set(CATALOGUE.eol.filter((b) => b.product === product).map((b) => b.reference)), cweUrl(1104)],
    tags: ['eol', 'version', product],
  }
}

const EOL_PRODUCTS = [...new Set(CATALOGUE.eol.map((b) => b.product))]

export const versionChecks: readonly Check[] = [...CATALOGUE.families.map(familyCheck), ...EOL_PRODUCTS.map(eolCheck)]
const byId = new Map(versionChecks.map((c) => [c.id, c]))
export const checkForFamily = (f: CveFamily): Check => byId.get(familyCheckId(f))!
export const checkForEol = (product: ProductKey): Check => byId.get(eolCheckId(product))!

/** The CVSS a finding of an imported CVE carries: v3.1 where scored, else v4.0. */
export const cvssOf = (c: KnownCve) => c.cvss3 ?? c.cvss4

/** The check of an imported NVD CVE: its own description, CWE, references and CVSS-based risk. */
export const checkForImportedCve = (c: KnownCve, product: ProductKey): Check => {
  const label = PRODUCTS[product].label
  const cwe = c.cwe.filter((w): w is `CWE-${number}` => /^CWE-\d+$/.test(w))
  const score = cvssOf(c)?.score
  return {
    id: `cve.${c.id.toLowerCase()}`,
    name: `${label}: ${c.id}`,
    description: c.description || `${c.id} affects ${label}.`,
    impact:
      'Depending on the flaw, an attacker can read data, change it, stop the service or execute code; see the CVE description and references.',
    // No score published yet: medium until NVD or the CNA scores it.
    risk: score === undefined ? 'medium' : riskFromCvss(score),
    cwe,
    owasp: OWASP.vulnerableComponents,
    recommendation:
      `Upgrade ${label} to a release outside the affected range (see the references). The version was ` +
      'read from a banner or header, so check whether the vendor backported the fix before closing ' +
      'this.',
    references: [`https://nvd.nist.gov/vuln/detail/${c.id}`, ...c.references.slice(0, 9)],
    tags: ['cve', 'version', 'nvd', product],
  }
}
