// URL Fuzzer (tool 90) against the loopback test bed: planted paths are the truth.
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { runTool, type HarnessResult } from '../../helpers/tool-harness.js'
import { urlFuzzer } from '../../../src/tools/url-fuzzer/run.js'
import type { UrlEntry } from '../../../src/tools/url-fuzzer/output.js'
import { PLANTED, startFuzzSite, type FuzzSite, type FuzzSiteVariant } from '../../testbed/fuzz-site.js'
import { RedirectRefusedError, TargetUnreachableError } from '../../../src/toolkit/errors.js'
import { startUrls } from '../../../src/tools/url-fuzzer/probes/base-url.js'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const startUrlsOf = (ip: string) => startUrls({ id: 1, name: ip, type: 'ip_address' })

/** A throw-away self-signed certificate (openssl), or null when openssl is missing. */
function selfSigned(): { key: string; cert: string } | null {
  const dir = mkdtempSync(join(tmpdir(), 'ward-fuzz-tls-'))
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=fuzz.test',
        '-keyout',
        join(dir, 'k.pem'),
        '-out',
        join(dir, 'c.pem'),
      ],
      { stdio: 'ignore' },
    )
    return { key: readFileSync(join(dir, 'k.pem'), 'utf8'), cert: readFileSync(join(dir, 'c.pem'), 'utf8') }
  } catch {
    return null
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const HOST = '127.0.3.1'
const FAST = { rate_limit: 20_000, concurrency: 20 }
const KIND_CHECKS = [
  'fuzzer.exposure.vcs',
  'fuzzer.exposure.backup',
  'fuzzer.exposure.config',
  'fuzzer.exposure.admin-panel',
  'fuzzer.exposure.debug',
]

const found = (r: HarnessResult, site: FuzzSite) => ((r.output.urls as UrlEntry[]) ?? []).map((u) => u.url.slice(site.url.length)).sort()
const plantedPaths = Object.keys(PLANTED).sort()
const sensitiveTruth = (site: FuzzSite) =>
  Object.entries(PLANTED)
    .filter(([, p]) => p.kind)
    .map(([path, p]) => `${p.kind} ${site.url}${path}`)
    .sort()
const sensitiveFound = (r: HarnessResult) =>
  r.findings
    .filter((f) => f.check.id !== 'fuzzer.discovery.path')
    .map((f) => `${f.check.id} ${f.url}`)
    .sort()

for (const variant of ['normal', 'catch-all', 'redirect'] as FuzzSiteVariant[]) {
  describe(`the ${variant} site with the small wordlist`, () => {
    let site: FuzzSite
    let r: HarnessResult
    before(async () => {
      site = await startFuzzSite({ host: HOST, variant })
      r = await runTool(urlFuzzer, { target: site.url, params: FAST })
    })
    after(() => site.close())

    test('finds every planted path and nothing else', () => {
      assert.equal(r.error, undefined)
      assert.deepEqual(found(r, site), plantedPaths)
    })
    test('reports each sensitive path under the check of its kind', () => {
      assert.deepEqual(sensitiveFound(r), sensitiveTruth(site))
    })
    test('lists the plain discoveries in one info finding for the base URL', () => {
      const summary = r.findings.filter((f) => f.check.id === 'fuzzer.discovery.path')
      assert.equal(summary.length, 1)
      assert.equal(summary[0]!.url, site.url)
      assert.equal(summary[0]!.evidence?.type, 'table')
      const listed = (summary[0]!.evidence as { data: { rows: string[][] } }).data.rows.map((row) => row[1]!.slice(site.url.length)).sort()
      assert.deepEqual(
        listed,
        Object.keys(PLANTED)
          .filter((p) => !PLANTED[p]!.kind)
          .sort(),
      )
    })
    test('records one test per kind, each failed, and reaches 100 % progress', () => {
      for (const id of KIND_CHECKS) {
        const t = r.tests.find((x) => x.findings.some((f) => f.check.id === id))
        assert.ok(t, id)
        assert.equal(t.result, 'failed')
      }
      assert.equal(r.tests.find((t) => t.name === 'Soft-404 calibration')?.result, 'passed')
      assert.equal(r.progress, 100)
    })
  })
}

describe('output and findings carry the details', () => {
  let site: FuzzSite
  before(async () => (site = await startFuzzSite({ host: HOST })))
  after(() => site.close())

  test('output urls have url, status, length, content_type and redirect', async () => {
    const r = await runTool(urlFuzzer, { target: site.url, params: { ...FAST, wordlist: ['images', '.env'] } })
    const urls = r.output.urls as UrlEntry[]
    const images = urls.find((u) => u.url.endsWith('/images'))!
    assert.deepEqual({ status: images.status, redirect: images.redirect }, { status: 301, redirect: `${site.url}images/` })
    const env = urls.find((u) => u.url.endsWith('/.env'))!
    assert.deepEqual(
      { status: env.status, length: env.length, content_type: env.content_type, redirect: env.redirect },
      { status: 200, length: Buffer.byteLength(PLANTED['.env']!.body), content_type: 'text/plain', redirect: null },
    )
    const f = r.findings.find((x) => x.check.id === 'fuzzer.exposure.config')!
    assert.equal(f.risk, 'high')
    assert.deepEqual([f.port, f.protocol, f.service], [site.port, 'tcp', 'http'])
    assert.deepEqual((f.evidence as { data: { rows: string[][] } }).data.rows[0]!.slice(2, 5), ['200', String(env.length), 'text/plain'])
  })
})

describe('tool_params', () => {
  let site: FuzzSite
  let catchAll: FuzzSite
  before(async () => {
    site = await startFuzzSite({ host: HOST })
    catchAll = await startFuzzSite({ host: HOST, variant: 'catch-all' })
  })
  after(async () => {
    await site.close()
    await catchAll.close()
  })

  test('an array wordlist with extensions tries each word bare and with each suffix', async () => {
    for (const s of [site, catchAll]) {
      const r = await runTool(urlFuzzer, {
        target: s.url,
        params: { ...FAST, wordlist: ['index', 'config.php', 'nothing', '.git/HEAD', 'index.php'], extensions: ['.php', 'bak'] },
      })
      // 'index' + '.php' and the word 'index.php' reach one URL: listed once.
      assert.deepEqual(found(r, s), ['.git/HEAD', 'config.php.bak', 'index.php', 'index.php.bak'])
      const lines = s.stats.lines.filter((l) => /index|config|nothing|HEAD/.test(l))
      for (const l of ['GET /index', 'GET /index.php', 'GET /index.bak', 'GET /config.php.bak', 'GET /nothing.php'])
        assert.ok(lines.includes(l), l)
    }
  })

  test('status_codes decides which statuses count as found', async () => {
    const only200 = await runTool(urlFuzzer, { target: site.url, params: { ...FAST, status_codes: [200] } })
    assert.deepEqual(
      found(only200, site),
      plantedPaths.filter((p) => PLANTED[p]!.status === 200 && !PLANTED[p]!.method),
    )
    const denied = await runTool(urlFuzzer, { target: site.url, params: { ...FAST, status_codes: [401, 403] } })
    assert.deepEqual(found(denied, site), ['api', 'private'])
    assert.equal(denied.findings.filter((f) => f.check.id !== 'fuzzer.discovery.path').length, 0)
  })

  test('methods: each word is sent with each method', async () => {
    const r = await runTool(urlFuzzer, { target: site.url, params: { ...FAST, wordlist: ['upload.php'], methods: ['GET', 'POST'] } })
    const urls = (r.output.urls as UrlEntry[]).map((u) => `${u.method} ${u.status}`).sort()
    assert.deepEqual(urls, ['GET 405', 'POST 200'])
  })

  test('follow_redirects judges the final answer', async () => {
    const plain = await runTool(urlFuzzer, { target: site.url, params: { ...FAST, wordlist: ['images', 'login'] } })
    assert.deepEqual(found(plain, site), ['images', 'login'])
    // /images -> /images/ which does not exist: not found once followed.
    const followed = await runTool(urlFuzzer, {
      target: site.url,
      params: { ...FAST, wordlist: ['images', 'login'], follow_redirects: true },
    })
    assert.deepEqual(found(followed, site), ['login'])
  })

  test('invalid parameters are refused before the scan', async () => {
    const bad = [
      { wordlist: 'huge' },
      { wordlist: [] },
      { wordlist: ['a b'] },
      { wordlist: ['x'.repeat(257)] },
      { wordlist: Array.from({ length: 100_001 }, (_, i) => `w${i}`) },
      { methods: ['DELETE'] },
      { concurrency: 201 },
      { rate_limit: 0 },
      { status_codes: [99] },
      { colour: 'red' },
    ]
    for (const params of bad)
      await assert.rejects(runTool(urlFuzzer, { target: site.url, params }), /tool_params/, JSON.stringify(params).slice(0, 60))
  })
})

describe('bounds', () => {
  test('never has more requests in flight than concurrency', async () => {
    const site = await startFuzzSite({ host: HOST, delayMs: 25 })
    try {
      const words = Array.from({ length: 150 }, (_, i) => `page${i}`)
      const r = await runTool(urlFuzzer, { target: site.url, params: { wordlist: words, concurrency: 6, rate_limit: 20_000 } })
      assert.equal(r.error, undefined)
      assert.ok(site.stats.maxInFlight <= 6, `max in flight ${site.stats.maxInFlight}`)
      assert.ok(site.stats.maxInFlight >= 4, `the pool ran in parallel (max in flight ${site.stats.maxInFlight})`)
    } finally {
      await site.close()
    }
  })

  test('keeps to rate_limit requests per second', async () => {
    const site = await startFuzzSite({ host: HOST })
    try {
      const words = Array.from({ length: 90 }, (_, i) => `item${i}`)
      const r = await runTool(urlFuzzer, { target: site.url, params: { wordlist: words, concurrency: 20, rate_limit: 50 } })
      assert.equal(r.error, undefined)
      const t = site.stats.times.slice(1) // the base request is not paced
      const spanS = (t[t.length - 1]! - t[0]!) / 1000
      assert.ok(t.length >= 90, `${t.length} requests`)
      assert.ok(spanS >= ((t.length - 1) / 50) * 0.95, `${t.length} requests took ${spanS.toFixed(2)} s`)
      // No one-second window holds more than the rate, give or take timer and event-loop jitter (a late
      // request is followed closely by the next, on-time one).
      let maxWindow = 0
      for (let i = 0, j = 0; i < t.length; i++) {
        while (t[i]! - t[j]! >= 1000) j++
        maxWindow = Math.max(maxWindow, i - j + 1)
      }
      // 20% margin: timers delayed by a loaded machine fire together; an unpaced fuzzer sends all 90 at once.
      assert.ok(maxWindow <= 60, `max requests in 1 s: ${maxWindow}`)
    } finally {
      await site.close()
    }
  })

  test('stops within 1 s of an abort and returns what it found', async (t) => {
    const site = await startFuzzSite({ host: HOST, delayMs: 300 })
    try {
      const ac = new AbortController()
      let abortedAt = 0
      setTimeout(() => {
        abortedAt = performance.now()
        ac.abort(new Error('stop requested'))
      }, 1500)
      const r = await runTool(urlFuzzer, {
        target: site.url,
        params: { wordlist: 'medium', concurrency: 10, rate_limit: 20_000 },
        signal: ac.signal,
      })
      const late = performance.now() - abortedAt
      t.diagnostic(`returned ${late.toFixed(0)} ms after the abort, progress ${r.progress} %`)
      assert.equal(r.error, undefined)
      assert.ok(abortedAt > 0 && late < 1000, `returned ${late.toFixed(0)} ms after the abort`)
      assert.ok(r.progress < 100)
      assert.ok(Array.isArray(r.output.urls))
      assert.ok(r.tests.some((t) => t.status === 'error' && /stopped/.test(t.message ?? '')))
    } finally {
      await site.close()
    }
  })
})

describe('targets and redirects', () => {
  test('an unreachable target is a connection error', async () => {
    const site = await startFuzzSite({ host: HOST })
    const url = site.url
    await site.close()
    const r = await runTool(urlFuzzer, { target: url, params: FAST })
    assert.ok(r.error instanceof TargetUnreachableError, String(r.error))
  })

  test('fuzzes under the path of a URL target', async () => {
    const site = await startFuzzSite({ host: HOST })
    try {
      const r = await runTool(urlFuzzer, { target: `${site.url}shop`, params: { ...FAST, wordlist: ['.env', 'login'] } })
      assert.deepEqual(r.output.urls, [])
      assert.ok(site.stats.lines.includes('GET /shop/.env'))
    } finally {
      await site.close()
    }
  })

  test('a hostname or IP target is tried with https, then http', async (t) => {
    let site: FuzzSite
    try {
      site = await startFuzzSite({ host: '127.0.3.2', port: 80 })
    } catch (e) {
      t.diagnostic(`cannot listen on 127.0.3.2:80 (${(e as Error).message}); checking the https->http order on a closed host instead`)
      const r = await runTool(urlFuzzer, { target: { id: 1, name: '127.0.3.3', type: 'ip_address' }, params: FAST })
      assert.match(String(r.error?.message), /https:\/\/127\.0\.3\.3\/.*http:\/\/127\.0\.3\.3\//)
      return
    }
    try {
      const r = await runTool(urlFuzzer, {
        target: { id: 1, name: '127.0.3.2', type: 'ip_address' },
        params: { ...FAST, wordlist: ['.env'] },
      })
      assert.deepEqual(
        ((r.output.urls as UrlEntry[]) ?? []).map((u) => u.url),
        ['http://127.0.3.2/.env'],
      )
      assert.ok(r.logs.some((l) => l.startsWith('base: http://127.0.3.2/')))
      t.diagnostic('served on 127.0.3.2:80; https://127.0.3.2/ was refused first')
    } finally {
      await site.close()
    }
  })

  test('an IP target answering https is fuzzed over https', async (t) => {
    const tls = selfSigned()
    if (!tls) {
      t.diagnostic('openssl is missing: no certificate for an https test bed; checking the https URL list only')
      assert.equal(startUrlsOf('127.0.3.4')[0], 'https://127.0.3.4/')
      return
    }
    let site: FuzzSite
    let target: Parameters<typeof runTool>[1]['target'] = { id: 1, name: '127.0.3.4', type: 'ip_address' }
    try {
      site = await startFuzzSite({ host: '127.0.3.4', port: 443, tls })
    } catch (e) {
      t.diagnostic(`cannot listen on 127.0.3.4:443 (${(e as Error).message}); using an https URL target on a free port`)
      site = await startFuzzSite({ host: '127.0.3.4', tls })
      target = site.url
    }
    try {
      const r = await runTool(urlFuzzer, { target, params: { ...FAST, wordlist: ['.env', 'login', 'nope'] } })
      assert.equal(r.error, undefined)
      assert.deepEqual(((r.output.urls as UrlEntry[]) ?? []).map((u) => u.url).sort(), [`${site.url}.env`, `${site.url}login`])
      const f = r.findings.find((x) => x.check.id === 'fuzzer.exposure.config')!
      assert.deepEqual([f.port, f.service], [site.port, 'https'])
    } finally {
      await site.close()
    }
  })

  test('redirect_level check_accessibility refuses a redirecting target', async () => {
    const site = await startFuzzSite({ host: HOST, variant: 'redirect' })
    try {
      const r = await runTool(urlFuzzer, { target: site.url, params: FAST, options: { redirectLevel: 'check_accessibility' } })
      assert.ok(r.error instanceof RedirectRefusedError, String(r.error))
      const ok = await runTool(urlFuzzer, { target: site.url, params: { ...FAST, wordlist: ['.env'] }, options: { redirectLevel: 'none' } })
      assert.equal(ok.error, undefined)
    } finally {
      await site.close()
    }
  })
})

describe('every check passes when nothing of its kind is exposed', () => {
  test('sensitive names that are not planted leave every test passed', async () => {
    const site = await startFuzzSite({ host: HOST, variant: 'catch-all' })
    try {
      const words = [
        '.svn/entries',
        '.hg/hgrc',
        'backup.tar.gz',
        'dump.sql',
        '.htpasswd',
        'appsettings.json',
        'adminer.php',
        'pma',
        'server-info',
        'actuator/heapdump',
        'nothing-here',
      ]
      const r = await runTool(urlFuzzer, { target: site.url, params: { ...FAST, wordlist: words } })
      assert.equal(r.findings.length, 0)
      for (const t of r.tests) assert.equal(t.result, 'passed', t.name)
      assert.equal(r.tests.length, 7)
    } finally {
      await site.close()
    }
  })
})
