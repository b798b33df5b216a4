// The one redirect walker and the one start-URL resolver against a loopback site (127.0.92.1): a
// chain is followed to its end, a loop ends the walk without a second request for the same URL,
// the hop limit holds, and the caller's rule stops the walk at the first refused hop.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import type { HttpResponse } from '../../../src/toolkit/egress.js'
import { MAX_REDIRECT_HOPS, walkRedirects } from '../../../src/tools/lib/http/redirects.js'
import { resolveStartUrl } from '../../../src/tools/lib/http/start-url.js'
import { resolveBase } from '../../../src/tools/url-fuzzer/probes/base-url.js'
import { RedirectRefusedError } from '../../../src/toolkit/errors.js'

const HOST = '127.0.92.1'
let server: Server
let origin: string
const requested: string[] = []

before(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/'
    requested.push(path)
    const m = /^\/chain\/(\d+)$/.exec(path)
    const to = (l: string) => {
      res.writeHead(302, { location: l })
      res.end()
    }
    if (m) return Number(m[1]) > 0 ? to(`/chain/${Number(m[1]) - 1}`) : res.end('end of chain')
    if (path === '/loop/a') return to('/loop/b')
    if (path === '/loop/b') return to('/loop/a')
    if (path === '/away') return to('http://127.0.92.2/elsewhere')
    if (path === '/ftp') return to('ftp://127.0.92.1/file')
    res.end('ok')
  })
  await new Promise<void>((r) => server.listen(0, HOST, r))
  origin = `http://${HOST}:${(server.address() as AddressInfo).port}`
})
after(() => new Promise<void>((r) => server.close(() => r())))

const net = createDirectEgress()
const signal = new AbortController().signal
const get = (url: string) => net.http(url, { signal, timeoutMs: 5000 })

async function walk(path: string, allow: (next: URL) => boolean = () => true, maxHops?: number) {
  const url = origin + path
  return walkRedirects<HttpResponse>(
    { url, answer: await get(url) },
    { location: (r) => r.headers.location, status: (r) => r.status, allow, fetch: get, maxHops },
  )
}

test('a chain of redirects is followed to the answer', async () => {
  const w = await walk('/chain/3')
  assert.equal(w.end, 'answer')
  assert.equal(w.url, `${origin}/chain/0`)
  assert.equal(w.hops.length, 3)
})

test('a redirect loop ends the walk without requesting a URL twice', async () => {
  requested.length = 0
  const w = await walk('/loop/a')
  assert.equal(w.end, 'loop')
  assert.deepEqual(requested, ['/loop/a', '/loop/b'])
})

test('the hop limit holds whatever the caller asks', async () => {
  const w = await walk(`/chain/${MAX_REDIRECT_HOPS + 5}`, () => true, 50)
  assert.equal(w.end, 'limit')
  assert.equal(w.hops.filter((h) => h.followed).length, MAX_REDIRECT_HOPS)
})

test("the caller's rule stops the walk at the refused hop, which is recorded unfollowed", async () => {
  const w = await walk('/away', (next) => next.hostname === HOST)
  assert.equal(w.end, 'refused')
  assert.deepEqual(w.hops, [{ from: `${origin}/away`, to: 'http://127.0.92.2/elsewhere', status: 302, followed: false }])
})

test('a redirect to another scheme than http(s) is never followed', async () => {
  const w = await walk('/ftp')
  assert.equal(w.end, 'refused')
})

test('start URL: a loop sends the scan to the original URL', async () => {
  const r = await resolveStartUrl({
    net,
    target: { name: `${origin}/loop/a`, type: 'url' },
    redirectLevel: 'same_host',
    scanOriginalUrl: false,
    signal,
    log: () => {},
  })
  assert.equal(r.url, `${origin}/loop/a`)
})

test('fuzzer base: a loop gives the original folder, a redirect away refuses the scan', async () => {
  const b = await resolveBase(
    net,
    { id: 1, name: `${origin}/loop/a`, type: 'url' },
    { redirectLevel: 'same_host', scanOriginalUrl: false },
    signal,
  )
  assert.equal(b.base.href, `${origin}/loop/a/`)
  await assert.rejects(
    resolveBase(net, { id: 1, name: `${origin}/away`, type: 'url' }, { redirectLevel: 'same_host', scanOriginalUrl: false }, signal),
    RedirectRefusedError,
  )
})
