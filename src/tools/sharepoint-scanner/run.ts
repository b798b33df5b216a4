// Tool 260, SharePoint Scanner: the build (MicrosoftSharePointTeamServices, _vti_pvt files), its product,
// update and known vulnerabilities by build (never exploited), then what answers anonymous visitors:
// _vti_bin web services, the _api site users and lists, _layouts application pages.
// The sequence only: I/O is in probes/, decisions in detect/.
import { defineTool, type ScanContext } from '../../toolkit/tool.js'
import { tableEvidence } from '../../toolkit/evidence.js'
import { productVersionFindings } from '../lib/versions/report.js'
import { endNotProduct, openCmsSite, type CmsSite } from '../lib/cms/site.js'
import { sharepointScannerManifest } from './manifest.js'
import * as C from './checks.js'
import { API_LISTS, API_USERS, LAYOUTS_PAGES, WEB_SERVICES } from './data/endpoints.js'
import { fetchApi, fetchPaths, fetchVersionFiles, type VersionFiles } from './probes/site.js'
import * as V from './detect/version.js'
import * as E from './detect/endpoints.js'
import type { SharepointOutput } from './output.js'
import type { SharepointParams } from './params.js'

type Ctx = ScanContext<SharepointParams>

export const sharepointScanner = defineTool(sharepointScannerManifest, async (ctx) => {
  const site = await openCmsSite(ctx)
  if (!site) return
  const files = await fetchVersionFiles(site.fetch, site.base)
  const header = site.homeHeaders.microsoftsharepointteamservices ?? files.header
  const builds = [
    { build: V.cnfBuild(files.buildversion), source: '/_vti_pvt/buildversion.cnf' },
    { build: V.cnfBuild(files.service), source: '/_vti_pvt/service.cnf' },
    { build: V.buildOf(header), source: 'the MicrosoftSharePointTeamServices header' },
  ].filter((b): b is V.Build => !!b.build)
  const out: SharepointOutput = {
    version: header ?? null,
    build: null,
    product: null,
    update: null,
    anonymous_endpoints: [],
    users: [],
    lists: [],
  }
  if (!V.looksLikeSharePoint(site.homeHeaders, [site.home, files.inf], builds)) {
    await endNotProduct(ctx, {
      base: site.base,
      product: 'SharePoint',
      signs: 'no SharePoint headers, page context, _vti_inf.html or build file',
      test: 'Looks for the signs of SharePoint in the headers, the home page, _vti_inf.html and _vti_pvt.',
      member: 'sharepoint',
      output: out,
    })
    return
  }
  await buildTest(ctx, site, builds, files, out)
  await webServicesTest(ctx, site, out)
  await restApiTest(ctx, site, out)
  await layoutsTest(ctx, site, out)
  ctx.output('sharepoint', out)
  ctx.log(`${site.fetch.count} requests`)
})

/** The build, its product and update, and its known vulnerabilities through the version catalogue and imported CVEs. */
async function buildTest(ctx: Ctx, site: CmsSite, builds: V.Build[], files: VersionFiles, out: SharepointOutput): Promise<void> {
  const { base, where } = site
  const t = await ctx.test(
    'SharePoint build',
    'Reads the build from the MicrosoftSharePointTeamServices header and /_vti_pvt/, names its product and update, and checks it against the version catalogue and imported CVEs (by build only: nothing is exploited).',
  )
  const best = V.bestBuild(builds)
  if (best) {
    out.build = best.build
    const p = V.productOf(best.build)
    out.product = p?.product ?? null
    out.update = p?.update ?? null
    const place = { ...where, url: base.href, location: 'component:sharepoint' }
    const evidence = tableEvidence(
      ['Source', 'Build'],
      builds.map((b) => [b.source, b.build]),
    )
    await t.finding({
      check: C.sharepointVersionDisclosed,
      ...place,
      detail: `${out.product ?? 'SharePoint'} build ${best.build}${out.update ? ` (${out.update})` : ''} is told by ${best.source}.`,
      evidence,
    })
    const seen = `build ${best.build} from ${best.source}`
    for (const { finding, rows } of await productVersionFindings('sharepoint', V.catalogueVersion(best.build), seen, ctx.vulns)) {
      await t.finding({
        ...finding,
        ...place,
        evidence: tableEvidence(
          ['Build', 'Product', 'Source', 'CVE', 'Affected builds', 'CVSS'],
          rows.map((r) => [best.build, out.product ?? '', best.source, r.cve, r.affected, r.cvss]),
        ),
      })
    }
  }
  ctx.log(
    `SharePoint ${out.product ?? `(major ${V.infMajor(files.inf) ?? 'unknown'})`} ${out.build ?? 'of unknown build'}${out.update ? `, ${out.update}` : ''}`,
  )
  await t.done()
}

/** _vti_bin web services whose service page answers without credentials (GET only: no operation is called). */
async function webServicesTest(ctx: Ctx, site: CmsSite, out: SharepointOutput): Promise<void> {
  const t = await ctx.test(
    'SharePoint web services (_vti_bin)',
    'Requests the service page of the _vti_bin web services without credentials.',
  )
  const open = (await fetchPaths(site.fetch, site.base, WEB_SERVICES, ctx.params.concurrency, ctx.signal)).filter((r) =>
    E.webServiceOpen(r.answer),
  )
  out.anonymous_endpoints.push(...open.map((r) => `/${r.path}`))
  if (open.length)
    await t.finding({
      check: C.sharepointWebServicesAnonymous,
      ...site.where,
      url: new URL('_vti_bin/', site.base).href,
      detail: `${open.length} web service(s) answer anonymous visitors: ${open.map((r) => r.path).join(', ')}.`,
      evidence: tableEvidence(
        ['Path', 'Status'],
        open.map((r) => [`/${r.path}`, r.answer?.status ?? '']),
      ),
    })
  await t.done()
}

/** Site users and lists from the REST API without credentials. */
async function restApiTest(ctx: Ctx, site: CmsSite, out: SharepointOutput): Promise<void> {
  const t = await ctx.test('SharePoint REST API (_api)', 'Reads /_api/web/siteusers and /_api/web/lists without credentials.')
  const max = ctx.params.max_items
  const users = E.siteUsers(await fetchApi(site.fetch, site.base, API_USERS))
  const lists = E.siteLists(await fetchApi(site.fetch, site.base, API_LISTS))
  if (users) {
    out.anonymous_endpoints.push(`/${API_USERS}`)
    out.users = users.slice(0, max)
    await t.finding({
      check: C.sharepointUsersAnonymous,
      ...site.where,
      url: new URL(API_USERS, site.base).href,
      detail: `/${API_USERS} gives ${users.length} site user(s) to anonymous visitors.`,
      evidence: tableEvidence(
        ['Login', 'Name', 'E-mail'],
        users.slice(0, max).map((u) => [u.login, u.name, u.email ?? '']),
      ),
    })
  }
  if (lists) {
    out.anonymous_endpoints.push(`/${API_LISTS}`)
    out.lists = lists.slice(0, max)
    await t.finding({
      check: C.sharepointListsAnonymous,
      ...site.where,
      url: new URL(API_LISTS, site.base).href,
      detail: `/${API_LISTS} names ${lists.length} list(s) to anonymous visitors.`,
      evidence: tableEvidence(
        ['List', 'Items'],
        lists.slice(0, max).map((l) => [l.title, l.items ?? '']),
      ),
    })
  }
  await t.done()
}

/** _layouts application pages that show their content without credentials. */
async function layoutsTest(ctx: Ctx, site: CmsSite, out: SharepointOutput): Promise<void> {
  const t = await ctx.test(
    'SharePoint application pages (_layouts)',
    'Requests site contents, people and settings pages under _layouts without credentials.',
  )
  // SharePoint 2010 serves its application pages from _layouts/, later versions from _layouts/15/.
  const folder = out.build?.startsWith('14.') ? '_layouts/' : '_layouts/15/'
  const pages = LAYOUTS_PAGES.map((p) => `${folder}${p}`)
  const open = (await fetchPaths(site.fetch, site.base, pages, ctx.params.concurrency, ctx.signal)).filter((r) =>
    E.layoutsPageOpen(r.answer),
  )
  out.anonymous_endpoints.push(...open.map((r) => `/${r.path}`))
  if (open.length)
    await t.finding({
      check: C.sharepointLayoutsExposed,
      ...site.where,
      url: new URL(open[0]!.path, site.base).href,
      detail: `${open.length} application page(s) show their content to anonymous visitors: ${open.map((r) => r.path).join(', ')}.`,
      evidence: tableEvidence(
        ['Path', 'Status'],
        open.map((r) => [`/${r.path}`, r.answer?.status ?? '']),
      ),
    })
  await t.done()
}
