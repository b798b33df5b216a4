// The egress HTTP client (src/engine/net/http.ts) against a loopback server on 127.0.27.20: header
// shapes, body limit, timeout and abort, and one abort listener per caller signal however many requests.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import type net from 'node:net'
import { getEventListeners } from 'node:events'
import { createDirectEgress } from '../../../src/engine/net/direct.js'

const HOST = '127.0.27.20'
let server: http.Server
let base: string
const egress = createDirectEgress()

before(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/headers') {
      res.setHeader('X-Twice', ['a', 'b'])
      res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2'])
      res.setHeader('Content-Type', 'text/plain; charset=utf-8')
      return res.end('héllo')
    }
    if (req.url === '/big') return res.end(Buffer.alloc(200_000, 0x61))
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000).unref()
    res.statusCode = 404
    res.end(req.method === 'HEAD' ? undefined : 'no')
  })
  await new Promise<void>((r) => server.listen(0, HOST, r))
  base = `http://${HOST}:${(server.address() as net.AddressInfo).port}`
})

after(async () => {
  await egress.close()
  server.closeAllConnections()
  await new Promise((r) => server.close(r))
})

test('headers: lower-case names, repeats joined, set-cookie kept apart; body as UTF-8 text', async () => {
  const r = await egress.http(`${base}/headers`)
  assert.equal(r.status, 200)
  assert.equal(r.headers['x-twice'], 'a, b')
  assert.deepEqual(r.setCookies, ['a=1; Path=/', 'b=2'])
  assert.equal(r.headers['set-cookie'], undefined)
  assert.equal(r.text(), 'héllo')
  assert.equal(r.truncated, false)
  assert.ok(r.elapsedMs >= 0)
  const head = await egress.http(`${base}/nothing`, { method: 'HEAD' })
  assert.deepEqual([head.status, head.body.length], [404, 0])
})

test('a body over maxBodyBytes is cut and flagged; the client keeps working', async () => {
  const r = await egress.http(`${base}/big`, { maxBodyBytes: 1000 })
  assert.deepEqual([r.body.length, r.truncated, r.body.every((b) => b === 0x61)], [1000, true, true])
  const again = await egress.http(`${base}/big`)
  assert.deepEqual([again.body.length, again.truncated], [200_000, false])
})

test('timeout and abort reject with their reasons; an aborted signal rejects at once', async () => {
  await assert.rejects(
    egress.http(`${base}/slow`, { timeoutMs: 200 }),
    (e: Error & { code?: string }) => e.code === 'ETIMEDOUT' && /timed out after 200 ms/.test(e.message),
  )
  const ac = new AbortController()
  const p = egress.http(`${base}/slow`, { signal: ac.signal })
  setTimeout(() => ac.abort(new Error('stop now')), 50)
  await assert.rejects(p, /stop now/)
  await assert.rejects(egress.http(`${base}/headers`, { signal: ac.signal }), /stop now/)
})

test('one abort listener per caller signal, whatever the number of requests in flight', async () => {
  const ac = new AbortController()
  const all = Array.from({ length: 50 }, () => egress.http(`${base}/headers`, { signal: ac.signal }))
  assert.ok(getEventListeners(ac.signal, 'abort').length <= 1)
  const rs = await Promise.all(all)
  assert.ok(rs.every((r) => r.status === 200))
})
