// `npm run bench -- memory [--pages 10000] [--words 100000] [--only website|fuzz]`
// Memory bounds: a deep website scan (tool 170) of a 10,000-page test-bed site and a URL fuzz
// (tool 90) with 100,000 words, each run by runTool (test/helpers/tool-harness.ts) in a child
// process whose RSS this process samples every 50 ms. The test-bed sites run here, on
// 127.0.10.201 and 127.0.10.202, so their memory is not counted. Goal: RSS < 300 MB.
import http from 'node:http'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { spawn } from 'node:child_process'
import { fmt, machine, parseArgs, sampleRss } from './_shared.js'

const ROOT = path.resolve(import.meta.dirname, '..')
const LIMIT_MB = 300

/** A site of `pages` pages: each links to its three children (a tree), with forms and query links. */
function website(pages: number) {
  let requests = 0
  return http
    .createServer((req, res) => {
      requests++
      const u = new URL(req.url ?? '/', 'http://x')
      const m = /^\/p\/(\d+)$/.exec(u.pathname)
      const n = u.pathname === '/' ? 0 : m ? Number(m[1]) : -1
      if (n < 0 || n >= pages) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>not found</body></html>')
        return
      }
      const links = [1, 2, 3]
        .map((k) => n * 3 + k)
        .filter((c) => c < pages)
        .map((c) => `<a href="/p/${c}">page ${c}</a> <a href="/p/${c}?id=${c}&sort=asc">sorted</a>`)
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', server: 'testbed' })
      res.end(
        `<!doctype html><html><head><title>Page ${n}</title></head><body><h1>Page ${n}</h1>${links.join('\n')}<form action="/p/${n}" method="get"><input name="q"></form><p>${'lorem ipsum '.repeat(200)}</p></body></html>`,
      )
    })
    .on('close', () => void requests)
}

/** 404 for everything but every 1000th word, which answers 200. */
function fuzzSite() {
  return http.createServer((req, res) => {
    const m = /^\/w(\d+)$/.exec(new URL(req.url ?? '/', 'http://x').pathname)
    if (m && Number(m[1]) % 1000 === 0) res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>found ${m[1]}</body></html>`)
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>')
  })
}

async function listen(s: http.Server, host: string): Promise<string> {
  await new Promise<void>((r) => s.listen({ host, port: 0 }, () => r()))
  return `http://${host}:${(s.address() as AddressInfo).port}/`
}

/** What a child prints on its last line (see child()). */
type ChildSummary = {
  pagesCrawled: number
  crawlLine?: string
  findings: number
  urls: number | null
  tests: number
  seconds: number
  error: string | null
}

/** Runs one tool in a child (`--child <kind>`), sampling its RSS; returns the child's summary and the peak. */
async function measure(kind: 'website' | 'fuzz', url: string, extra: string[]): Promise<{ peak: number; summary: ChildSummary }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench/run.ts'), 'memory', '--child', kind, '--url', url, ...extra],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const rss = sampleRss(child.pid!, 50)
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  const code = await new Promise<number | null>((r) => child.once('exit', r))
  const peak = await rss.stop()
  const last = out.trim().split('\n').pop() ?? ''
  if (code !== 0) throw new Error(`${kind} child exited with ${code}: ${out.slice(-2000)}`)
  return { peak, summary: JSON.parse(last) as ChildSummary }
}

async function child(kind: string, url: string, words: number) {
  const { runTool } = await import('../test/helpers/tool-harness.js')
  const t0 = performance.now()
  let r: Awaited<ReturnType<typeof runTool>>
  if (kind === 'website') {
    const { websiteScanner } = await import('../src/tools/website-scanner/run.js')
    // The politeness cap off (as for the fuzzer): the bed is ours, the figure is the crawler's own cost.
    r = await runTool(websiteScanner, { target: url, params: { scan_type: 'deep', rate_limit: 10_000 } })
  } else {
    const { urlFuzzer } = await import('../src/tools/url-fuzzer/run.js')
    const wordlist = Array.from({ length: words }, (_, i) => `w${i}`)
    r = await runTool(urlFuzzer, { target: url, params: { wordlist, concurrency: 50, rate_limit: 100_000 } })
  }
  const urls = r.output.urls
  const crawlLine = r.logs.find((l: string) => l.startsWith('crawl: ') && l.includes('injection point'))
  const summary = {
    pagesCrawled: r.output.pages_crawled ?? null,
    crawlLine,
    findings: r.findings.length,
    urls: Array.isArray(urls) ? urls.length : null,
    tests: r.tests.length,
    logs: r.logs.length,
    error: r.error?.message ?? null,
    seconds: (performance.now() - t0) / 1000,
    output: Object.keys(r.output),
  }
  process.stdout.write(JSON.stringify(summary) + '\n')
}

export async function run(args: string[]): Promise<void> {
  const a = parseArgs(args)
  const pages = Number(a.get('pages') ?? 10_000)
  const words = Number(a.get('words') ?? 100_000)
  if (a.get('child')) return child(a.get('child')!, a.get('url')!, words)
  console.log(`memory: website deep scan of a ${fmt(pages)}-page site, URL fuzz of ${fmt(words)} words; ${machine()}`)
  const site = website(pages)
  const fuzz = fuzzSite()
  try {
    const siteUrl = await listen(site, '127.0.10.201')
    const fuzzUrl = await listen(fuzz, '127.0.10.202')
    const only = a.get('only')
    if (only !== 'fuzz') {
      const w = await measure('website', siteUrl, ['--pages', String(pages)])
      console.log(
        `website (170) deep: peak RSS ${fmt(w.peak / 2 ** 20)} MB (goal < ${LIMIT_MB} MB: ${w.peak < LIMIT_MB * 2 ** 20 ? 'met' : 'NOT met'}); ${w.summary.pagesCrawled} pages crawled (${w.summary.crawlLine}), ${fmt(w.summary.pagesCrawled / w.summary.seconds, 0)} pages/s over the whole scan; ${w.summary.findings} findings, ${w.summary.tests} tests, ${fmt(w.summary.seconds, 1)} s${w.summary.error ? `, error: ${w.summary.error}` : ''}`,
      )
    }
    if (only === 'website') return
    const f = await measure('fuzz', fuzzUrl, ['--words', String(words)])
    console.log(
      `url fuzz (90): peak RSS ${fmt(f.peak / 2 ** 20)} MB (goal < ${LIMIT_MB} MB: ${f.peak < LIMIT_MB * 2 ** 20 ? 'met' : 'NOT met'}); ${f.summary.findings} findings, ${f.summary.urls ?? '?'} paths in output_data.urls (${Math.ceil(words / 1000)} planted), ${fmt(f.summary.seconds, 1)} s${f.summary.error ? `, error: ${f.summary.error}` : ''}`,
    )
  } finally {
    site.closeAllConnections()
    fuzz.closeAllConnections()
    await Promise.all([new Promise((r) => site.close(r)), new Promise((r) => fuzz.close(r))])
  }
}
