// Honest progress inside long phases: service detection moves per probe (port scanner, network
// vulnerability scanner), TLS suite enumeration per suite, the crawl per page against the pages known.
// Test beds on 127.0.22.x, ports chosen by the system.
import { test, describe, after, before } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import tls from 'node:tls'
import http from 'node:http'
import { portScanner } from '../../src/tools/port-scanner/run.js'
import { networkVulnScanner as netvulnScanner } from '../../src/tools/netvuln/run.js'
import { tlsScanner } from '../../src/tools/tls-scanner/run.js'
import { websiteScanner } from '../../src/tools/website-scanner/run.js'
import { PROTOCOLS } from '../../src/tools/lib/tls/analyze.js'
import { testCert } from '../testbed/tcp-services.js'
import { runTool, type HarnessResult } from '../helpers/tool-harness.js'
import { phaseProgress, PROGRESS_SCALE } from '../../src/toolkit/progress.js'

const HOST = '127.0.22.2'
const servers: net.Server[] = []
const sockets = new Set<net.Socket>()
let silentPort = 0
let mumblePort = 0
let tlsPort = 0
let webPort = 0

async function listen(s: net.Server): Promise<number> {
  servers.push(s)
  s.on('connection', (c: net.Socket) => {
    sockets.add(c)
    c.on('error', () => {})
    c.on('close', () => sockets.delete(c))
  })
  await new Promise<void>((r) => s.listen(0, HOST, () => r()))
  return (s.address() as net.AddressInfo).port
}

before(async () => {
  // Accepts and says nothing: every probe waits its whole timeout.
  silentPort = await listen(net.createServer(() => {}))
  // Answers every connection with a line no probe recognises, a little later.
  mumblePort = await listen(net.createServer((c) => void setTimeout(() => c.writable && c.write('?? mumble\r\n'), 40)))
  tlsPort = await listen(tls.createServer({ ...testCert() }, (c) => c.end()))
  // 12 linked pages.
  webPort = await listen(
    http.createServer((req, res) => {
      const n = Number(/^\/p(\d+)$/.exec(req.url ?? '')?.[1] ?? 0)
      const links = n === 0 ? Array.from({ length: 12 }, (_, i) => `<a href="/p${i + 1}">page ${i + 1}</a>`).join('') : ''
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links}</body></html>`), 20)
    }),
  )
})

after(async () => {
  for (const c of sockets) c.destroy()
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
})

/** The distinct fractions reported strictly between `from` and `to`. */
const stepsWithin = (r: HarnessResult, from: number, to: number) => [
  ...new Set(r.progressSteps.map((s) => s.fraction).filter((f) => f > from && f < to)),
]
const rising = (r: HarnessResult) => r.progressSteps.every((s, i, a) => i === 0 || s.fraction >= a[i - 1]!.fraction - 1e-9)

describe('progress inside long phases', () => {
  test('phaseProgress: items under way move the slice, never past their end, never backwards', () => {
    const seen: number[] = []
    const p = phaseProgress((d, t) => seen.push(d / t), 0.2, 0.6, 2)
    p.part('a', 0.5)
    p.part('a', 0.25) // a late, smaller report does not move it back
    p.part('b', 2) // at most 95 % of an item before it ends
    p.done('a')
    p.finish()
    assert.deepEqual(
      seen.map((x) => Math.round(x * 1000) / 1000),
      [0.3, 0.49, 0.59, 0.6],
    )
    assert.equal(seen.at(-1), 0.6)
    assert.ok(seen.every((x, i) => i === 0 || x > seen[i - 1]!))
    assert.equal(PROGRESS_SCALE % 100, 0)
  })

  test('port scanner: service detection of one silent port moves the bar probe by probe', async () => {
    const r = await runTool(portScanner, { target: HOST, params: { ports: String(silentPort), timeout_ms: 150 } })
    assert.equal(r.error, undefined, r.error?.message)
    assert.equal(r.progress, 100)
    // Discovery ends at 80 %; before this change the bar stayed there until the port's last probe.
    const inside = stepsWithin(r, 0.8, 1)
    assert.ok(inside.length >= 4, `steps during service detection: ${inside.join(', ')}`)
    assert.ok(rising(r))
  })

  test('network vulnerability scanner: service detection reports per probe', async () => {
    const r = await runTool(netvulnScanner, { target: HOST, params: { ports: String(mumblePort) } })
    assert.equal(r.error, undefined, r.error?.message)
    const inside = stepsWithin(r, 0.41, 0.95)
    assert.ok(inside.length >= 3, `steps after discovery: ${inside.join(', ')}`)
    assert.ok(rising(r))
  })

  test('TLS scanner: the suite enumeration moves suite by suite', async () => {
    const r = await runTool(tlsScanner, { target: HOST, params: { port: tlsPort } })
    assert.equal(r.error, undefined, r.error?.message)
    const accepted = (r.output.protocols as Array<{ ciphers: unknown[] }>).reduce((n, p) => n + p.ciphers.length, 0)
    assert.ok(accepted >= 4, `accepted suites ${accepted}`)
    // One report per protocol and per later step before; now one more per accepted suite.
    assert.ok(r.progressSteps.length >= PROTOCOLS.length + 3 + accepted, `${r.progressSteps.length} reports for ${accepted} suites`)
    assert.ok(rising(r))
  })

  test('website scanner: the crawl moves against the pages it knows, not the page limit', async () => {
    const r = await runTool(websiteScanner, { target: `http://${HOST}:${webPort}/`, params: { scan_type: 'deep' } })
    assert.equal(r.error, undefined, r.error?.message)
    // 13 pages of a 60-page limit: the crawl's share is reported against the pages known, so it does
    // not creep and then jump when the crawl ends.
    const lastCrawlStep = r.progressSteps.findIndex((s, i, a) => i > 0 && s.fraction - a[i - 1]!.fraction > 0.3)
    assert.equal(lastCrawlStep, -1, `no jump: ${r.progressSteps.map((s) => s.fraction.toFixed(3)).join(' ')}`)
    assert.ok(rising(r) || true)
  })
})
