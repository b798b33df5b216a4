// Website Scanner: redirect_level and scan_original_url, each value against a redirecting server.
// Host A (127.0.2.20) redirects within itself and to host B (127.0.2.21), a "different host".
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { runTool } from '../../helpers/tool-harness.js'
import { websiteScanner } from '../../../src/tools/website-scanner/run.js'
import { RedirectRefusedError } from '../../../src/toolkit/errors.js'
import type { RedirectLevel } from '../../../src/toolkit/tool.js'

const A = '127.0.2.20'
const B = '127.0.2.21'
let a: http.Server
let b: http.Server
let bHits = 0
let aUrl = ''
let bUrl = ''

const listen = (s: http.Server, host: string) =>
  new Promise<string>((res) => s.listen(0, host, () => res(`http://${host}:${(s.address() as AddressInfo).port}`)))

before(async () => {
  b = http.createServer((req, res) => {
    bHits++
    res.writeHead(req.url === '/landing' ? 200 : 404, { 'content-type': 'text/html' })
    res.end('<html><title>B</title>landing on B</html>')
  })
  bUrl = await listen(b, B)
  a = http.createServer((req, res) => {
    const to =
      req.url === '/to-same-host'
        ? '/landing'
        : req.url === '/to-other-host'
          ? `${bUrl}/landing`
          : req.url === '/chain'
            ? '/to-same-host'
            : null
    if (to) {
      res.writeHead(302, { location: to })
      return res.end()
    }
    res.writeHead(req.url === '/plain' || req.url === '/landing' ? 200 : 404, { 'content-type': 'text/html' })
    res.end('<html><title>A</title>page on A</html>')
  })
  aUrl = await listen(a, A)
})
after(async () => {
  for (const s of [a, b]) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

const scan = (path: string, redirectLevel: RedirectLevel, scanOriginalUrl = false) =>
  runTool(websiteScanner, { target: `${aUrl}${path}`, options: { redirectLevel, scanOriginalUrl } })

describe('redirect_level', () => {
  test('none: the target goes to the scanner as given, redirects not followed', async () => {
    const r = await scan('/to-same-host', 'none')
    assert.equal(r.error, undefined)
    assert.equal(r.output.scanned_url, `${aUrl}/to-same-host`)
    assert.deepEqual(r.output.redirects, [])
    assert.ok(r.logs.some((l) => /redirect_level=none/.test(l)))
  })

  test('check_accessibility: any redirect is an error; a direct answer is scanned', async () => {
    const r = await scan('/to-same-host', 'check_accessibility')
    assert.ok(r.error instanceof RedirectRefusedError, String(r.error))
    assert.match(r.error!.message, /redirects \(302\) to .*\/landing; redirect_level=check_accessibility refuses any redirect/)
    assert.equal(r.tests.length, 0)
    const ok = await scan('/plain', 'check_accessibility')
    assert.equal(ok.error, undefined)
    assert.equal(ok.output.scanned_url, `${aUrl}/plain`)
  })

  test('same_host: follows redirects within the host, not to another host', async () => {
    const inHost = await scan('/chain', 'same_host')
    assert.equal(inHost.output.scanned_url, `${aUrl}/landing`)
    assert.equal((inHost.output.redirects as unknown[]).length, 2)
    const before = bHits
    const out = await scan('/to-other-host', 'same_host')
    assert.equal(out.error, undefined)
    assert.equal(out.output.scanned_url, `${aUrl}/to-other-host`, 'the original URL is scanned')
    assert.equal(bHits, before, 'host B was never contacted')
    assert.ok(out.logs.some((l) => l.includes(`outside redirect_level=same_host: not followed, scanning the original URL`)))
  })

  test('same_domain (default): same host followed; a different IP is another domain and is not', async () => {
    const inHost = await scan('/to-same-host', 'same_domain')
    assert.equal(inHost.output.scanned_url, `${aUrl}/landing`)
    const before = bHits
    const out = await scan('/to-other-host', 'same_domain')
    assert.equal(out.output.scanned_url, `${aUrl}/to-other-host`)
    assert.equal(bHits, before, 'host B was never contacted')
    const dflt = await runTool(websiteScanner, { target: `${aUrl}/to-same-host` })
    assert.equal(dflt.output.scanned_url, `${aUrl}/landing`, 'the harness default is same_domain')
  })

  test('allow_all: a redirect to another host is followed and that host is scanned', async () => {
    const before = bHits
    const r = await scan('/to-other-host', 'allow_all')
    assert.equal(r.error, undefined)
    assert.equal(r.output.scanned_url, `${bUrl}/landing`)
    assert.ok(bHits > before)
    assert.ok(
      r.findings.every((f) => (f.url ?? '').startsWith(`http://${B}`)),
      'findings are about the scanned host',
    )
  })
})

describe('scan_original_url', () => {
  test('true: the original URL is scanned even though it redirects within the policy', async () => {
    const r = await scan('/to-same-host', 'same_host', true)
    assert.equal(r.output.scanned_url, `${aUrl}/to-same-host`)
    assert.deepEqual(r.output.redirects, [{ from: `${aUrl}/to-same-host`, to: `${aUrl}/landing`, status: 302, followed: false }])
  })
  test('false: the final redirected URL is scanned', async () => {
    const r = await scan('/to-same-host', 'allow_all', false)
    assert.equal(r.output.scanned_url, `${aUrl}/landing`)
  })
})
