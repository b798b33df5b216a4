// Tool 260, SharePoint Scanner: the build (MicrosoftSharePointTeamServices, _vti_pvt files), its product,
// update and known vulnerabilities by build (never exploited), then what answers anonymous visitors:
// _vti_bin web services, the _api site users and lists, _layouts application pages.
// The sequence only: I/O is in probes/, decisions in detect/.
import { defineTool, type ScanContext, type TestHandle } from '../../toolkit/tool.js'
import { tableEvidence } from '../../toolkit/evidence.js'
import type { Check } from '../../toolkit/check.js'
import { productVersionFindings } from '../lib/versions/report.js'
import { endNotProduct, openCmsSite, type CmsSite } from '../lib/cms/site.js'
import type { Answer } from '../lib/cms/answer.js'
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
    'Reads the build from the MicrosoftSharePointTeamServices header and /_vti_pvt/, names its product ' +
      'and update, and checks it against the version catalogue and imported CVEs (by build only: nothing ' +
      'is exploited).',
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
function webServicesTest(ctx: Ctx, site: CmsSite, out: SharepointOutput): Promise<void> {
  return anonymousPagesTest(ctx, site, out, {
    test: 'SharePoint web services (_vti_bin)',
    description: 'Requests the service page of the _vti_bin web services without credentials.',
    paths: WEB_SERVICES,
    isOpen: E.webServiceOpen,
    check: C.sharepointWebServicesAnonymous,
    url: () => '_vti_bin/',
    detail: (open) => `${open.length} web service(s) answer anonymous visitors: ${open.join(', ')}.`,
  })
}

/** Site users and lists from the REST API without credentials. */
async function restApiTest(ctx: Ctx, site: CmsSite, out: SharepointOutput): Promise<void> {
  const t = await ctx.test('SharePoint REST API (_api)', 'Reads /_api/web/siteusers and /_api/web/lists without credentials.')
  const max = ctx.params.max_items
  const users = E.siteUsers(await fetchApi(site.fetch, site.base, API_USERS))
  const lists = E.siteLists(await fetchApi(site.fetch, site.base, API_LISTS))
  if (users) {
    out.users = users.slice(0, max)
    await apiFinding(t, site, out, {
      path: API_USERS,
      check: C.sharepointUsersAnonymous,
      detail: `/${API_USERS} gives ${users.length} site user(s) to anonymous visitors.`,
      columns: ['Login', 'Name', 'E-mail'],
      rows: out.users.map((u) => [u.login, u.name, u.email ?? '']),
    })
  }
  if (lists) {
    out.lists = lists.slice(0, max)
    await apiFinding(t, site, out, {
      path: API_LISTS,
      check: C.sharepointListsAnonymous,
      detail: `/${API_LISTS} names ${lists.length} list(s) to anonymous visitors.`,
      columns: ['List', 'Items'],
      rows: out.lists.map((l) => [l.title, l.items ?? '']),
    })
  }
  await t.done()
}

/** A REST API read that answered anonymous visitors: its path goes to the output, what it gave into the finding. */
async function apiFinding(
  t: TestHandle,
  site: CmsSite,
  out: SharepointOutput,
  read: { path: string; check: Check; detail: string; columns: string[]; rows: unknown[][] },
): Promise<void> {
  out.anonymous_endpoints.push(`/${read.path}`)
  await t.finding({
    check: read.check,
    ...site.where,
    url: new URL(read.path, site.base).href,
    detail: read.detail,
    evidence: tableEvidence(read.columns, read.rows),
  })
}

/** _layouts application pages that show their content without credentials. */
function layoutsTest(ctx: Ctx, site: CmsSite, out: SharepointOutput): Promise<void> {
  // SharePoint 2010 serves its application pages from _layouts/, later versions from _layouts/15/.
  const folder = out.build?.startsWith('14.') ? '_layouts/' : '_layouts/15/'
  return anonymousPagesTest(ctx, site, out, {
    test: 'SharePoint application pages (_layouts)',
    description: 'Requests site contents, people and settings pages under _layouts without credentials.',
    paths: LAYOUTS_PAGES.map((p) => `${folder}${p}`),
    isOpen: E.layoutsPageOpen,
    check: C.sharepointLayoutsExposed,
    url: (open) => open[0]!,
    detail: (open) => `${open.length} application page(s) show their content to anonymous visitors: ${open.join(', ')}.`,
  })
}

/** One test over pages that should not answer anonymous visitors: the open ones go to the output and into one finding. */
async function anonymousPagesTest(
  ctx: Ctx,
  site: CmsSite,
  out: SharepointOutput,
  pages: {
    test: string
    description: string
    paths: readonly string[]
    isOpen: (a: Answer | null) => boolean
    check: Check
    /** The finding's URL, relative to the site, from the open paths. */
    url: (open: string[]) => string
    detail: (open: string[]) => string
  },
): Promise<void> {
  const t = await ctx.test(pages.test, pages.description)
  const open = (await fetchPaths(site.fetch, site.base, pages.paths, ctx.params.concurrency, ctx.signal)).filter((r) =>
    pages.isOpen(r.answer),
  )
  out.anonymous_endpoints.push(...open.map((r) => `/${r.path}`))
  const paths = open.map((r) => r.path)
  if (open.length)
    await t.finding({
      check: pages.check,
      ...site.where,
      url: new URL(pages.url(paths), site.base).href,
      detail: pages.detail(paths),
      evidence: tableEvidence(
        ['Path', 'Status'],
        open.map((r) => [`/${r.path}`, r.answer?.status ?? '']),
      ),
    })
  await t.done()
}
