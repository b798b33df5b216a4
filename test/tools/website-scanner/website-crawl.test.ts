// The deep scan's crawler on a site of 1,240+ pages (far past the old 60-page cap), with pages only
// robots.txt, a sitemap index or a GET form lead to, a calendar that never ends, and links off the
// host. Bed on 127.0.36.3 (links to 127.0.36.99, where nothing listens and nothing must be sent).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { crawl } from '../../../src/tools/website-scanner/probes/crawl.js'
import { createFetcher } from '../../../src/tools/lib/http/fetch.js'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import { HostLimiters } from '../../../src/tools/lib/http/rate-limit.js'
import { urlPattern } from '../../../src/tools/website-scanner/detect/url-pattern.js'
import { robotsSeeds, sitemapLocs } from '../../../src/tools/website-scanner/detect/seeds.js'

const HOST = '127.0.36.3'
const SECTIONS = 40
const ITEMS = 30
let base = ''
const requested: string[] = []
const html = (res: http.ServerResponse, body: string) => {
  res.writeHead(200, { 'content-type': 'text/html' })
  res.end(`<!doctype html><html><body>${body}</body></html>`)
}
const srv = http.createServer((req, res) => {
  const u = new URL(req.url ?? '/', 'http://bed')
  requested.push(u.pathname + u.search)
  const p = u.pathname
  if (p === '/')
    return html(
      res,
      Array.from({ length: SECTIONS }, (_, s) => `<a href="/section/${s}">section ${s}</a>`).join(' ') +
        '<a href="/calendar/2024/11">Calendar</a> <a href="http://127.0.36.99/away">elsewhere</a> <form action="/find" method="get"><input name="q"></form>',
    )
  let m = /^\/section\/(\d+)$/.exec(p)
  if (m) return html(res, Array.from({ length: ITEMS }, (_, i) => `<a href="/item/${m![1]}/${i}">item</a>`).join(' '))
  if (/^\/item\/\d+\/\d+$/.test(p)) return html(res, '<p>An item.</p><a href="/">Home</a>')
  m = /^\/calendar\/(\d{4})\/(\d{1,2})$/.exec(p)
  if (m) {
    const y = Number(m[1]),
      mo = Number(m[2])
    const next = mo === 12 ? `${y + 1}/1` : `${y}/${mo + 1}`
    const prev = mo === 1 ? `${y - 1}/12` : `${y}/${mo - 1}`
    return html(res, `<a href="/calendar/${prev}">previous</a> <a href="/calendar/${next}">next</a>`)
  }
  if (p === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain' })
    return res.end(`User-agent: *\nDisallow: /hidden-by-robots/\nDisallow: /*.php$\nSitemap: ${base}sitemap-index.xml\n`)
  }
  if (p === '/sitemap-index.xml') {
    res.writeHead(200, { 'content-type': 'application/xml' })
    return res.end(
      `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}sitemap-pages.xml</loc></sitemap><sitemap><loc>http://127.0.36.99/sitemap.xml</loc></sitemap></sitemapindex>`,
    )
  }
  if (p === '/sitemap-pages.xml') {
    res.writeHead(200, { 'content-type': 'application/xml' })
    return res.end(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}only-in-sitemap</loc></url><url><loc>http://127.0.36.99/off-host</loc></url></urlset>`,
    )
  }
  if (p === '/hidden-by-robots/' || p === '/only-in-sitemap' || p === '/find') return html(res, `<p>${p}</p>`)
  res.writeHead(404, { 'content-type': 'text/html' })
  res.end('not found')
})

before(async () => {
  await new Promise<void>((r) => srv.listen(0, HOST, () => r()))
  base = `http://${HOST}:${(srv.address() as AddressInfo).port}/`
})
after(async () => {
  srv.closeAllConnections()
  await new Promise((r) => srv.close(r))
})

test('crawls every linked page past the old cap, seeds from robots.txt, sitemaps and GET forms, samples the calendar, stays on the host', async () => {
  const net = createDirectEgress()
  const ac = new AbortController()
  try {
    const c = await crawl({ start: new URL(base), fetch: createFetcher(net, ac.signal), signal: ac.signal, log: () => {} })
    const visited = new Set(c.pages.map((p) => new URL(p.url).pathname))
    const items = [...visited].filter((p) => p.startsWith('/item/')).length
    assert.equal(items, SECTIONS * ITEMS, 'every item page')
    assert.ok(c.pagesCrawled >= 1 + SECTIONS + SECTIONS * ITEMS, `pages: ${c.pagesCrawled}`)
    for (const p of ['/hidden-by-robots/', '/only-in-sitemap', '/find']) assert.ok(visited.has(p), `${p} was crawled`)
    const calendar = [...visited].filter((p) => p.startsWith('/calendar/')).length
    assert.ok(calendar >= 2 && calendar <= 10, `calendar pages: ${calendar} (sampled, not walked)`)
    assert.ok(
      c.pages.every((p) => p.url.startsWith(base)),
      'only the host was crawled',
    )
    assert.ok(!requested.some((r) => r.includes('.php')), 'robots.txt wildcards are cut, not requested literally')
  } finally {
    await net.close()
  }
})

test('the time budget ends the crawl, and the per-host rate paces it', async () => {
  const net = createDirectEgress()
  const ac = new AbortController()
  try {
    const started = Date.now()
    const c = await crawl({
      start: new URL(base),
      fetch: createFetcher(net, ac.signal, {}, undefined, new HostLimiters(50)),
      signal: ac.signal,
      log: () => {},
      until: Date.now() + 1000,
      seeds: false,
    })
    const seconds = (Date.now() - started) / 1000
    // 50 req/s for about a second: far fewer than the site's pages, and the crawl returns soon after its budget.
    assert.ok(c.pagesCrawled > 5 && c.pagesCrawled <= 50 * seconds + 10, `pages ${c.pagesCrawled} in ${seconds} s`)
    assert.ok(seconds < 5, `returned after ${seconds} s`)
  } finally {
    await net.close()
  }
})

test('URL patterns: dates group calendars, ids stay records, query values do not count', () => {
  const k = (u: string) => urlPattern(new URL(u))
  assert.equal(k('http://h/calendar/2024/11').key, k('http://h/calendar/2031/2').key)
  assert.equal(k('http://h/calendar/2024/11').dated, true)
  assert.equal(k('http://h/events?day=2024-11-25').dated, true)
  assert.equal(k('http://h/item/7/3').key, 'http://h/item/{id}/{id}')
  assert.equal(k('http://h/item/7/3').dated, false)
  assert.equal(k('http://h/u/3f2a1c4d5e6f70819a2b').key, 'http://h/u/{id}')
  assert.equal(k('http://h/s?q=a&page=2').key, k('http://h/s?page=9&q=zz').key)
  assert.notEqual(k('http://h/about').key, k('http://h/contact').key)
})

test('robots.txt and sitemap parsing', () => {
  const b = new URL('http://h/')
  const r = robotsSeeds(
    'User-agent: *\nDisallow: /admin/ # private\nAllow: /public/*.html\nDisallow: /\nDisallow:\nSitemap: http://h/sm.xml\n',
    b,
  )
  assert.deepEqual(
    r.paths.map((u) => u.pathname),
    ['/admin/', '/public/'],
  )
  assert.deepEqual(
    r.sitemaps.map((u) => u.href),
    ['http://h/sm.xml'],
  )
  assert.deepEqual(
    sitemapLocs('<urlset><url><loc> http://h/a?x=1&amp;y=2 </loc></url><url><loc><![CDATA[http://h/b]]></loc></url></urlset>', b).urls.map(
      (u) => u.href,
    ),
    ['http://h/a?x=1&y=2', 'http://h/b'],
  )
  assert.deepEqual(sitemapLocs('<sitemapindex><sitemap><loc>http://h/s1.xml</loc></sitemap></sitemapindex>', b), {
    urls: [],
    sitemaps: [new URL('http://h/s1.xml')],
  })
})
