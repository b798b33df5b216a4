// URL Fuzzer pure parts: check catalogue, classification, soft-404 signatures, wordlists, pacing.
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import v8 from 'node:v8'
import vm from 'node:vm'
import { Value } from '@sinclair/typebox/value'
import { urlFuzzerChecks } from '../../../src/tools/url-fuzzer/checks.js'
import { RISK_LEVEL } from '../../../src/toolkit/check.js'
import { classify } from '../../../src/tools/url-fuzzer/detect/classify.js'
import { Signature, Soft404, pathClass, type Observation } from '../../../src/tools/lib/http/soft404.js'
import { candidates, encodePath, normaliseExtension, openWordlist } from '../../../src/tools/url-fuzzer/probes/wordlist.js'
import { directoryOf, startUrls } from '../../../src/tools/url-fuzzer/probes/base-url.js'
import { redirectAllowed } from '../../../src/tools/lib/http/redirect-policy.js'
import { RateLimiter } from '../../../src/tools/lib/http/rate-limit.js'
import { urlFuzzerParams } from '../../../src/tools/url-fuzzer/params.js'
import { urlFuzzer } from '../../../src/tools/url-fuzzer/run.js'
import { resolveToolParams } from '../../../src/toolkit/params.js'
import { PLANTED } from '../../testbed/fuzz-site.js'

describe('check catalogue', () => {
  test('ids are unique, stable in form and every field is well formed', () => {
    const ids = urlFuzzerChecks.map((c) => c.id)
    assert.equal(new Set(ids).size, ids.length)
    for (const c of urlFuzzerChecks) {
      assert.match(c.id, /^fuzzer\.(exposure|discovery)\.[a-z0-9-]+$/)
      assert.ok(c.name && c.description && c.impact && c.recommendation, c.id)
      assert.ok(c.risk in RISK_LEVEL)
      for (const cwe of c.cwe) assert.match(cwe, /^CWE-\d+$/)
      for (const [year, v] of Object.entries(c.owasp)) assert.match(v as string, new RegExp(`^A\\d{1,2}:${year}-\\S`))
      assert.ok(c.references.length > 0)
      for (const r of c.references) assert.match(r, /^https:\/\//)
    }
  })
  test('the tool is tool 90 and declares what the engine needs', () => {
    assert.deepEqual(
      { id: urlFuzzer.id, max: urlFuzzer.supportsMaxScanTime, needs: urlFuzzer.needs, restartable: urlFuzzer.restartable },
      { id: 90, max: true, needs: {}, restartable: true },
    )
  })
})

describe('classify', () => {
  const cases: [string, number, string | null, string?][] = [
    ['.git/HEAD', 200, 'fuzzer.exposure.vcs', 'high'],
    ['.svn/wc.db', 200, 'fuzzer.exposure.vcs', 'high'],
    ['CVS/Root', 200, 'fuzzer.exposure.vcs', 'high'],
    ['.git/HEAD', 403, null],
    ['backup.zip', 200, 'fuzzer.exposure.backup', 'high'],
    ['dump.sql.gz', 200, 'fuzzer.exposure.backup', 'high'],
    ['index.php.bak', 200, 'fuzzer.exposure.backup', 'medium'],
    ['index.php~', 200, 'fuzzer.exposure.backup', 'medium'],
    ['.index.php.swp', 200, 'fuzzer.exposure.backup', 'medium'],
    ['backup.zip', 301, null],
    ['.env', 200, 'fuzzer.exposure.config', 'high'],
    ['.env.production', 200, 'fuzzer.exposure.config', 'high'],
    ['.env.example', 200, 'fuzzer.exposure.config', 'medium'],
    ['config.php.bak', 200, 'fuzzer.exposure.config', 'high'],
    ['wp-config.php~', 200, 'fuzzer.exposure.config', 'high'],
    ['web.config', 200, 'fuzzer.exposure.config', 'medium'],
    ['.aws/credentials', 200, 'fuzzer.exposure.config', 'high'],
    ['config.php', 200, null],
    ['phpmyadmin', 200, 'fuzzer.exposure.admin-panel', 'medium'],
    ['adminer.php', 200, 'fuzzer.exposure.admin-panel', 'medium'],
    ['wp-admin', 200, 'fuzzer.exposure.admin-panel', 'low'],
    ['admin/login', 401, 'fuzzer.exposure.admin-panel', 'low'],
    ['admin', 403, null],
    ['admin', 302, null],
    ['phpinfo.php', 200, 'fuzzer.exposure.debug', 'medium'],
    ['server-status', 200, 'fuzzer.exposure.debug', 'medium'],
    ['actuator/heapdump', 200, 'fuzzer.exposure.debug', 'high'],
    ['actuator/health', 200, null],
    ['images', 200, null],
    ['robots.txt', 200, null],
  ]
  for (const [path, status, id, risk] of cases) {
    test(`${path} answered ${status} is ${id ?? 'a plain discovery'}${risk ? ` (${risk})` : ''}`, () => {
      const c = classify(path, status)
      assert.equal(c?.check.id ?? null, id)
      if (risk) assert.equal(c?.risk, risk)
    })
  }
  test('the test bed truth agrees with classify', () => {
    for (const [path, p] of Object.entries(PLANTED)) assert.equal(classify(path, p.method ? 405 : p.status)?.check.id ?? null, p.kind, path)
  })
})

const obs = (status: number, body: string, extra: Partial<Observation> = {}): Observation => ({
  status,
  length: Buffer.byteLength(body),
  contentType: 'text/html',
  location: null,
  body: Buffer.from(body),
  ...extra,
})
const page404 = (path: string, n: number) =>
  `<html><title>Not found</title><p>No page ${path} here.</p><a href="/">home</a> <i>req ${n}</i></html>`

describe('soft-404 signature', () => {
  const sig = new Signature([
    { path: '/qwertyui', obs: obs(200, page404('/qwertyui', 1)) },
    { path: '/asdfghjklzx', obs: obs(200, page404('/asdfghjklzx', 2)) },
    { path: '/zxcvbnmasdfg', obs: obs(200, page404('/zxcvbnmasdfg', 3)) },
  ])
  test('matches the catch-all page for any word, even one found in the page (e.g. "a", "home")', () => {
    assert.equal(sig.matches('/admin.php', obs(200, page404('/admin.php', 99))), true)
    assert.equal(sig.matches('/a', obs(200, page404('/a', 7))), true)
    assert.equal(sig.matches('/home', obs(200, page404('/home', 8))), true)
  })
  test('does not match a real page, another status or another content type', () => {
    assert.equal(sig.matches('/login', obs(200, '<html><title>Sign in</title><form>user password</form></html>')), false)
    assert.equal(sig.matches('/x', obs(403, page404('/x', 1))), false)
    assert.equal(sig.matches('/x', obs(200, page404('/x', 1), { contentType: 'application/json' })), false)
  })
  test('redirects match by Location pattern, component by component', () => {
    const loc = (p: string) => `http://h/login?next=${encodeURIComponent(p)}`
    const r = new Signature([
      { path: '/qwertyui', obs: obs(302, '', { location: loc('/qwertyui') }) },
      { path: '/asdfghjkl', obs: obs(302, '', { location: loc('/asdfghjkl') }) },
    ])
    assert.equal(r.matches('/log', obs(302, '', { location: loc('/log') })), true)
    assert.equal(r.matches('/admin', obs(302, '', { location: 'http://h/admin/' })), false)
    const slash = new Signature([{ path: '/qwertyui', obs: obs(301, '', { location: 'http://h/qwertyui/' }) }])
    assert.equal(slash.matches('/images', obs(301, '', { location: 'http://h/images/' })), true)
  })
  test('body-less answers compare by length', () => {
    const empty = new Signature([{ path: '/qwertyui', obs: obs(200, '') }])
    assert.equal(empty.matches('/other', obs(200, '')), true)
    assert.equal(empty.matches('/backup.zip', obs(200, '', { length: 4096 })), false)
  })
  test('path classes separate directories, dot-files and suffixes', () => {
    assert.equal(pathClass('GET', 'admin').key, 'GET |||')
    assert.equal(pathClass('GET', 'index.php').key, 'GET ||.php|')
    assert.equal(pathClass('GET', '.env').key, 'GET |.||')
    assert.equal(pathClass('GET', '.git/HEAD').key, 'GET .git/|||')
    assert.equal(pathClass('GET', 'index.php~').key, 'GET ||~|')
    assert.equal(pathClass('HEAD', 'a/b.bak').probePath('rnd'), 'a/rnd.bak')
  })
  test('concurrent lookups of one class share one calibration', async () => {
    let probes = 0
    const s = new Soft404(async (_m, p) => {
      probes++
      return obs(404, page404(p, probes))
    })
    await Promise.all(['a', 'b', 'c', 'd'].map((w) => s.isSoft404('GET', w, obs(404, 'x'))))
    assert.equal(probes, 3)
    assert.equal(s.classes, 1)
  })
})

describe('wordlists', () => {
  const words = (name: string) =>
    readFileSync(new URL(`../../../src/tools/url-fuzzer/wordlists/${name}.txt`, import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean)
  const small = words('small')
  const medium = words('medium')
  test('small has about 500 and medium about 5000 distinct words, medium containing small', () => {
    assert.ok(small.length >= 450 && small.length <= 600, `${small.length}`)
    assert.equal(medium.length, 5000)
    assert.equal(new Set(small).size, small.length)
    assert.equal(new Set(medium).size, medium.length)
    const m = new Set(medium)
    assert.deepEqual(
      small.filter((w) => !m.has(w)),
      [],
    )
  })
  test('every word is a valid array-wordlist word and every planted path is in small', () => {
    assert.ok(Value.Check(urlFuzzerParams, { ...(Value.Default(urlFuzzerParams, {}) as object), wordlist: medium }))
    const s = new Set(small)
    assert.deepEqual(
      Object.keys(PLANTED).filter((p) => !s.has(p)),
      [],
    )
  })
  test('openWordlist counts and streams the shipped lists', async () => {
    const src = await openWordlist('small')
    assert.equal(src.total, small.length)
    let n = 0
    for await (const _ of src.words()) n++
    assert.equal(n, small.length)
  })
  test('candidates stream: 100 000 words × 3 suffixes do not pile up in memory', async (t) => {
    // Live memory after a full GC, measured mid-stream: what the stream retains, not its garbage.
    v8.setFlagsFromString('--expose-gc')
    const gc = vm.runInNewContext('gc') as () => void
    const list = Array.from({ length: 100_000 }, (_, i) => `word${i}`)
    const src = await openWordlist(list)
    gc()
    const before = process.memoryUsage().heapUsed
    let n = 0
    let peak = 0
    for await (const c of candidates(src, ['.php', '.bak', '~'], ['GET'])) {
      n++
      if (n % 100_000 === 0) {
        gc()
        peak = Math.max(peak, process.memoryUsage().heapUsed - before)
      }
      if (n === 1) assert.equal(c.weight, 1 / 4)
    }
    assert.equal(n, 400_000)
    t.diagnostic(`live heap growth mid-stream: ${(peak / 1024).toFixed(0)} KiB`)
    // 400 000 candidate objects held at once would take tens of MiB.
    assert.ok(peak < 4 * 1024 * 1024, `live heap grew by ${(peak / 1048576).toFixed(1)} MiB`)
  })
  test('suffixes and paths are normalised', () => {
    assert.deepEqual(['.php', 'bak', '~', '_old'].map(normaliseExtension), ['.php', '.bak', '~', '_old'])
    assert.equal(encodePath('a b/ü%41'), 'a%20b/%C3%BC%41')
  })
  test('tool_params defaults', () => {
    const r = resolveToolParams(urlFuzzerParams, {})
    assert.ok(r.ok)
    const v = r.value as Record<string, unknown>
    assert.deepEqual(
      [v.wordlist, v.extensions, v.methods, v.concurrency, v.follow_redirects, v.rate_limit],
      ['small', [], ['GET'], 20, false, 200],
    )
    assert.ok(!(v.status_codes as number[]).includes(404))
  })
})

describe('targets', () => {
  test('hostnames and IPs start with https, then http; IPv6 gets brackets', () => {
    assert.deepEqual(startUrls({ id: 1, name: 'example.com', type: 'hostname' }), ['https://example.com/', 'http://example.com/'])
    assert.deepEqual(startUrls({ id: 1, name: '::1', type: 'ip_address' }), ['https://[::1]/', 'http://[::1]/'])
    assert.deepEqual(startUrls({ id: 1, name: 'http://[::1]:8080/app', type: 'url' }), ['http://[::1]:8080/app'])
  })
  test('the base directory of a URL', () => {
    assert.equal(directoryOf(new URL('http://h/app')).href, 'http://h/app/')
    assert.equal(directoryOf(new URL('http://h/app/index.php?x=1')).href, 'http://h/app/')
    assert.equal(directoryOf(new URL('http://h/login?next=/'), false).href, 'http://h/')
  })
  test('redirect levels', () => {
    const u = (s: string) => new URL(s)
    assert.equal(redirectAllowed('same_host', u('http://a.com/'), u('https://a.com/x')), true)
    assert.equal(redirectAllowed('same_host', u('http://a.com/'), u('http://www.a.com/')), false)
    assert.equal(redirectAllowed('same_domain', u('http://a.com/'), u('http://www.a.com/')), true)
    assert.equal(redirectAllowed('same_domain', u('http://a.com/'), u('http://b.com/')), false)
    assert.equal(redirectAllowed('allow_all', u('http://a.com/'), u('http://b.com/')), true)
  })
})

describe('rate limiter', () => {
  test('spaces requests 1/rate apart and stops waiting on abort', async () => {
    const l = new RateLimiter(100)
    const t0 = performance.now()
    for (let i = 0; i < 21; i++) await l.take()
    const took = performance.now() - t0
    assert.ok(took >= 190 && took < 600, `${took.toFixed(0)} ms`)
    const slow = new RateLimiter(1)
    await slow.take()
    const ac = new AbortController()
    setTimeout(() => ac.abort(new Error('stop')), 50)
    const t1 = performance.now()
    await assert.rejects(async () => slow.take(ac.signal))
    assert.ok(performance.now() - t1 < 300)
  })
})
