// Tool 280, Drupal Scanner: core version (changelogs, core asset versions, generator major) and its
// known vulnerabilities by version (Drupalgeddon 2 and 3 among them: Ward never exploits), modules and
// themes (from the page and by .info files of a shipped list), user pages, update.php and install.php.
// The sequence only: I/O is in probes/, decisions in detect/.
import { defineTool, type ScanContext } from '../../toolkit/tool.js'
import { tableEvidence, textEvidence } from '../../toolkit/evidence.js'
import { productVersionFindings } from '../lib/versions/report.js'
import { mostVoted, pageFacts, type PageFacts } from '../lib/cms/page.js'
import { endNotProduct, openCmsSite, type CmsSite } from '../lib/cms/site.js'
import { drupalScannerManifest } from './manifest.js'
import * as C from './checks.js'
import { modulesToProbe } from './data/modules.js'
import { type CoreFiles, fetchCoreFiles, fetchModuleInfos, fetchUserPages } from './probes/files.js'
import * as D from './detect/drupal.js'
import type { DrupalOutput } from './output.js'
import type { DrupalParams } from './params.js'

export const drupalScanner = defineTool(drupalScannerManifest, async (ctx) => {
  const site = await openCmsSite(ctx)
  if (!site) return
  const { base, fetch, home } = site
  const facts = pageFacts(home?.body ?? '', base.href)
  const major = D.generatorMajor(facts, site.homeHeaders['x-generator'])
  const files = await fetchCoreFiles(fetch, base)
  const out: DrupalOutput = { version: null, major, modules: [], themes: [], users: [] }
  if (!D.looksLikeDrupal([home, files.changelog, files.coreChangelog], major)) {
    await endNotProduct(ctx, {
      base,
      product: 'Drupal',
      signs: 'no generator, Drupal.settings, sites/ or core/ paths, changelog',
      test: 'Looks for the signs of a Drupal site on the home page and its changelogs.',
      member: 'drupal',
      output: out,
    })
    return
  }

  await coreVersionTest(ctx, site, { facts, files, major }, out)
  await modulesTest(ctx, site, facts, out)
  await usersTest(ctx, site, out)
  await exposedScriptsTest(ctx, site, files)

  ctx.output('drupal', out)
  ctx.log(`${fetch.count} requests`)
})

/** The core version from the changelogs, core asset versions and the generator, and its known vulnerabilities by version. */
async function coreVersionTest(
  ctx: ScanContext<DrupalParams>,
  site: CmsSite,
  seen: { facts: PageFacts; files: CoreFiles; major: string | null },
  out: DrupalOutput,
): Promise<void> {
  const { base, where } = site
  const { facts, files, major } = seen
  const vt = await ctx.test(
    'Drupal core version',
    'Reads the core version from CHANGELOG.txt, core/CHANGELOG.txt, ?v= of core assets and the ' +
      'generator, and checks it against the version catalogue and imported CVEs (by version only: nothing ' +
      'is exploited).',
  )
  const votes = [
    { version: D.changelogVersion(files.changelog), source: 'CHANGELOG.txt' },
    { version: D.changelogVersion(files.coreChangelog), source: 'core/CHANGELOG.txt' },
    ...D.coreAssetVersions(facts).map((v) => ({ version: v, source: 'core asset versions' })),
  ].filter((v): v is { version: string; source: string } => !!v.version && (!major || v.version.startsWith(`${major}.`)))
  out.version = mostVoted(votes.map((v) => v.version))
  out.major ??= out.version?.split('.')[0] ?? null
  ctx.log(`Drupal ${out.version ?? (major ? `${major}.x` : 'of unknown version')}${major ? ` (generator: Drupal ${major})` : ''}`)
  if (out.version) {
    const seen = [...new Set(votes.filter((v) => v.version === out.version).map((v) => v.source))].join(', ')
    const place = { ...where, url: base.href, location: 'component:drupal' }
    await vt.finding({
      check: C.drupalVersionDisclosed,
      ...place,
      detail: `Drupal ${out.version} is announced by ${seen}.`,
      evidence: tableEvidence(
        ['Source', 'Version'],
        votes.map((v) => [v.source, v.version]),
      ),
    })
    for (const { finding, rows } of await productVersionFindings('drupal', out.version, seen, ctx.vulns)) {
      await vt.finding({
        ...finding,
        ...place,
        evidence: tableEvidence(
          ['Version', 'Source', 'CVE', 'Affected versions', 'CVSS'],
          rows.map((r) => [out.version, seen, r.cve, r.affected, r.cvss]),
        ),
      })
    }
  }
  await vt.done()
}

/** Modules and themes (listed: contributed modules have no shipped vulnerability ranges). */
async function modulesTest(ctx: ScanContext<DrupalParams>, site: CmsSite, facts: PageFacts, out: DrupalOutput): Promise<void> {
  const p = ctx.params
  const { base, fetch } = site
  const mt = await ctx.test(
    'Drupal modules and themes',
    'Lists modules and themes named by the page and found by their .info file (tool_params.enumerate).',
  )
  const passive = D.componentsInPage(facts)
  const slugs = [...new Set([...passive.modules, ...modulesToProbe(p.enumerate)])]
  const infos = await fetchModuleInfos(fetch, base, slugs, p.concurrency, ctx.signal)
  const found = new Map<string, string | null>(passive.modules.map((m) => [m, null]))
  for (const i of infos) {
    const v = D.infoVersion(i.file)
    if (v) found.set(i.slug, v.version ?? found.get(i.slug) ?? null)
  }
  out.modules = [...found].map(([slug, version]) => ({ slug, version })).sort((a, b) => a.slug.localeCompare(b.slug))
  out.themes = passive.themes.map((slug) => ({ slug, version: null }))
  ctx.log(
    `modules: ${out.modules.map((m) => `${m.slug}${m.version ? ` ${m.version}` : ''}`).join(', ') || 'none'}; ` +
      `themes: ${out.themes.map((t) => t.slug).join(', ') || 'none'}`,
  )
  await mt.done()
}

/** User names shown to anonymous visitors on /user/N. */
async function usersTest(ctx: ScanContext<DrupalParams>, site: CmsSite, out: DrupalOutput): Promise<void> {
  const p = ctx.params
  const { base, where, fetch } = site
  const ut = await ctx.test('Drupal user enumeration', 'Requests /user/N and reports user names shown to anonymous visitors.')
  const users = (await fetchUserPages(fetch, base, p.max_user_ids))
    .map((u) => D.userFromPage(u.id, u.answer))
    .filter((u): u is { id: number; name: string } => !!u)
  out.users = users
  if (users.length)
    await ut.finding({
      check: C.drupalUserEnumeration,
      ...where,
      url: new URL('user/1', base).href,
      detail: `${users.length} user name(s) are shown to anonymous visitors: ${users.map((u) => u.name).join(', ')}.`,
      evidence: tableEvidence(
        ['Id', 'Name'],
        users.map((u) => [u.id, u.name]),
      ),
    })
  await ut.done()
}

/** update.php and install.php that would run for anyone. */
async function exposedScriptsTest(ctx: ScanContext<DrupalParams>, site: CmsSite, files: CoreFiles): Promise<void> {
  const { where } = site
  const et = await ctx.test(
    'Drupal update.php and install.php',
    'Requests update.php and install.php and reports them when they would run for anyone.',
  )
  if (files.update && D.updateOpen(files.update))
    await et.finding({
      check: C.drupalUpdateExposed,
      ...where,
      url: files.update.url,
      detail: `${files.update.url} shows the database update form to anonymous visitors.`,
      evidence: textEvidence(files.update.body.slice(0, 400)),
    })
  for (const a of [files.install, files.coreInstall])
    if (a && D.installOpen(a))
      await et.finding({ check: C.drupalInstallExposed, ...where, url: a.url, detail: `${a.url} offers to install Drupal.` })
  await et.done()
}
