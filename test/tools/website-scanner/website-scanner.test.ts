// Website Scanner against the weak test app and its hardened twin (loopback 127.0.2.1 / 127.0.2.2).
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { runTool, vulnIds, type HarnessResult } from '../../helpers/tool-harness.js'
import { websiteScanner } from '../../../src/tools/website-scanner/run.js'
import { lightChecks } from '../../../src/tools/website-scanner/checks.js'
import { LIGHT_TESTS } from '../../../src/tools/website-scanner/detect/light.js'
import { RISK_LEVEL } from '../../../src/toolkit/check.js'
import { TargetUnreachableError } from '../../../src/toolkit/errors.js'
import { resolveToolParams } from '../../../src/toolkit/params.js'
import { crawl } from '../../../src/tools/website-scanner/probes/crawl.js'
import { createFetcher } from '../../../src/tools/lib/http/fetch.js'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { HARDENED_TRUTH, startHardenedWeb, startWeakWeb, WEAK_TRUTH, type WebBed } from '../../testbed/weak-web.js'

const WEAK = '127.0.2.1'
const HARD = '127.0.2.2'
let weak: WebBed
let hard: WebBed

before(async () => {
  weak = await startWeakWeb(WEAK, { httpPort: 80, httpsPort: 443 })
  hard = await startHardenedWeb(HARD, { httpPort: 80, httpsPort: 443 })
})
after(async () => {
  await weak?.close()
  await hard?.close()
})

const aboveInfo = (r: HarnessResult) =>
  r.findings.filter((f) => RISK_LEVEL[f.risk ?? f.check.risk] > 0).map((f) => `${f.check.id} ${f.url}`)

function wellFormed(r: HarnessResult) {
  assert.equal(r.error, undefined, r.error?.stack)
  for (const f of r.findings) {
    assert.equal(f.protocol, 'tcp')
    assert.ok(f.service === 'http' || f.service === 'https', f.check.id)
    assert.ok(typeof f.port === 'number' && f.port > 0, f.check.id)
    assert.match(f.url ?? '', /^https?:\/\/127\.0\.2\.\d/, f.check.id)
    assert.ok(f.evidence && (f.evidence.type === 'text' || f.evidence.type === 'table'), `${f.check.id} has evidence`)
  }
  assert.equal(r.progress, 100)
  assert.ok(
    r.tests.every((t) => t.status !== 'running'),
    'every test ended',
  )
}

describe('light scan', () => {
  test('weak app over http (URL target) finds exactly the planted light weaknesses', async () => {
    const r = await runTool(websiteScanner, { target: `http://${WEAK}/` })
    wellFormed(r)
    assert.deepEqual(vulnIds(r), [...WEAK_TRUTH.lightHttp].sort())
    assert.equal(r.tests.length, LIGHT_TESTS, 'one test per light check, and the version test')
    const v = r.findings.find((f) => f.check.id === 'cve.apache-httpd-path-traversal')!
    assert.deepEqual(v.cve, ['CVE-2021-41773', 'CVE-2021-42013'])
    assert.equal(v.risk, 'critical')
    assert.equal(r.output.scanned_url, `http://${WEAK}/`)
  })

  test('weak app by IP (https first) finds the https weaknesses, including port 80 not redirecting', async () => {
    const r = await runTool(websiteScanner, { target: { id: 1, name: WEAK, type: 'ip_address' } })
    wellFormed(r)
    assert.equal(r.output.scanned_url, `https://${WEAK}/`)
    assert.deepEqual(vulnIds(r), [...WEAK_TRUTH.lightHttps].sort())
    const plain = r.findings.find((f) => f.check.id === 'website.transport.http-not-redirected')!
    assert.deepEqual([plain.url, plain.port, plain.service], [`http://${WEAK}/`, 80, 'http'])
  })

  test('weak app on a second https port without HSTS', async () => {
    const r = await runTool(websiteScanner, { target: weak.httpsAltUrl, params: { scan_type: 'light' } })
    wellFormed(r)
    assert.deepEqual(vulnIds(r), [...WEAK_TRUTH.lightHttpsAlt].sort())
  })

  test('the light truths together plant every light check', () => {
    const planted = new Set([...WEAK_TRUTH.lightHttp, ...WEAK_TRUTH.lightHttps, ...WEAK_TRUTH.lightHttpsAlt])
    assert.deepEqual([...planted].filter((id) => !/^(cve|eol)\./.test(id)).sort(), lightChecks.map((c) => c.id).sort())
  })

  test('hardened twin by hostname-style target: nothing above info', async () => {
    const r = await runTool(websiteScanner, { target: { id: 2, name: HARD, type: 'ip_address' } })
    wellFormed(r)
    assert.deepEqual(aboveInfo(r), [])
    assert.deepEqual(vulnIds(r), [...HARDENED_TRUTH])
    assert.ok(r.tests.filter((t) => t.result === 'passed').length >= 20, 'checks really ran and passed')
  })

  test('hardened twin by http URL: the redirect to https is followed (same_domain) and nothing above info', async () => {
    const r = await runTool(websiteScanner, { target: `http://${HARD}/` })
    wellFormed(r)
    assert.equal(r.output.scanned_url, `https://${HARD}/`)
    assert.deepEqual(aboveInfo(r), [])
  })

  test('a host without HTTPS falls back to http', async () => {
    const plainOnly = await startWeakWeb('127.0.2.5', { httpPort: 80 }) // its https listeners are on other ports
    try {
      const r = await runTool(websiteScanner, { target: { id: 5, name: '127.0.2.5', type: 'ip_address' } })
      assert.equal(r.error, undefined)
      assert.equal(r.output.scanned_url, 'http://127.0.2.5/')
      assert.ok(r.logs.some((l) => l.startsWith('https://127.0.2.5/: no answer')))
      assert.deepEqual(vulnIds(r), [...WEAK_TRUTH.lightHttp].sort())
    } finally {
      await plainOnly.close()
    }
  })

  test('an unreachable target ends with TargetUnreachableError', async () => {
    const r = await runTool(websiteScanner, { target: { id: 3, name: '127.0.2.3', type: 'ip_address' } })
    assert.ok(r.error instanceof TargetUnreachableError, String(r.error))
  })

  test('params: scan_type defaults to light, unknown values and members are refused', () => {
    assert.deepEqual(resolveToolParams(websiteScanner.params, {}), { ok: true, value: { scan_type: 'light', rate_limit: 100 } })
    assert.equal(resolveToolParams(websiteScanner.params, { scan_type: 'full' }).ok, false)
    assert.equal(resolveToolParams(websiteScanner.params, { scan_type: 'deep', depth: 3 }).ok, false)
    assert.equal(websiteScanner.id, 170)
  })
})

describe('deep scan', () => {
  test('weak app: light findings plus every injected flaw, proven, at the planted place', async () => {
    const r = await runTool(websiteScanner, { target: `http://${WEAK}/`, params: { scan_type: 'deep' } })
    wellFormed(r)
    assert.deepEqual(vulnIds(r), [...WEAK_TRUTH.lightHttp, ...WEAK_TRUTH.deepActive].sort())
    for (const id of WEAK_TRUTH.deepActive) {
      const [method, path, param] = WEAK_TRUTH.activeWhere[id]!
      const f = r.findings.filter((x) => x.check.id === id)
      assert.equal(f.length, 1, `${id}: one finding, got ${f.map((x) => `${x.url} ${x.location}`).join(', ')}`)
      assert.equal(f[0]!.url, `http://${WEAK}${path}`)
      assert.equal(f[0]!.location, `${method} ${param}`)
      assert.equal(f[0]!.confirmed, true)
      const text = f[0]!.evidence!.type === 'text' ? f[0]!.evidence!.data.text : ''
      assert.match(text, new RegExp(`^Request:\\n${method} http://${WEAK.replace(/\./g, '\\.')}${path}`), id)
      assert.match(text, /Proof:\n\S/, id)
    }
    // One test per check × injection point, on top of the light ones.
    const points = (r.output.injection_points as unknown[]).length
    assert.ok(points >= 6, `points: ${points}`)
    assert.equal(r.tests.length, LIGHT_TESTS + 1 + points * 7)
    // Linked downloads are fetched and classified by content (a dump and an archive only the crawl sees).
    const crawledFiles = r.findings
      .filter((x) => x.check.id === 'website.files.backup-exposed' && /\/files\//.test(x.url ?? ''))
      .map((x) => x.url)
      .sort()
    assert.deepEqual(crawledFiles, [`http://${WEAK}/files/export.sql`, `http://${WEAK}/files/site-2024.tar.gz`])
    assert.ok(
      r.tests.some((t) => /files linked from the site/.test(t.name) && t.findings.length === 2),
      'the crawled-files test holds both findings',
    )
    assert.ok(
      (r.output.pages as { url: string }[]).every((p) => p.url.startsWith(`http://${WEAK}/`)),
      'crawl stays on the origin',
    )
  })

  test('hardened twin: nothing above info', async () => {
    const r = await runTool(websiteScanner, { target: { id: 2, name: HARD, type: 'ip_address' }, params: { scan_type: 'deep' } })
    wellFormed(r)
    assert.deepEqual(aboveInfo(r), [])
    assert.ok((r.output.injection_points as unknown[]).length >= 6, 'the twin has the same injection points')
  })

  test('a stop during the deep scan returns within 1 s, normally', async () => {
    const ac = new AbortController()
    let abortedAt = 0
    const timer = setTimeout(() => {
      abortedAt = performance.now()
      ac.abort(new Error('stopped by user'))
    }, 1200) // inside the active phase (the command-injection probes sleep for 3 s)
    const started = performance.now()
    const r = await runTool(websiteScanner, { target: `http://${WEAK}/`, params: { scan_type: 'deep' }, signal: ac.signal })
    clearTimeout(timer)
    const end = performance.now()
    assert.ok(abortedAt > 0, `the scan ended before the stop (${Math.round(end - started)} ms)`)
    assert.equal(r.error, undefined)
    assert.ok(end - abortedAt < 1000, `returned ${Math.round(end - abortedAt)} ms after the stop`)
    assert.ok(r.tests.every((t) => t.status !== 'running'))
  })
})

describe('crawler bounds', () => {
  test('an endless site: pages, depth and query variants stay bounded, the origin is never left', async () => {
    let hits = 0
    const srv = http.createServer((req, res) => {
      hits++
      const n = Number(/^\/p\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0)
      const links = [
        `/p/${n + 1}`,
        `/p/${n + 2}`,
        ...Array.from({ length: 20 }, (_, k) => `/cal?day=${n * 100 + k}`),
        'http://127.0.2.99/elsewhere',
        '/logo.png',
        '/account/logout',
      ]
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(`<html>${links.map((l) => `<a href="${l}">x</a>`).join('')}<form action="/search"><input name="q"></form></html>`)
    })
    const base = await new Promise<string>((r) =>
      srv.listen(0, '127.0.2.4', () => r(`http://127.0.2.4:${(srv.address() as AddressInfo).port}/`)),
    )
    const net = createDirectEgress()
    try {
      const ac = new AbortController()
      const c = await crawl({
        start: new URL(base),
        fetch: createFetcher(net, ac.signal),
        signal: ac.signal,
        log: () => {},
        maxPages: 15,
        maxDepth: 3,
      })
      assert.ok(c.pages.length <= 15 && c.pages.length >= 10, `pages: ${c.pages.length}`)
      assert.ok(hits <= 17, `requests: ${hits} (15 pages, robots.txt, sitemap.xml)`)
      assert.ok(c.pages.every((p) => p.url.startsWith(base) && p.depth <= 3))
      assert.ok(c.pages.filter((p) => p.url.includes('/cal?')).length <= 3, 'at most 3 query variants of one path')
      assert.ok(
        c.points.some((p) => p.url === `${base}search` && 'q' in p.params),
        'the GET form is an injection point',
      )
      assert.ok(!c.pages.some((p) => p.url.endsWith('.png')), 'static files are not crawled')
      assert.ok(!c.pages.some((p) => p.url.includes('logout')), 'state-changing links are not followed')
    } finally {
      await net.close()
      srv.closeAllConnections()
      await new Promise((r) => srv.close(r))
    }
  })
})
