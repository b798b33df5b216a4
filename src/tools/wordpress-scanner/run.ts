// Tool 270, WordPress Scanner: core version and its known vulnerabilities, plugins and themes (from
// the pages and by probing readmes of known slugs), users, XML-RPC, wp-cron, debug log, uploads
// listing, wp-config copies, installers and registration, then the http templates tagged wordpress
// (shipped and imported) through the toolkit's template phase. The sequence only: I/O is in probes/,
// decisions in detect/.
import { defineTool, type ScanContext, type TestHandle } from '../../toolkit/tool.js'
import { tableEvidence, textEvidence } from '../../toolkit/evidence.js'
import { productVersionFindings } from '../lib/versions/report.js'
import { pageFacts } from '../lib/cms/page.js'
import { componentVulns, isOutdated, type KnownComponent } from '../lib/cms/components.js'
import type { Answer } from '../lib/cms/answer.js'
import { endNotProduct, openCmsSite, type CmsSite } from '../lib/cms/site.js'
import { wordpressScannerManifest } from './manifest.js'
import { wordpressTemplateFilter, type WordpressParams } from './params.js'
import { runHttpTemplatePhase } from '../lib/templates/http-phase.js'
import { createRecorder } from '../../toolkit/recorder.js'
import * as C from './checks.js'
import { knownPlugin, knownTheme, pluginsToProbe } from './data/components.js'
import { fetchCoreSources } from './probes/core-sources.js'
import { fetchPluginReadmes, fetchThemeStyles } from './probes/components.js'
import { fetchUserSources } from './probes/users.js'
import { fetchXmlrpc } from './probes/xmlrpc.js'
import { fetchExposures } from './probes/exposures.js'
import { coreAssetVersions, electVersion, feedVersion, generatorVersion, readmeVersion, type VersionVote } from './detect/core-version.js'
import { componentsInPage, mergeComponents, readmeTxtVersion, styleCssVersion, type SeenComponent } from './detect/components.js'
import { authorFromRedirect, mergeUsers, userFromOembed, usersFromRest } from './detect/users.js'
import * as X from './detect/exposures.js'
import { componentEntry, userEntry, type WordpressOutput } from './output.js'

type Ctx = ScanContext<WordpressParams>
type Site = CmsSite

export const wordpressScanner = defineTool(wordpressScannerManifest, async (ctx) => {
  const site = await openCmsSite(ctx)
  if (!site) return
  const { base, fetch, home } = site
  ctx.log(`WordPress scan of ${base.href}`)
  const facts = pageFacts(home?.body ?? '', base.href)
  const core = await fetchCoreSources(fetch, base)
  const out: WordpressOutput = { version: null, plugins: [], themes: [], users: [] }
  if (!X.looksLikeWordpress([home, core.login, core.readme])) {
    await endNotProduct(ctx, {
      base,
      product: 'WordPress',
      signs: 'no wp-content, wp-includes, wp-login.php or generator',
      test: 'Looks for the signs of a WordPress site on the home page, readme.html and wp-login.php.',
      member: 'wordpress',
      output: out,
    })
    return
  }

  out.version = await coreVersion(ctx, site, facts, core)
  const comps = await pluginsAndThemes(ctx, site, facts)
  out.plugins = comps.plugins
  out.themes = comps.themes
  out.users = (await users(ctx, site)).map(userEntry)
  await xmlrpc(ctx, site)
  await exposures(ctx, site)
  ctx.output('wordpress', out)
  if (!ctx.signal.aborted) await templates(ctx, site)
  ctx.log(`${fetch.count} requests besides the templates'`)
})

async function coreVersion(
  ctx: Ctx,
  s: Site,
  facts: ReturnType<typeof pageFacts>,
  core: Awaited<ReturnType<typeof fetchCoreSources>>,
): Promise<string | null> {
  const t = await ctx.test(
    'WordPress core version',
    'Reads the core version from the generator tag, readme.html, the feed, ?ver= of core assets and the ' +
      'login page, and checks it against the version catalogue and imported CVEs.',
  )
  const votes: VersionVote[] = []
  const vote = (version: string | null, source: string) => version && votes.push({ version, source })
  vote(generatorVersion(facts), 'the generator tag')
  if (core.readme?.status === 200) vote(readmeVersion(core.readme.body), 'readme.html')
  if (core.feed?.status === 200) vote(feedVersion(core.feed.body), 'the feed')
  for (const v of coreAssetVersions(facts)) vote(v, 'core asset versions')
  if (core.login?.status === 200)
    for (const v of coreAssetVersions(pageFacts(core.login.body, core.login.url))) vote(v, 'the login page assets')
  const { version, sources } = electVersion(votes)
  if (!version) {
    await t.done()
    return null
  }
  const seen = [...new Set(sources)].join(', ')
  ctx.log(`WordPress ${version} (from ${seen})`)
  const place = { ...s.where, url: s.base.href, location: 'component:wordpress' }
  await t.finding({
    check: C.wpVersionDisclosed,
    ...place,
    detail: `WordPress ${version} is announced by ${seen}.`,
    evidence: tableEvidence(
      ['Source', 'Version'],
      votes.map((v) => [v.source, v.version]),
    ),
  })
  for (const { finding, rows } of await productVersionFindings('wordpress', version, seen, ctx.vulns)) {
    await t.finding({
      ...finding,
      ...place,
      evidence: tableEvidence(
        ['Version', 'Source', 'CVE', 'Affected versions', 'CVSS'],
        rows.map((r) => [version, seen, r.cve, r.affected, r.cvss]),
      ),
    })
  }
  await t.done()
  return version
}

async function pluginsAndThemes(ctx: Ctx, s: Site, facts: ReturnType<typeof pageFacts>) {
  const t = await ctx.test(
    'WordPress plugins and themes',
    'Lists plugins and themes named by the pages and found by their readme (tool_params.enumerate), and checks their versions against known vulnerabilities.',
  )
  const passive = componentsInPage(facts)
  const probe = pluginsToProbe(ctx.params.enumerate).map((c) => c.slug)
  const slugs = [...new Set([...passive.plugins.map((c) => c.slug), ...probe])]
  ctx.log(`plugins: ${passive.plugins.length} named by the page, ${slugs.length} readmes to read (enumerate=${ctx.params.enumerate})`)
  let done = 0
  const readmes = await fetchPluginReadmes(s.fetch, s.base, slugs, ctx.params.concurrency, ctx.signal, () =>
    ctx.progress(++done, slugs.length + 10),
  )
  const fromReadme: SeenComponent[] = []
  for (const r of readmes) {
    const v = r.file ? readmeTxtVersion(r.file.body) : null
    if (v) fromReadme.push({ slug: r.slug, version: v.version, source: v.source })
  }
  const plugins = mergeComponents([...fromReadme, ...passive.plugins])
  const themeSlugs = [...new Set(passive.themes.map((c) => c.slug))]
  const styles = await fetchThemeStyles(s.fetch, s.base, themeSlugs, ctx.params.concurrency, ctx.signal)
  const themes = mergeComponents([
    ...styles.flatMap((x) =>
      x.file && styleCssVersion(x.file.body) ? [{ slug: x.slug, version: styleCssVersion(x.file.body), source: 'style.css' }] : [],
    ),
    ...passive.themes,
  ])
  for (const [kind, list, known] of [
    ['plugin', plugins, knownPlugin],
    ['theme', themes, knownTheme],
  ] as const) {
    for (const c of list) {
      ctx.log(`${kind} ${c.slug} ${c.version ?? '(version unknown)'} (${c.source})`)
      await componentFindings(ctx, t, s, kind, c, known(c.slug))
    }
  }
  await t.done()
  return {
    plugins: plugins.map((c) => componentEntry(c, knownPlugin(c.slug))),
    themes: themes.map((c) => componentEntry(c, knownTheme(c.slug))),
  }
}

async function componentFindings(
  ctx: Ctx,
  t: TestHandle,
  s: Site,
  kind: 'plugin' | 'theme',
  c: SeenComponent,
  known: KnownComponent | undefined,
) {
  if (!c.version) return
  const url = new URL(`wp-content/${kind}s/${c.slug}/`, s.base).href
  const label = `${known?.name ?? c.slug} (${kind} ${c.slug}) ${c.version}`
  for (const v of await componentVulns(known, c.version, ctx.vulns)) {
    await t.finding({
      check: C.wpPluginVulnerable,
      ...s.where,
      url,
      location: `${kind}:${c.slug}:${v.cve}`,
      cve: [v.cve],
      risk: v.cvss === null ? 'medium' : v.cvss >= 9 ? 'critical' : v.cvss >= 7 ? 'high' : v.cvss >= 4 ? 'medium' : 'low',
      cvss: v.cvss === null ? null : { score: v.cvss, vector: v.vector },
      name: `${known?.name ?? c.slug} ${c.version}: ${v.title} (${v.cve})`,
      detail: `${label} was identified from ${c.source}; ${v.cve} affects ${v.affected}, fixed in ${v.fixed}. Inferred from the version, not exploited.`,
      evidence: tableEvidence(
        ['Slug', 'Version', 'Source', 'CVE', 'Affected versions', 'CVSS'],
        [[c.slug, c.version, c.source, v.cve, v.affected, v.cvss ?? '']],
      ),
    })
  }
  if (isOutdated(known, c.version)) {
    await t.finding({
      check: C.wpPluginOutdated,
      ...s.where,
      url,
      location: `${kind}:${c.slug}`,
      detail: `${label} is older than ${known!.latest}, the latest release Ward knows of.`,
    })
  }
}

async function users(ctx: Ctx, s: Site) {
  const t = await ctx.test('WordPress user enumeration', 'Tries /?author=N, the REST API users endpoint and oEmbed for login names.')
  const src = await fetchUserSources(s.fetch, s.base, ctx.params.max_author_ids)
  const found = mergeUsers([
    ...src.authors.map((a) => (a.answer ? authorFromRedirect(a.id, a.answer.status, a.answer.location) : null)),
    ...(src.rest ? usersFromRest(src.rest.status, src.rest.body) : []),
    src.oembed ? userFromOembed(src.oembed.status, src.oembed.body) : null,
  ])
  if (found.length) {
    await t.finding({
      check: C.wpUserEnumeration,
      ...s.where,
      url: s.base.href,
      detail: `${found.length} login name(s) can be read: ${found
        .slice(0, 20)
        .map((u) => u.login)
        .join(', ')}.`,
      evidence: tableEvidence(
        ['Id', 'Login', 'Name', 'Found through'],
        found.map((u) => [u.id ?? '', u.login, u.name ?? '', u.source]),
      ),
    })
  }
  await t.done()
  return found
}

async function xmlrpc(ctx: Ctx, s: Site) {
  const t = await ctx.test('WordPress XML-RPC', 'Asks xmlrpc.php for its methods (system.listMethods, which changes nothing).')
  const { listMethods } = await fetchXmlrpc(s.fetch, s.base)
  const methods = X.xmlrpcMethods(listMethods)
  if (methods) {
    const url = new URL('xmlrpc.php', s.base).href
    await t.finding({
      check: C.wpXmlrpcEnabled,
      ...s.where,
      url,
      detail: `xmlrpc.php answers calls and lists ${methods.length} methods.`,
      evidence: textEvidence(methods.slice(0, 100).join('\n')),
    })
    if (methods.includes('system.multicall'))
      await t.finding({ check: C.wpXmlrpcMulticall, ...s.where, url, detail: 'system.multicall is among the methods xmlrpc.php lists.' })
  }
  await t.done()
}

async function exposures(ctx: Ctx, s: Site) {
  const t = await ctx.test(
    'WordPress exposed files and scripts',
    'Requests wp-cron.php, wp-content/debug.log, wp-content/uploads/, copies of wp-config.php, installers and the registration form.',
  )
  const e = await fetchExposures(s.fetch, s.base, ctx.params.concurrency, ctx.signal)
  const at = (a: Answer) => ({ ...s.where, url: a.url })
  const excerpt = (a: Answer) => textEvidence(a.body.slice(0, 600))
  if (e.cron && X.cronPublic(e.cron))
    await t.finding({ check: C.wpCronPublic, ...at(e.cron), detail: `${e.cron.url} answered ${e.cron.status}: it runs for anyone.` })
  if (e.debugLog && X.debugLogServed(e.debugLog))
    await t.finding({
      check: C.wpDebugLog,
      ...at(e.debugLog),
      detail: `${e.debugLog.url} is served (${e.debugLog.body.length} bytes read).`,
      evidence: excerpt(e.debugLog),
    })
  if (e.uploads && X.uploadsListed(e.uploads))
    await t.finding({ check: C.wpUploadsListing, ...at(e.uploads), detail: `${e.uploads.url} shows a directory listing.` })
  // The defines are secrets: the evidence names them, never their values.
  for (const a of e.configBackups.filter(X.configCopy))
    await t.finding({
      check: C.wpConfigBackup,
      ...at(a),
      detail: `${a.url} serves a copy of wp-config.php with its database credentials and keys.`,
    })
  for (const a of e.installers) {
    const what = X.installerOpen(a)
    if (what) await t.finding({ check: C.wpInstallScript, ...at(a), detail: `${a.url} shows ${what}.` })
  }
  if (e.register && X.registrationOpen(e.register))
    await t.finding({ check: C.wpRegistrationOpen, ...at(e.register), detail: 'wp-login.php?action=register shows the registration form.' })
  await t.done()
}

/** The http templates tagged wordpress (or those tool_params.templates names), one test each, on the scan's pace. */
async function templates(ctx: Ctx, s: Site) {
  await runHttpTemplatePhase({
    ctx: ctx as ScanContext<unknown>,
    net: ctx.net,
    base: s.base,
    where: { ...s.where, url: s.base.href, confirmed: false },
    rec: createRecorder(ctx, { quietAfterStop: true, logHits: true }),
    filter: wordpressTemplateFilter(ctx.params.templates),
    limiter: s.limiter,
    concurrency: ctx.params.concurrency,
  })
}
