// Deep-scan crawler: breadth-first over one origin, seeded from the start page, robots.txt and the
// sitemaps. No page cap: it ends when nothing new is left or at its time budget, and the fetcher paces
// it per host. URL patterns keep traps out (a calendar is sampled, not walked); bodies are parsed as they
// arrive and dropped: only URLs, injection points, password forms and linked downloads are kept.
import { ScanBudget } from '../../../toolkit/budget.js'
import type { Fetcher } from '../../lib/http/fetch.js'
import { endpointUrl, sameOrigin } from '../../lib/http/url.js'
import { LIMITS } from '../params.js'
import { DOWNLOAD_EXT, type FileObs } from '../detect/files.js'
import { urlPattern } from '../detect/url-pattern.js'
import { robotsSeeds, sitemapLocs } from '../detect/seeds.js'
import type { PasswordForm } from '../detect/transport.js'
import { readCrawledPage, SKIP_ACTION, type InjectionPoint } from '../detect/crawl-page.js'

export type { InjectionPoint }

export interface CrawlResult {
  /** Pages visited (the first LIMITS.maxPagesListed of them). */
  pages: { url: string; status: number; depth: number }[]
  /** How many pages were visited. */
  pagesCrawled: number
  points: InjectionPoint[]
  dirs: string[]
  /** Pages with a password field (judged for plain HTTP by the light checks). */
  passwordForms: PasswordForm[]
  /** Linked dumps, archives and backups, fetched (first bytes only) to be classified, not crawled. */
  files: FileObs[]
}

export interface CrawlOptions {
  start: URL
  fetch: Fetcher
  signal: AbortSignal
  log: (line: string) => void
  /** After each page visited: pages visited so far, and pages known (visited, under way, queued). */
  onPage?: (visited: number, known: number) => void
  /** Tests only: stop after this many pages (a real scan has no page cap). */
  maxPages?: number
  maxDepth?: number
  /** When to stop taking new pages (epoch ms); default: LIMITS.crawlBudgetMs from now. */
  until?: number
  /** Read robots.txt and sitemaps for seeds (default true). */
  seeds?: boolean
  /** The scan's concurrency budget (default: a budget of the crawl's own). */
  budget?: ScanBudget
  /** The scan is logged in: forms with a password field (login, password change) are never injection points. */
  authenticated?: boolean
}

const pointKey = (p: InjectionPoint) => `${p.method} ${p.url} ${Object.keys(p.params).sort().join('&')}`
const SKIP_EXT = /\.(png|jpe?g|gif|svg|ico|webp|css|woff2?|ttf|eot|mp4|mp3|pdf|exe|dmg|iso)$/i
/** Linked downloads fetched for classification: at most this many, this many bytes each (enough for magic bytes and a dump's header). */
const MAX_FILES = 50
const FILE_BYTES = 64 * 1024

export async function crawl(o: CrawlOptions): Promise<CrawlResult> {
  const maxPages = o.maxPages ?? Infinity
  const maxDepth = o.maxDepth ?? LIMITS.maxDepth
  const seen = new Set<string>()
  const variants = new Map<string, number>()
  const queue: { url: URL; depth: number }[] = []
  const pages: CrawlResult['pages'] = []
  const perPattern = new Map<string, number>()
  const until = o.until ?? Date.now() + LIMITS.crawlBudgetMs
  let pagesCrawled = 0
  let outOfTime = false
  const points = new Map<string, InjectionPoint>()
  const dirs = new Set<string>()
  const pwForms: PasswordForm[] = []
  const files: FileObs[] = []
  const fileUrls = new Set<string>()
  const fetchFile = async (u: URL) => {
    if (fileUrls.has(u.href) || fileUrls.size >= MAX_FILES) return
    fileUrls.add(u.href)
    const r = await o.fetch(u.href, { maxBodyBytes: FILE_BYTES })
    if (r) files.push({ path: u.pathname, url: u.href, status: r.status, contentType: r.headers['content-type'], bytes: r.body })
  }
  const fileJobs: Promise<void>[] = []

  const addPoint = (p: InjectionPoint) => {
    if (!Object.keys(p.params).length || points.size >= LIMITS.maxInjectionPoints) return
    const k = pointKey(p)
    if (!points.has(k)) points.set(k, p)
  }
  const enqueue = (u: URL, depth: number) => {
    if (sameOrigin(u, o.start) && DOWNLOAD_EXT.test(u.pathname) && !o.signal.aborted) {
      fileJobs.push(fetchFile(new URL(u.origin + u.pathname)))
      return
    }
    if (!sameOrigin(u, o.start) || depth > maxDepth || SKIP_EXT.test(u.pathname) || SKIP_ACTION.test(u.pathname)) return
    const key = u.href
    if (seen.has(key) || seen.size >= LIMITS.maxKnownUrls) return
    const path = endpointUrl(u)
    const v = variants.get(path) ?? 0
    if (u.search && v >= LIMITS.maxQueryVariantsPerPath) return // calendars, sort orders: a few samples suffice
    const pattern = urlPattern(u)
    const n = perPattern.get(pattern.key) ?? 0
    if (n >= (pattern.dated ? LIMITS.maxPerDatePattern : LIMITS.maxPerIdPattern)) return
    perPattern.set(pattern.key, n + 1)
    variants.set(path, v + 1)
    seen.add(key)
    queue.push({ url: u, depth })
  }

  enqueue(new URL(o.start.href), 0)
  if (o.seeds !== false) for (const u of await seedUrls(o)) enqueue(u, 1)
  const visit = async ({ url, depth }: { url: URL; depth: number }) => {
    const r = await o.fetch(url.href, { maxBodyBytes: LIMITS.bodyBytes })
    if (!r) return
    pagesCrawled++
    if (pages.length < LIMITS.maxPagesListed) pages.push({ url: url.href, status: r.status, depth })
    const seen = readCrawledPage(url, r, o.start, o.authenticated)
    for (const p of seen.points) addPoint(p)
    for (const d of seen.dirs) if (dirs.size < 1000) dirs.add(d)
    if (pwForms.length < 100) pwForms.push(...seen.passwordForms)
    for (const u of seen.next) enqueue(u, depth + 1)
  }
  const budget = o.budget ?? new ScanBudget()
  let inFlight = 0
  let visited = 0
  // Breadth-first in waves: each wave is what is queued, visited inside the scan's budget for the
  // origin's host; what the wave finds is the next wave.
  while (!o.signal.aborted && !outOfTime && queue.length && pagesCrawled < maxPages) {
    const wave = queue.splice(0, maxPages - pagesCrawled)
    let started = 0
    await budget.each(wave, { limit: LIMITS.concurrency, host: o.start.host, signal: o.signal }, async (item) => {
      if (outOfTime || Date.now() >= until) {
        if (!outOfTime) o.log(`crawl: time budget reached with ${queue.length + wave.length - started} page(s) still queued`)
        outOfTime = true
        return
      }
      started++
      inFlight++
      try {
        await visit(item)
      } finally {
        inFlight--
        visited++
        o.onPage?.(visited, Math.max(visited, Math.min(maxPages, visited + inFlight + queue.length + wave.length - started)))
      }
    })
  }
  await Promise.all(fileJobs)
  o.log(
    `crawl: ${pagesCrawled} page(s), ${points.size} injection point(s), ${files.length} linked ` +
      `download(s)${o.signal.aborted ? ' (stopped)' : outOfTime ? ' (time budget reached)' : ''}`,
  )
  return { pages, pagesCrawled, points: [...points.values()], dirs: [...dirs], passwordForms: pwForms, files }
}

/** Seeds beyond the start page's links: robots.txt paths, and the URLs of the sitemaps (robots.txt Sitemap lines, /sitemap.xml). */
async function seedUrls(o: CrawlOptions): Promise<URL[]> {
  const out: URL[] = []
  const robots = await o.fetch(new URL('/robots.txt', o.start).href, { maxBodyBytes: 256 * 1024 })
  const fromRobots =
    robots && robots.status === 200 && !/html/i.test(robots.headers['content-type'] ?? '')
      ? robotsSeeds(robots.text(), o.start)
      : { paths: [], sitemaps: [] }
  out.push(...fromRobots.paths)
  const sitemaps = [...fromRobots.sitemaps.filter((u) => sameOrigin(u, o.start)).map((u) => u.href)]
  const fallback = new URL('/sitemap.xml', o.start).href
  if (!sitemaps.includes(fallback)) sitemaps.push(fallback)
  const read = new Set<string>()
  let locs = 0
  while (sitemaps.length && read.size < LIMITS.maxSitemaps && !o.signal.aborted) {
    const href = sitemaps.shift()!
    if (read.has(href)) continue
    read.add(href)
    const r = await o.fetch(href, { maxBodyBytes: 10 * 1024 * 1024 })
    if (r?.status !== 200) continue
    const { urls, sitemaps: nested } = sitemapLocs(r.text(), o.start)
    for (const u of nested) if (sameOrigin(u, o.start)) sitemaps.push(u.href)
    for (const u of urls) if (locs++ < LIMITS.maxSitemapUrls) out.push(u)
  }
  if (out.length) o.log(`crawl: ${out.length} seed URL(s) from robots.txt and ${read.size} sitemap(s)`)
  return out
}
