import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { runTool, type HarnessResult } from '../../helpers/tool-harness.js'
import { udpScanner } from '../../../src/tools/udp-scanner/run.js'
import { TOP_100_UDP, TOP_1000_UDP, UDP_PORTS } from '../../../src/tools/udp-scanner/data/ports.js'
import { parsePortPlan } from '../../../src/toolkit/ports.js'
import { parseNbstat, parseSnmp, probeFor } from '../../../src/tools/udp-scanner/probes/payloads.js'
import { exchange, RttTracker } from '../../../src/tools/udp-scanner/probes/exchange.js'
import { udpScannerChecks } from '../../../src/tools/udp-scanner/checks.js'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import { resolveToolParams } from '../../../src/toolkit/params.js'
import { ToolStartError } from '../../../src/toolkit/errors.js'
import { startUdpServices, SILENT_PORT, type UdpTestbed } from '../../testbed/udp-services.js'

const parsePorts = (spec: string) => [...parsePortPlan(spec, UDP_PORTS).ports]

const VULNERABLE = '127.0.5.1'
const HARDENED = '127.0.5.2'
const fast = { timeout_ms: 300, retries: 1 }

let vulnerable: UdpTestbed
let hardened: UdpTestbed
before(async () => {
  vulnerable = await startUdpServices(VULNERABLE, 'vulnerable')
  hardened = await startUdpServices(HARDENED, 'hardened')
})
after(async () => {
  await vulnerable?.close()
  await hardened?.close()
})

type Row = { port: number; protocol: string; state: string; service: string; banner: string | null }

function compareWithTruth(r: HarnessResult, bed: UdpTestbed) {
  assert.equal(r.error, undefined, r.error?.message)
  const rows = r.output.ports as Row[]
  for (const t of bed.truth) {
    const row = rows.find((x) => x.port === t.port)
    if (t.state === 'closed') {
      assert.equal(row, undefined, `${t.port} should be closed (absent from ports)`)
      continue
    }
    assert.ok(row, `${t.port} missing from ports`)
    assert.equal(row.state, t.state, `state of ${t.port}`)
    assert.equal(row.protocol, 'udp')
    if (t.service) assert.equal(row.service, t.service, `service of ${t.port}`)
    const ids = r.findings
      .filter((f) => f.port === t.port)
      .map((f) => f.check.id)
      .sort()
    const expected = (t.state === 'open' ? ['udp.ports.open', ...t.checks] : t.checks).sort()
    assert.deepEqual(ids, expected, `findings on ${t.port}`)
  }
  const summary = r.output.ports_summary as Record<string, number>
  assert.equal(summary.scanned, bed.ports.length)
  assert.equal(summary.closed, bed.truth.filter((t) => t.state === 'closed').length)
  assert.ok(r.findings.every((f) => f.protocol === 'udp' && typeof f.port === 'number'))
}

test('the vulnerable host: every planted service is found with its amplification findings', async () => {
  const r = await runTool(udpScanner, { target: VULNERABLE, params: { ports: vulnerable.ports.join(','), ...fast } })
  compareWithTruth(r, vulnerable)
  const rows = r.output.ports as Row[]
  assert.match(rows.find((x) => x.port === 161)!.banner!, /ward-testbed/)
  assert.match(rows.find((x) => x.port === 11211)!.banner!, /1\.4\.25/)
  assert.match(rows.find((x) => x.port === 53)!.banner!, /9\.11\.4/)
  const monlist = r.findings.find((f) => f.check.id === 'udp.ntp.monlist')!
  assert.deepEqual(monlist.check.cve, ['CVE-2013-5211'])
  assert.equal(monlist.confirmed, true)
  // One test per check, all finished: failed for planted problems.
  const failed = r.tests.filter((t) => t.result === 'failed').map((t) => t.name)
  assert.equal(failed.length, 11)
  assert.ok(failed.includes('Known vulnerabilities by version'))
  // The versions the replies named reach the catalogue, on UDP.
  const eol = r.findings.find((f) => f.check.id === 'eol.bind')!
  assert.deepEqual([eol.port, eol.protocol, eol.service], [53, 'udp', 'domain'])
  assert.match(eol.name ?? '', /^ISC BIND 9\.11 and older is past end of life \(2022-03\)$/)
  assert.deepEqual(
    (r.output.ports as Array<Row & { product: string | null; version: string | null }>)
      .filter((x) => x.product)
      .map((x) => [x.port, x.product, x.version]),
    [
      [53, 'ISC BIND', '9.11.4'],
      [11211, 'memcached', '1.4.25'],
    ],
  )
  assert.ok(r.tests.every((t) => t.status === 'finished'))
  assert.equal(r.progress, 100)
})

test('the hardened twin: the same services give no amplification finding', async () => {
  const r = await runTool(udpScanner, { target: HARDENED, params: { ports: hardened.ports.join(','), ...fast } })
  compareWithTruth(r, hardened)
  assert.deepEqual([...new Set(r.findings.map((f) => f.check.id))], ['udp.ports.open'])
  const byName = new Map(r.tests.map((t) => [t.name, t]))
  assert.equal(byName.get('DNS recursion for outside clients')!.result, 'passed')
  assert.equal(byName.get('NTP monlist (CVE-2013-5211)')!.result, 'passed')
  assert.equal(byName.get('memcached over UDP')!.status, 'skipped')
  assert.equal(byName.get('Known vulnerabilities by version')!.result, 'passed')
})

test('a URL target scans its host', async () => {
  const r = await runTool(udpScanner, { target: `http://${VULNERABLE}:8080/x`, params: { ports: '53,40001', ...fast } })
  assert.equal(r.error, undefined)
  assert.deepEqual(
    (r.output.ports as Row[]).map((x) => [x.port, x.state]),
    [[53, 'open']],
  )
})

test('exchange: reply → open, ICMP unreachable → closed, silence → open|filtered', async () => {
  const net = createDirectEgress()
  const signal = new AbortController().signal
  const o = { timeoutMs: 200, retries: 1, signal }
  assert.equal((await exchange(net, VULNERABLE, 123, probeFor(123).payloads, o)).state, 'open')
  assert.equal((await exchange(net, VULNERABLE, 40001, [Buffer.alloc(0)], o)).state, 'closed')
  const started = performance.now()
  const silent = await exchange(net, VULNERABLE, SILENT_PORT, [Buffer.from('x')], o)
  assert.equal(silent.state, 'open|filtered')
  assert.ok(performance.now() - started >= 390, 'waited for both attempts')
  // TFTP answers from another port: only the unconnected listener sees it.
  assert.equal((await exchange(net, VULNERABLE, 69, probeFor(69).payloads, { ...o, anySourcePort: true })).state, 'open')
  await net.close()
})

test('adaptive wait: after the host answered, silent ports are not given the full timeout', async () => {
  const t = new RttTracker(1500)
  assert.equal(t.wait(), 1500, 'no answer seen yet: the configured timeout')
  t.record(0.2)
  t.record(0.3)
  t.record(0.1)
  assert.equal(t.wait(), 250, 'loopback: the floor')
  t.record(120)
  assert.equal(t.wait(), 1200)
  t.record(400)
  assert.equal(t.wait(), 1500, 'never above timeout_ms')
  const r = await runTool(udpScanner, { target: VULNERABLE, params: { ports: vulnerable.ports.join(','), timeout_ms: 4000, retries: 1 } })
  compareWithTruth(r, vulnerable)
  assert.ok(r.elapsedMs < 3000, `silent port waited the full 2 × 4 s? took ${r.elapsedMs} ms`)
})

test('stopping: an abort ends the scan within a second and returns normally', async () => {
  const ac = new AbortController()
  setTimeout(() => ac.abort(new Error('stopped by user')), 200)
  const r = await runTool(udpScanner, {
    target: VULNERABLE,
    params: { ports: `${SILENT_PORT}`, timeout_ms: 5000, retries: 5 },
    signal: ac.signal,
  })
  assert.equal(r.error, undefined)
  assert.ok(r.elapsedMs < 1200, `took ${r.elapsedMs} ms`)
  assert.equal(r.tests.find((t) => t.name === 'UDP port discovery')!.status, 'error')
})

test('ports parameter: lists, ranges, named sets and bad values', async () => {
  assert.deepEqual(parsePorts('161,53,1000-1003,53'), [53, 161, 1000, 1001, 1002, 1003])
  assert.equal(new Set(TOP_100_UDP).size, 100)
  assert.equal(TOP_100_UDP.length, 100)
  assert.equal(new Set(TOP_1000_UDP).size, 1000)
  assert.equal(parsePorts('all').length, 65535)
  assert.throws(() => parsePorts('0-10'), /1-65535/)
  assert.throws(() => parsePorts('70000'), /1-65535/)
  assert.equal(resolveToolParams(udpScanner.params, { ports: 'abc' }).ok, false)
  assert.equal(resolveToolParams(udpScanner.params, { port: '53' }).ok, false)
  const d = resolveToolParams(udpScanner.params, {})
  assert.deepEqual(d, { ok: true, value: { ports: 'top100', timeout_ms: 1500, retries: 1 } })
  const r = await runTool(udpScanner, { target: VULNERABLE, params: { ports: '9-70000' } })
  assert.ok(r.error instanceof ToolStartError)
})

test('probe parsers reject foreign replies', () => {
  assert.equal(parseSnmp(Buffer.from('not ber')), null)
  assert.equal(parseNbstat(Buffer.alloc(60)), null)
  const snmp = parseSnmp(probeFor(161).payloads[0]!)
  assert.deepEqual([snmp?.community, snmp?.pdu, snmp?.version], ['public', 0xa0, 1])
  assert.equal(probeFor(11211).payloads[0]!.subarray(8).toString(), 'stats\r\n')
  assert.equal(probeFor(40000).id, 'empty')
})

test('udp checks: stable ids, real CWE and OWASP formats, references', () => {
  const ids = udpScannerChecks.map((c) => c.id)
  assert.equal(new Set(ids).size, ids.length)
  for (const c of udpScannerChecks) {
    assert.match(c.id, /^udp\.[a-z0-9-]+\.[a-z0-9-]+$/)
    assert.ok(c.cwe.length > 0 && c.cwe.every((w) => /^CWE-\d+$/.test(w)))
    for (const [year, v] of Object.entries(c.owasp)) assert.match(v, new RegExp(`^A\\d{1,2}:${year}-`))
    assert.ok(c.references.length > 0 && c.references.every((u) => u.startsWith('https://')))
  }
})
