// Website Scanner's pure readers of what the crawl and the light requests saw: one line each for a
// case that passes and one that fails.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readCrawledPage } from '../../../src/tools/website-scanner/detect/crawl-page.js'
import { LIGHT_TESTS, lightTests, type LightObs } from '../../../src/tools/website-scanner/detect/light.js'
import { profile } from '../../../src/tools/lib/http/soft404.js'
import * as C from '../../../src/tools/website-scanner/checks.js'

const start = new URL('http://127.0.92.5/')
const html = (body: string) => ({ status: 200, headers: { 'content-type': 'text/html' }, text: () => body })

test('crawled page: a GET form is an injection point and leads to its result page; a logout form is neither', () => {
  const p = readCrawledPage(
    new URL('http://127.0.92.5/a/b'),
    html('<a href="/c">c</a><form action="/s"><input name="q"></form><form action="/logout"><input name="x"></form>'),
    start,
  )
  assert.deepEqual(
    p.points.map((x) => `${x.method} ${x.url} ${Object.keys(x.params)}`),
    ['GET http://127.0.92.5/s q'],
  )
  assert.deepEqual(
    p.next.map((u) => u.href),
    ['http://127.0.92.5/c', 'http://127.0.92.5/s?q=ward'],
  )
  assert.deepEqual(p.dirs, ['/a/'])
})

test('crawled page: a redirect leads to its Location only; a logged-in scan never injects a password form', () => {
  assert.deepEqual(
    readCrawledPage(
      new URL('http://127.0.92.5/old'),
      { status: 301, headers: { location: '/new' }, text: () => '<a href="/x">' },
      start,
    ).next.map((u) => u.href),
    ['http://127.0.92.5/new'],
  )
  assert.equal(
    readCrawledPage(start, html('<form method="post"><input name="u"><input type="password" name="p"></form>'), start, true).points.length,
    0,
  )
})

const obs = (headers: Record<string, string>, url = 'https://127.0.92.5/'): LightObs => ({
  base: new URL(url),
  page: { url, status: 200, headers: { 'content-type': 'text/html', ...headers }, setCookies: [], body: '<html></html>' },
  cors: null,
  robots: null,
  securityTxt: [null, null],
  options: null,
  trace: null,
  plainHttp: null,
  soft: profile([]),
  files: [],
  dirs: [],
  dirPages: [],
  adminPages: [],
  scripts: 0,
  libraries: [],
})
const run = async (o: LightObs, name: string) =>
  lightTests(o)
    .find((t) => t.name === name)!
    .run()

test('light tests: one per light check and the version test', () => {
  assert.equal(lightTests(obs({})).length, LIGHT_TESTS)
})

test('light tests: a page without X-Content-Type-Options fails the test, one with nosniff passes', async () => {
  assert.equal(((await run(obs({}), C.xctoMissing.name)) as unknown[]).length, 1)
  assert.deepEqual(await run(obs({ 'x-content-type-options': 'nosniff' }), C.xctoMissing.name), [])
})

test('light tests: HSTS is not judged on a plain-HTTP site', async () => {
  assert.equal(typeof (await run(obs({}, 'http://127.0.92.5/'), C.hstsMissing.name)), 'string')
})
