// Website Recon's pure parts: the catalogue, the page reader, the matcher, the favicon hash.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FINGERPRINTS } from '../../../src/tools/website-recon/data/shipped.js'
import { compileCatalogue, FingerprintError, parsePattern } from '../../../src/tools/website-recon/data/catalogue.js'
import { readPage } from '../../../src/tools/website-recon/detect/page.js'
import { detectTechnologies, type Observation } from '../../../src/tools/website-recon/detect/match.js'
import { faviconHash, murmur3 } from '../../../src/tools/lib/hash/mmh3.js'
import { websiteReconManifest } from '../../../src/tools/website-recon/manifest.js'

const obs = (o: Partial<Observation> & { html?: string }): Observation => ({
  url: 'http://h/',
  headers: {},
  cookies: [],
  favicon: null,
  ...o,
  html: o.html ?? '',
  page: readPage(o.html ?? ''),
})
const names = (o: Observation) => detectTechnologies(o, FINGERPRINTS).map((t) => `${t.name}${t.version ? ` ${t.version}` : ''}`)

test('the shipped catalogue compiles: 200+ technologies, each with categories', () => {
  assert.ok(FINGERPRINTS.length >= 200, `${FINGERPRINTS.length}`)
  assert.ok(
    FINGERPRINTS.every((t) => t.cats.length > 0),
    FINGERPRINTS.filter((t) => !t.cats.length)
      .map((t) => t.name)
      .join(', '),
  )
  const known = new Set(FINGERPRINTS.map((t) => t.name))
  const dangling = FINGERPRINTS.flatMap((t) => t.implies.filter((i) => !known.has(i)).map((i) => `${t.name} → ${i}`))
  assert.deepEqual(dangling, [])
})
test('patterns: version and confidence tags are read; a bad regex names its entry', () => {
  const p = parsePattern('nginx/([\\d.]+)\\;version:\\1\\;confidence:50', 'x')
  assert.deepEqual([p.version, p.confidence, p.re.test('NGINX/1.2')], ['\\1', 50, true])
  assert.throws(
    () => compileCatalogue({ Bad: { cats: ['x'], scripts: ['(unclosed'] } }),
    (e: Error) => e instanceof FingerprintError && /Bad\.scripts\[0\]/.test(e.message),
  )
})
test('manifest: bad user fingerprints are a params problem, good ones none', () => {
  assert.match(
    websiteReconManifest.validateParams!({ favicon: true, fingerprints: { X: { headers: { server: '[' } } } })!,
    /fingerprints: X\.headers\.server/,
  )
  assert.equal(
    websiteReconManifest.validateParams!({ favicon: true, fingerprints: { X: { cats: ['CMS'], meta: { generator: 'X' } } } }),
    undefined,
  )
})

test('page: meta, script src, inline scripts, links and the icon link in one pass', () => {
  const p = readPage(
    '<html><head><title> T </title><meta name="Generator" content="WordPress 6.1"><link rel="shortcut icon" href="/i.ico"><script src="/a.js"></script><script>var x=1</script></head></html>',
  )
  assert.deepEqual(p, {
    meta: [['generator', 'WordPress 6.1']],
    scripts: ['/a.js'],
    scriptText: ['var x=1'],
    links: ['/i.ico'],
    icon: '/i.ico',
    title: 'T',
  })
})

test('match: Server and X-Powered-By headers with versions; implied technologies follow', () => {
  assert.deepEqual(names(obs({ headers: { server: 'nginx/1.18.0', 'x-powered-by': 'PHP/8.1.2' } })), ['nginx 1.18.0', 'PHP 8.1.2'])
  assert.deepEqual(names(obs({ headers: { 'x-powered-by': 'Express' } })), ['Express', 'Node.js'])
})
test('match: cookies by name and prefix, scripts by file name, generator beats an asset ?ver=', () => {
  assert.ok(names(obs({ cookies: [['incap_ses_123_456', 'x']] })).includes('Imperva'))
  const wp = names(
    obs({ html: '<meta name="generator" content="WordPress 5.1.1"><script src="/wp-includes/js/jquery/jquery.js?ver=1.12.4"></script>' }),
  )
  assert.ok(wp.includes('WordPress 5.1.1') && wp.includes('jQuery 1.12.4'), wp.join(', '))
})
test('match: a plain page names nothing', () => {
  assert.deepEqual(names(obs({ html: '<html><head><title>Welcome</title></head><body>Hi</body></html>' })), [])
})
test('match: favicon hashes (mmh3 and sha256) name a technology from a user entry', () => {
  const cat = compileCatalogue({ Cam: { cats: ['Cameras'], favicon: ['-123', 'sha256:ab'] } })
  assert.deepEqual(
    detectTechnologies(obs({ favicon: { mmh3: -123, sha256: 'ff' } }), cat).map((t) => t.name),
    ['Cam'],
  )
  assert.deepEqual(
    detectTechnologies(obs({ favicon: { mmh3: 5, sha256: 'ab' } }), cat).map((t) => t.name),
    ['Cam'],
  )
  assert.deepEqual(detectTechnologies(obs({ favicon: { mmh3: 5, sha256: 'ff' } }), cat), [])
})

test('mmh3: MurmurHash3 x86_32 reference values; Shodan hashes base64 with a newline every 76 characters', () => {
  assert.equal(murmur3(Buffer.from('')), 0)
  assert.equal(murmur3(Buffer.from('hello')), 613153351)
  assert.equal(murmur3(Buffer.from('The quick brown fox jumps over the lazy dog')), 776992547)
  const body = Buffer.alloc(100, 1)
  const b64 = body.toString('base64')
  assert.equal(faviconHash(body), murmur3(Buffer.from(`${b64.slice(0, 76)}\n${b64.slice(76)}\n`)))
})
