// The native port scans (native/port-scan.c behind the direct egress's portScan): SYN gives the same answers as the
// connect scan, on IPv4 and IPv6; the fallbacks (no CAP_NET_RAW, a VPN profile, a zoned address), the scope guard before any
// packet, and stop. Full-range scenarios run inside private network namespaces (bench/port-scan.ts).
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createDirectEgress } from '../../../src/engine/net/direct.js'
import { nativeScanUnavailable } from '../../../src/engine/net/native-scan.js'
import { createSocks5Egress } from '../../../src/engine/net/socks5.js'
import { parseScope } from '../../../src/toolkit/scope.js'
import { ScopeError } from '../../../src/toolkit/scope.js'
import { startSocks5Proxy } from '../../testbed/proxies.js'
import { startTcpServices } from '../../testbed/tcp-services.js'
import { runTool } from '../../helpers/tool-harness.js'
import { portScanner } from '../../../src/tools/port-scanner/run.js'
import { callInNetns, netnsUnavailable, withNetns } from '../../helpers/netns.js'
import type { ScanTestBedResult, abortFullScan, firewalledScan, toolScan } from '../../../bench/port-scan.js'

const ADDON = fileURLToPath(new URL('../../../native/build/port_scan.node', import.meta.url))
const why = netnsUnavailable()
const signal = () => new AbortController().signal

describe('SYN scan', () => {
  test('npm install builds the addon, and as root it can open a raw socket', () => {
    assert.ok(existsSync(ADDON), 'native/build/port_scan.node is built by scripts/build.mjs')
    if (process.getuid?.() !== 0) {
      console.log('raw socket check not run: not root')
      assert.match(nativeScanUnavailable('syn') ?? '', /not permitted/)
      assert.equal(nativeScanUnavailable('connect'), null)
      return
    }
    assert.equal(nativeScanUnavailable('syn'), null)
    assert.equal(nativeScanUnavailable('connect'), null)
  })

  test('the scope guard refuses a blocked host before any packet: literals in every spelling and names', async () => {
    const egress = createDirectEgress(parseScope('WARD_TARGET_BLOCKLIST', '127.0.39.0/24'))
    for (const host of ['127.0.39.9', '::ffff:127.0.39.9', 'localhost'.replace('localhost', '127.0.39.200')]) {
      await assert.rejects(
        egress.portScan!.scan(host, { method: 'syn', ports: [22], timeoutMs: 200, window: 10, signal: signal() }),
        ScopeError,
        host,
      )
    }
    // A name is resolved by the guard: localhost (127.0.0.1) under a block of 127.0.0.0/8.
    const all = createDirectEgress(parseScope('WARD_TARGET_BLOCKLIST', '127.0.0.0/8,::1'))
    await assert.rejects(
      all.portScan!.scan('localhost', { method: 'connect', ports: [22], timeoutMs: 200, window: 10, signal: signal() }),
      ScopeError,
    )
    // A zoned IPv6 address is left to Node's sockets (the native scanner cannot route by zone).
    await assert.rejects(
      createDirectEgress().portScan!.scan('fe80::1%lo', { method: 'connect', ports: [22], timeoutMs: 200, window: 10, signal: signal() }),
      { code: 'EAFNOSUPPORT' },
    )
    // The tool reports it like a blocked connect: the scan ends in error, nothing found.
    const r = await runTool(portScanner, { target: '127.0.39.9', params: { ports: '22', scan_method: 'syn' }, egress })
    assert.ok(r.error, 'blocked scan ends in error')
    assert.equal(r.findings.length, 0)
  })

  test('through a VPN profile a SYN scan is refused with a clear error, and auto uses connects', async () => {
    const bed = await startTcpServices('127.0.39.10', [{ service: 'ssh', port: 0 }])
    const proxy = await startSocks5Proxy({ host: '127.0.39.11', outboundAddress: '127.0.39.12' })
    const egress = createSocks5Egress({ host: proxy.host, port: proxy.port })
    try {
      const port = bed.ports[0].port
      const syn = await runTool(portScanner, {
        target: '127.0.39.10',
        params: { ports: String(port), scan_method: 'syn', service_detection: false },
        egress,
      })
      assert.equal(syn.error?.name, 'ToolStartError')
      assert.match(syn.error?.message ?? '', /SYN scan unavailable: the socks5 egress cannot send raw packets/)
      const auto = await runTool(portScanner, { target: '127.0.39.10', params: { ports: String(port), service_detection: false }, egress })
      assert.ok(!auto.error, auto.error?.message)
      assert.deepEqual(
        (auto.output.ports as Array<{ port: number }>).map((p) => p.port),
        [port],
      )
      assert.equal((auto.output.ports_summary as { method: string }).method, 'connect')
      assert.ok(
        auto.logs.includes('Discovery by TCP connect scan (SYN scan unavailable: the socks5 egress cannot send raw packets)'),
        auto.logs.join('\n'),
      )
    } finally {
      await egress.close()
      await proxy.close()
      await bed.close()
    }
  })
})

describe('SYN scans in private network namespaces', () => {
  const skip = (t: string) => {
    console.log(`${t} not run: ${why}`)
    assert.equal(typeof why, 'string')
  }

  test('a full 1-65535 SYN scan finds exactly the bed, as the connect scan does', async () => {
    if (why) return skip('full-range SYN scan')
    await withNetns('syn-full', async (ns) => {
      const r = await callInNetns<ScanTestBedResult>(ns, 'bench/port-scan.ts', 'scanTestBed', [{ runs: 1, methods: true }], {
        timeoutMs: 120_000,
      })
      const expected = r.expected.map((p) => p.port)
      assert.equal(r.ward.method, 'syn')
      assert.deepEqual(r.ward.open, expected)
      assert.deepEqual(r.connect?.open, expected)
      assert.ok(expected.length >= 18)
    })
  })

  test('dropped ports are filtered and the others keep their state, by SYN and by connect', async () => {
    if (why) return skip('firewalled SYN scan')
    for (const method of ['syn', 'connect'] as const) {
      const fw = await withNetns(`syn-fw-${method}`, (ns) =>
        callInNetns<Awaited<ReturnType<typeof firewalledScan>>>(ns, 'bench/port-scan.ts', 'firewalledScan', [
          { drop: [1000, 2000, 2500], upTo: 3000, method },
        ]),
      )
      assert.equal(fw.method, method)
      assert.deepEqual(fw.open, fw.expectedOpen, method)
      assert.deepEqual(fw.filtered, [1000, 2000, 2500], method)
      assert.equal(fw.closed, 3000 - 3 - 3, method)
    }
  })

  test('a stopped SYN scan returns at once with what it found', async () => {
    if (why) return skip('SYN scan stop')
    await withNetns('syn-stop', async (ns) => {
      const stop = await callInNetns<Awaited<ReturnType<typeof abortFullScan>>>(ns, 'bench/port-scan.ts', 'abortFullScan', [
        { afterMs: 150, method: 'syn' },
      ])
      assert.ok(stop.returnedMs < 1000, `returned ${stop.returnedMs} ms after the stop`)
      assert.equal(stop.error, null)
      assert.equal(stop.discovery?.status, 'error')
      assert.match(stop.discovery?.message ?? '', /scan stopped after \d+ of 65535 ports/)
      assert.ok(stop.logs.includes('Discovery by TCP SYN scan (raw socket, half-open)'), stop.logs.join('\n'))
    })
  })

  test('max_rate paces discovery, by SYN and by connect', async () => {
    if (why) return skip('max_rate')
    await withNetns('syn-rate', async (ns) => {
      for (const scan_method of ['syn', 'connect'] as const) {
        const r = await callInNetns<Awaited<ReturnType<typeof toolScan>>>(ns, 'bench/port-scan.ts', 'toolScan', [
          {
            address: '127.0.39.40',
            services: [{ service: 'ssh', port: 2222 }],
            params: { ports: '1-3000', max_rate: 2000, scan_method, service_detection: false },
          },
        ])
        assert.equal(r.error, null, scan_method)
        assert.deepEqual(r.ports, [2222], scan_method)
        assert.equal((r.summary as { method: string; closed: number }).method, scan_method)
        // 3,000 probes at 2,000/s cannot end before ~1.5 s (unpaced, either takes a fraction of that).
        assert.ok(r.elapsedMs >= 1400, `${scan_method}: 3000 ports at 2000/s in ${r.elapsedMs} ms`)
      }
    })
  })

  test('without CAP_NET_RAW: auto falls back to connects and says why; scan_method syn is refused', async () => {
    if (why) return skip('unprivileged SYN scan')
    await withNetns('syn-nocap', async (ns) => {
      const base = { address: '127.0.39.20', services: [{ service: 'ssh' as const, port: 2222 }] }
      const auto = await callInNetns<Awaited<ReturnType<typeof toolScan>>>(
        ns,
        'bench/port-scan.ts',
        'toolScan',
        [{ ...base, params: { ports: '2222,2223', service_detection: false } }],
        { dropCaps: ['net_raw'] },
      )
      assert.equal(auto.error, null)
      assert.deepEqual(auto.ports, [2222])
      assert.equal((auto.summary as { method: string }).method, 'connect')
      assert.ok(
        auto.logs.some((l) =>
          /^Discovery by TCP connect scan \(SYN scan unavailable: raw sockets are not permitted \(Operation not permitted; needs root or CAP_NET_RAW\)\)$/.test(
            l,
          ),
        ),
        auto.logs.join('\n'),
      )
      const syn = await callInNetns<Awaited<ReturnType<typeof toolScan>>>(
        ns,
        'bench/port-scan.ts',
        'toolScan',
        [{ ...base, params: { ports: '2222', scan_method: 'syn' } }],
        { dropCaps: ['net_raw'] },
      )
      assert.equal(syn.errorName, 'ToolStartError')
      assert.match(syn.error ?? '', /needs root or CAP_NET_RAW/)
    })
  })

  test('IPv6: a full-range SYN scan of ::1 finds the bed, as the connect scan does', async () => {
    if (why) return skip('IPv6 SYN scan')
    await withNetns('syn-v6', async (ns) => {
      const r = await callInNetns<ScanTestBedResult>(
        ns,
        'bench/port-scan.ts',
        'scanTestBed',
        [{ address: '::1', runs: 1, methods: true }],
        { timeoutMs: 120_000 },
      )
      const expected = r.expected.map((p) => p.port)
      assert.ok(expected.length >= 18)
      assert.equal(r.ward.method, 'syn')
      assert.deepEqual(r.ward.open, expected)
      assert.deepEqual(r.connect?.open, expected)
      const services = [{ service: 'http' as const, port: 8080 }]
      const v6 = await callInNetns<Awaited<ReturnType<typeof toolScan>>>(ns, 'bench/port-scan.ts', 'toolScan', [
        { address: '::1', services, params: { ports: '8080,8081', service_detection: false } },
      ])
      assert.equal(v6.error, null)
      assert.deepEqual([v6.ports, (v6.summary as { method: string }).method], [[8080], 'syn'])
    })
  })
})
