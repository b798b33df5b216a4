// Website Scanner orchestration: pick the start URL under the redirect policy, run the light checks,
// and for deep scans crawl the origin and run the active checks per injection point.
import { defineTool, type ScanContext } from '../../toolkit/tool.js'
import { websiteScannerManifest } from './manifest.js'
import { resolveStartUrl } from '../lib/http/start-url.js'
import { createFetcher } from '../lib/http/fetch.js'
import { mapLimit } from '../../toolkit/limit.js'
import { scanBudget } from '../../toolkit/budget.js'
import { endpointUrl, portOf, serviceOf } from '../lib/http/url.js'
import { observeLight, toPage } from './probes/light.js'
import { LIGHT_TESTS, lightComponents, lightTests, type Crawled } from './detect/light.js'
import type { Fetcher } from '../lib/http/fetch.js'
import type { Egress } from '../../toolkit/egress.js'
import { createRecorder, type Recorder } from '../../toolkit/recorder.js'
import type { Component, PageObs } from './detect/types.js'
import { crawl, type CrawlResult, type InjectionPoint } from './probes/crawl.js'
import { ACTIVE, baselineOf, runActive } from './probes/active.js'
import { placed, type Where } from './output.js'
import { LIMITS, type WebsiteParams } from './params.js'
import { HostLimiters } from '../lib/http/rate-limit.js'
import { loginForScan } from '../lib/http/auth/scan-login.js'
import { runHttpTemplatePhase } from '../lib/templates/http-phase.js'

/** Progress units of the crawl (its share before the tests; pages known grow as it goes). */
const CRAWL_UNITS = 100

// Tool 170, Website Scanner: light (passive) and deep (crawl + active injection checks) web scans.
export const websiteScanner = defineTool(websiteScannerManifest, (ctx) => runWebsiteScan(ctx))

async function runWebsiteScan(ctx: ScanContext<WebsiteParams>): Promise<void> {
  const deep = ctx.params.scan_type === 'deep'
  const site = await openSite(ctx, deep)
  if (!site) return
  // Progress: crawl pages count as units, then tests; the total grows once the crawl knows the points.
  const prog: Progress = { crawled: 0, total: LIGHT_TESTS + (deep ? 1 + CRAWL_UNITS + ACTIVE.length * 4 : 0) }
  const rec = createRecorder(ctx, {
    quietAfterStop: true,
    logHits: true,
    onDone: () => ctx.progress(prog.crawled + rec.done, prog.total),
  })
  ctx.progress(0, prog.total)
  if (deep) await deepScan(ctx, site, rec, prog)
  else await lightScan(ctx, site, rec, prog)
}

/** What every phase works on: the authenticated egress, the start page and the scan's fetcher. */
interface Site {
  net: Egress
  authenticated: boolean
  base: URL
  page: PageObs
  where: Where
  limiter: HostLimiters
  fetch: Fetcher
}

/** Progress state shared by the phases (the crawl's units, then the total the recorder reports against). */
interface Progress {
  crawled: number
  total: number
}

/** Logs in (when asked), resolves the start URL and reports it, and builds the paced fetcher; null when nothing to scan. */
async function openSite(ctx: ScanContext<WebsiteParams>, deep: boolean): Promise<Site | null> {
  // Logged in first (when tool_params.authentication asks): every request below carries the session.
  const net = await loginForScan(ctx as ScanContext<unknown>, ctx.params.authentication)
  const authenticated = net !== ctx.net
  const start = await resolveStartUrl({
    net,
    target: ctx.target,
    redirectLevel: ctx.options.redirectLevel,
    scanOriginalUrl: ctx.options.scanOriginalUrl,
    signal: ctx.signal,
    log: ctx.log,
  })
  if (ctx.signal.aborted) return null
  const base = new URL(start.url)
  ctx.output('scanned_url', start.url)
  ctx.output('original_url', start.original)
  ctx.output('redirects', start.redirects)
  ctx.log(`scanning ${start.url} (${deep ? 'deep' : 'light'} scan)`)

  // One pace per host for every request of the scan, the templates' too.
  const limiter = new HostLimiters(ctx.params.rate_limit)
  const fetch = createFetcher(
    net,
    ctx.signal,
    { maxBodyBytes: LIMITS.bodyBytes, timeoutMs: LIMITS.requestTimeoutMs },
    (url, e) => ctx.log(`${url}: ${e.message}`),
    limiter,
  )
  const page = start.response ? toPage(start.response) : null
  if (!page) return null
  return { net, authenticated, base, page, where: { url: start.url, port: portOf(base), service: serviceOf(base) }, limiter, fetch }
}

/** The light checks, then the templates only when asked to. */
async function lightScan(ctx: ScanContext<WebsiteParams>, site: Site, rec: Recorder, prog: Progress): Promise<void> {
  const { base, page, where, fetch } = site
  ctx.output('components', await lightPhase(ctx, { base, page, where, fetch, rec }))
  // Light scans run templates only when asked to.
  if (ctx.params.templates) await templatePhase(ctx, site, rec, prog)
  ctx.log(`light scan done: ${rec.done} tests, ${rec.findings} findings, ${fetch.count} requests`)
}

/** Crawl, light checks with what the crawl found, active checks per injection point, then templates. */
async function deepScan(ctx: ScanContext<WebsiteParams>, site: Site, rec: Recorder, prog: Progress): Promise<void> {
  const { base, page, where, fetch } = site
  const c = await crawlPhase(ctx, site, rec, prog)
  if (ctx.signal.aborted) return

  ctx.output(
    'components',
    await lightPhase(ctx, { base, page, where, fetch, rec }, c.dirs, { passwordForms: c.passwordForms, files: c.files }),
  )
  await activePhase(ctx, site, rec, c.points)
  if (!ctx.signal.aborted) await templatePhase(ctx, site, rec, prog)
  ctx.progress(prog.total, prog.total)
  ctx.log(
    `deep scan done: ${c.pages.length} pages, ${c.points.length} injection points, ${rec.done} tests, ${rec.findings} findings, ${fetch.count} requests`,
  )
}

/** The crawl, in its share of the time left; reports the pages and injection points it found. */
async function crawlPhase(ctx: ScanContext<WebsiteParams>, site: Site, rec: Recorder, prog: Progress): Promise<CrawlResult> {
  // The crawl takes its share of the time left; the active checks get the rest.
  const until = ctx.deadline ? Date.now() + LIMITS.crawlShareOfTimeLeft * Math.max(0, ctx.deadline - Date.now()) : undefined
  const c = await crawl({
    start: site.base,
    fetch: site.fetch,
    budget: scanBudget(ctx),
    signal: ctx.signal,
    log: ctx.log,
    until,
    authenticated: site.authenticated,
    onPage: (visited, known) => {
      prog.crawled = Math.floor((CRAWL_UNITS * visited) / known)
      ctx.progress(prog.crawled + rec.done, prog.total)
    },
  })
  prog.crawled = CRAWL_UNITS // the crawl's share is complete whatever it found
  prog.total = LIGHT_TESTS + 1 + CRAWL_UNITS + c.points.length * ACTIVE.length
  ctx.output(
    'pages',
    c.pages.map((p) => ({ url: p.url, status: p.status })),
  )
  ctx.output('pages_crawled', c.pagesCrawled)
  ctx.output(
    'injection_points',
    c.points.map((p) => ({ method: p.method, url: p.url, params: Object.keys(p.params) })),
  )
  return c
}

/** Every active check on every injection point (two points at a time), against the point's baseline. */
async function activePhase(ctx: ScanContext<WebsiteParams>, site: Site, rec: Recorder, points: InjectionPoint[]): Promise<void> {
  const env = { fetch: site.fetch, signal: ctx.signal, log: ctx.log, sleepBudget: { ms: LIMITS.sleepBudgetMs } }
  await mapLimit(points, 2, ctx.signal, async (p) => {
    const baselines = await baselineOf(env, p)
    const path = `${p.method} ${new URL(p.url).pathname}`
    for (const t of ACTIVE) {
      if (ctx.signal.aborted) return
      await rec.test(
        `${t.check.name}: ${path}`,
        `Deep scan: ${t.what} for the parameters ${Object.keys(p.params).join(', ')} of ${p.method} ${endpointUrl(new URL(p.url))}`,
        () => (baselines.size ? runActive(env, t, p, baselines) : 'the endpoint did not answer its baseline request'),
        placed(site.where),
      )
    }
  })
}

/** The template phase on the scan's session and pace; the templates it loads grow the progress total. */
async function templatePhase(ctx: ScanContext<WebsiteParams>, site: Site, rec: Recorder, prog: Progress): Promise<void> {
  await runHttpTemplatePhase({
    ctx: ctx as ScanContext<unknown>,
    net: site.net,
    base: site.base,
    where: placed(site.where).where,
    rec,
    filter: ctx.params.templates,
    limiter: site.limiter,
    concurrency: LIMITS.concurrency,
    grow: (n) => (prog.total += n),
  })
}

/** The light requests, then one test per light check; returns the components the site announces. */
async function lightPhase(
  ctx: ScanContext<WebsiteParams>,
  l: { base: URL; page: PageObs; where: Where; fetch: Fetcher; rec: Recorder },
  extraDirs?: string[],
  crawled?: Crawled,
): Promise<Component[]> {
  const obs = await observeLight(l.base, l.page, l.fetch, ctx.signal, extraDirs)
  for (const t of lightTests(obs, ctx.vulns, crawled)) await l.rec.test(t.name, t.description, t.run, placed(l.where))
  return lightComponents(obs)
}
