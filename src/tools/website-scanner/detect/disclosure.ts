// Version disclosure (Server, X-Powered-By, generator meta) and the known-vulnerable-version match.
import { tableEvidence, textEvidence } from '../../../toolkit/evidence.js'
import { generatorMeta, poweredBy, serverVersion } from '../checks.js'
import { metaGenerator } from './html.js'
import type { Component, Hit, PageObs } from './types.js'
import { PRODUCTS, productKey } from '../../lib/services/products.js'
import { productVersionFindings } from '../../lib/versions/report.js'
import type { VulnerabilityLookup } from '../../../toolkit/vulns.js'
import { uniqueComponents, urlComponents } from './components.js'

/** The vocabulary's label for a product name ("apache" → "Apache httpd"); unknown names as given. */
export const normaliseProduct = (p: string) => {
  const key = productKey(p.trim())
  return key ? PRODUCTS[key].label : p.trim()
}

export type { Component } from './types.js'

/** product/version tokens of a banner: "Apache/2.4.49 (Unix) OpenSSL/1.0.1f" → Apache 2.4.49, OpenSSL 1.0.1f. */
export function bannerComponents(banner: string, source: string): Component[] {
  const out: Component[] = []
  for (const m of banner.matchAll(/([A-Za-z][\w.-]*)\/(\d+(?:\.\d+)+[a-z]?)/g))
    out.push({ product: normaliseProduct(m[1]!), version: m[2]!, source })
  return out
}

/** "WordPress 6.1.1" / "Joomla! 3.9 - Open Source..." → the product and version. */
export function generatorComponent(value: string): Component | null {
  const m = /^\s*([A-Za-z][\w!.\- ]*?)\s+v?(\d+(?:\.\d+)+)/.exec(value)
  return m ? { product: normaliseProduct(m[1]!.replace(/!$/, '')), version: m[2]!, source: 'generator meta tag' } : null
}

export function components(p: PageObs): Component[] {
  const out: Component[] = []
  if (p.headers.server) out.push(...bannerComponents(p.headers.server, 'Server header'))
  if (p.headers['x-powered-by']) out.push(...bannerComponents(p.headers['x-powered-by'], 'X-Powered-By header'))
  if (p.headers['x-aspnet-version'])
    out.push({ product: 'ASP.NET', version: p.headers['x-aspnet-version'], source: 'X-AspNet-Version header' })
  const g = metaGenerator(p.body)
  const gc = g ? generatorComponent(g) : null
  if (gc) out.push(gc)
  out.push(...urlComponents(p.body))
  return out
}

export function detectServerVersion(p: PageObs): Hit[] {
  const s = p.headers.server
  if (!s || !/\d/.test(s)) return []
  return [{ check: serverVersion, detail: `Server: ${s}`, evidence: textEvidence(`GET ${p.url} → ${p.status}\nserver: ${s}`) }]
}

export function detectPoweredBy(p: PageObs): Hit[] {
  const names = ['x-powered-by', 'x-aspnet-version', 'x-aspnetmvc-version'].filter((n) => p.headers[n])
  if (!names.length) return []
  return [
    {
      check: poweredBy,
      detail: names.map((n) => `${n}: ${p.headers[n]}`).join('; '),
      evidence: textEvidence(names.map((n) => `${n}: ${p.headers[n]}`).join('\n')),
    },
  ]
}

export function detectGenerator(p: PageObs): Hit[] {
  const g = metaGenerator(p.body)
  if (!g || !/\d/.test(g)) return []
  return [{ check: generatorMeta, detail: `generator: ${g}`, evidence: textEvidence(`<meta name="generator" content="${g}">`) }]
}

/**
 * One hit per version problem of an announced component: catalogue families and end-of-life branches
 * (shared version checks), and the imported CVEs `vulns` knows (through the scan's lookup).
 */
export async function detectVulnerableVersions(p: PageObs, vulns?: VulnerabilityLookup, more: Component[] = []): Promise<Hit[]> {
  const hits: Hit[] = []
  const seen = new Set<string>()
  for (const c of uniqueComponents([...components(p), ...more])) {
    const key = productKey(c.product)
    if (!key || seen.has(`${key} ${c.version}`)) continue
    seen.add(`${key} ${c.version}`)
    for (const { finding, rows } of await productVersionFindings(key, c.version, `the ${c.source}`, vulns)) {
      hits.push({
        ...finding,
        location: `component:${c.product}`,
        evidence: tableEvidence(
          ['Component', 'Version', 'Source', 'CVE', 'Affected versions', 'CVSS'],
          rows.map((r) => [c.product, c.version, c.source, r.cve, r.affected, r.cvss]),
        ),
      })
    }
  }
  return hits
}
