// The recon: the start page and favicon → technologies (catalogue + user entries) → one info finding
// listing them → version findings (end of life, CVEs) for those the version catalogue knows.
import { defineTool, type ScanContext } from '../../toolkit/tool.js'
import { websiteReconManifest } from './manifest.js'
import { tableEvidence } from '../../toolkit/evidence.js'
import { productVersionFindings } from '../lib/versions/report.js'
import { looksLikeVersion } from '../lib/versions/match.js'
import { portOf, serviceOf } from '../lib/http/url.js'
import { compileCatalogue, type RawEntry } from './data/catalogue.js'
import { FINGERPRINTS } from './data/shipped.js'
import { detectTechnologies } from './detect/match.js'
import { observeSite } from './probes/site.js'
import { technologiesFound } from './checks.js'
import { technologiesOutput } from './output.js'
import type { WebsiteReconParams } from './params.js'

// Tool 310, Website Recon: technology fingerprinting of a website.
export const websiteRecon = defineTool(websiteReconManifest, (ctx) => runWebsiteRecon(ctx))

async function runWebsiteRecon(ctx: ScanContext<WebsiteReconParams>): Promise<void> {
  const extra = compileCatalogue(ctx.params.fingerprints as Record<string, RawEntry>)
  const names = new Set(extra.map((t) => t.name))
  const catalogue = [...FINGERPRINTS.filter((t) => !names.has(t.name)), ...extra]

  const t = await ctx.test(
    'Technology fingerprinting',
    `Matches the start page's headers, cookies, meta tags, scripts, links and favicon against ${catalogue.length} technology fingerprints.`,
  )
  let obs: Awaited<ReturnType<typeof observeSite>>
  try {
    obs = await observeSite({
      net: ctx.net,
      target: ctx.target,
      redirectLevel: ctx.options.redirectLevel,
      scanOriginalUrl: ctx.options.scanOriginalUrl,
      signal: ctx.signal,
      favicon: ctx.params.favicon,
      log: (l) => ctx.log(l),
    })
  } catch (e) {
    await t.error(ctx.signal.aborted ? 'the scan was stopped' : (e as Error).message)
    throw e
  }
  ctx.progress(1, 2)
  const url = new URL(obs.url)
  const where = { url: obs.url, port: portOf(url), protocol: 'tcp' as const, service: serviceOf(url) }
  if (obs.favicon) ctx.log(`favicon: mmh3 ${obs.favicon.mmh3}, sha256 ${obs.favicon.sha256}`)
  const techs = detectTechnologies(obs, catalogue)
  for (const x of techs)
    ctx.log(`${x.name}${x.version ? ` ${x.version}` : ''} [${x.categories.join(', ')}] ${x.confidence}%: ${x.evidence}`)
  ctx.output('technologies', technologiesOutput(techs))
  if (techs.length)
    await t.finding({
      check: technologiesFound,
      ...where,
      detail: `${techs.length} technolog${techs.length === 1 ? 'y' : 'ies'} identified on ${obs.url}.`,
      evidence: tableEvidence(
        ['Technology', 'Version', 'Categories', 'Confidence', 'Evidence'],
        techs.map((x) => [x.name, x.version ?? '', x.categories.join(', '), `${x.confidence}%`, x.evidence]),
      ),
    })
  await t.done()

  const v = await ctx.test(
    'Outdated technologies',
    'Matches the versions found against the version catalogue (end of life, known CVEs) and imported NVD CVEs.',
  )
  const byName = new Map(catalogue.map((c) => [c.name, c]))
  for (const x of techs) {
    const product = byName.get(x.name)?.product
    if (!product || !x.version || !looksLikeVersion(x.version)) continue
    for (const { finding, rows } of await productVersionFindings(
      product,
      x.version,
      `the ${x.evidence.split('; ')[0]} of ${obs.url}`,
      ctx.vulns,
    ))
      await v.finding({
        ...finding,
        ...where,
        location: x.name,
        evidence: tableEvidence(
          ['CVE', 'Affected', 'CVSS'],
          rows.map((r) => [r.cve, r.affected, r.cvss]),
        ),
      })
  }
  await v.done()
  ctx.progress(2, 2)
}
